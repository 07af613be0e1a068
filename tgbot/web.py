"""The webhook app: checks the secret, applies each update once, serves /healthz."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlparse

import redis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application

from engine import keys
from tgbot.bootstrap import build_service, redis_client, remember_username
from tgbot.config import Config
from tgbot.handlers import register
from tgbot.service import Dispatch

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SEEN_SECONDS = 24 * 3600


def webhook_path(config: Config) -> str:
    """The path Telegram posts updates to: the path of WEBHOOK_URL, or /webhook."""
    path = urlparse(config.webhook_url).path if config.webhook_url else ""
    return path or "/webhook"


def build_ptb(config: Config) -> Application[Any, Any, Any, Any, Any, Any]:
    """The python-telegram-bot application, without an updater: updates come from the webhook."""
    app = Application.builder().token(config.token).base_url(config.api_base).updater(None).build()
    register(app)
    return app


def create_app(
    config: Config, client: redis.Redis | None = None, dispatch: Dispatch | None = None
) -> Starlette:
    """The ASGI app of the `web` process."""
    client = client or redis_client(config)
    ptb = build_ptb(config)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with ptb:
            username = ptb.bot.username
            remember_username(client, username)
            ptb.bot_data["service"] = build_service(config, client, username, dispatch)
            yield

    async def webhook(request: Request) -> Response:
        if config.webhook_secret and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), config.webhook_secret.encode()
        ):
            return Response(status_code=403)
        try:
            data = json.loads(await request.body())
        except ValueError:
            return JSONResponse({"ok": False, "error": "malformed JSON"}, status_code=400)
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            return JSONResponse({"ok": False, "error": "not an update"}, status_code=400)
        seen = keys.update_seen(data["update_id"])
        if client.exists(seen):
            return JSONResponse({"ok": True, "duplicate": True})
        try:
            update = Update.de_json(data, ptb.bot)
        except Exception:  # a malformed update must not make Telegram repeat it forever
            log.warning("update %s does not parse", data["update_id"], exc_info=True)
            return JSONResponse({"ok": True, "ignored": True})
        await ptb.process_update(update)
        client.set(seen, 1, ex=SEEN_SECONDS)
        return JSONResponse({"ok": True})

    async def healthz(_request: Request) -> Response:
        try:
            client.ping()
        except redis.RedisError:
            return JSONResponse({"ok": False, "redis": "down"}, status_code=503)
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            Route(webhook_path(config), webhook, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
