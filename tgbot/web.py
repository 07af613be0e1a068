"""The webhook app: checks the secret, applies each update once, serves /healthz.

The answer to a button press rides back on the webhook's HTTP response ("making requests when
getting updates" in the Bot API docs): Telegram runs the method given in the response body. It
saves a round trip to Telegram per press, the most frequent update of a game.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlparse

import redis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram._utils.defaultvalue import DEFAULT_NONE
from telegram._utils.types import ODVInput
from telegram.ext import Application
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from engine import keys
from tgbot.bootstrap import build_service, redis_client, remember_username
from tgbot.config import Config
from tgbot.handlers import register
from tgbot.service import Dispatch

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SEEN_SECONDS = 24 * 3600
THREADS = 64


def webhook_path(config: Config) -> str:
    """The path Telegram posts updates to: the path of WEBHOOK_URL, or /webhook."""
    path = urlparse(config.webhook_url).path if config.webhook_url else ""
    return path or "/webhook"


# Set while the webhook handles an update: the callback answer it gives, if any.
_reply: ContextVar[list[dict[str, Any]] | None] = ContextVar("webhook_reply", default=None)
ANSWER = "answerCallbackQuery"
_TRUE = b'{"ok":true,"result":true}'


class ReplyInResponse(BaseRequest):
    """Bot API requests over HTTP, except a callback answer given while handling a webhook
    update: that one is kept for the webhook's response (its result is taken as true)."""

    def __init__(self, inner: BaseRequest) -> None:
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        slot = _reply.get()
        if slot is not None and not slot and url.endswith("/" + ANSWER) and request_data:
            slot.append({"method": ANSWER, **request_data.parameters})
            return 200, _TRUE
        return await self.inner.do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )


def build_ptb(config: Config) -> Application[Any, Any, Any, Any, Any, Any]:
    """The python-telegram-bot application, without an updater: updates come from the webhook."""
    request = ReplyInResponse(HTTPXRequest(connection_pool_size=64))
    app = (
        Application.builder()
        .token(config.token)
        .base_url(config.api_base)
        .request(request)
        .updater(None)
        .build()
    )
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
        # Handlers run the store's Redis round trips in threads; with asyncio's default of a
        # handful of threads, concurrent updates would queue for one instead of for Redis.
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(THREADS, "web"))
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
        if await asyncio.to_thread(client.exists, seen):
            return JSONResponse({"ok": True, "duplicate": True})
        try:
            update = Update.de_json(data, ptb.bot)
        except Exception:  # a malformed update must not make Telegram repeat it forever
            log.warning("update %s does not parse", data["update_id"], exc_info=True)
            return JSONResponse({"ok": True, "ignored": True})
        reply: list[dict[str, Any]] = []
        token = _reply.set(reply)
        try:
            await ptb.process_update(update)
        finally:
            _reply.reset(token)
        await asyncio.to_thread(client.set, seen, 1, ex=SEEN_SECONDS)
        if reply:
            return JSONResponse(reply[0])
        return Response(status_code=200)

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
