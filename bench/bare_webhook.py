"""The baseline of bench/e2e.py: a python-telegram-bot webhook app that only acknowledges.

`python bench/bare_webhook.py PORT TOKEN API_URL`: the same uvicorn as the `web` process; each
update is parsed and handed to an Application with no handlers, then answered 200.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application


def main(port: int, token: str, api_url: str) -> None:
    ptb = Application.builder().token(token).base_url(f"{api_url}/bot").updater(None).build()

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with ptb:
            yield

    async def webhook(request: Request) -> Response:
        update = Update.de_json(json.loads(await request.body()), ptb.bot)
        await ptb.process_update(update)
        return Response(status_code=200)

    app = Starlette(routes=[Route("/webhook", webhook, methods=["POST"])], lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
