"""The webhook app: checks the secret, puts each update in its room's inbox, serves /healthz.

It answers Telegram as soon as the update is safe in Redis, in one round trip (shared by the
updates that arrive together); the workers handle it (`tgbot.inbox`, `workers.jobs.drain`).
So the webhook stays fast under any load, a slow Redis script or Bot API call never holds
Telegram's connection, and Telegram repeats an update only when Redis could not take it (503).
"""

from __future__ import annotations

import gc
import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlparse

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tgbot.config import Config
from tgbot.inbox import WebInbox, route

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def webhook_path(config: Config) -> str:
    """The path Telegram posts updates to: the path of WEBHOOK_URL, or /webhook."""
    path = urlparse(config.webhook_url).path if config.webhook_url else ""
    return path or "/webhook"


def create_app(config: Config, client: aioredis.Redis | None = None) -> Starlette:
    """The ASGI app of the `web` process."""
    own = client is None
    # No health check before each command: a broken connection fails the push, which answers
    # 503 (Telegram sends the update again) and the pool opens a new connection.
    redis_client = client or aioredis.Redis.from_url(config.redis_url)
    inbox = WebInbox(redis_client, config.queue)
    secret = config.webhook_secret.encode()

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # What the process holds once started (modules, the app) lives as long as it does:
        # out of the collector's sight, a full collection no longer walks it. Walking it took
        # 15-80 ms on a busy machine, every request in flight waiting.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            if own:
                await redis_client.aclose()

    async def webhook(request: Request) -> Response:
        if secret and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), secret
        ):
            return Response(status_code=403)
        body = await request.body()
        try:
            data = json.loads(body)
        except ValueError:
            return JSONResponse({"ok": False, "error": "malformed JSON"}, status_code=400)
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            return JSONResponse({"ok": False, "error": "not an update"}, status_code=400)
        where = route(data)
        if where is None:  # a kind of update the bot does not handle, or one without a chat
            return Response(status_code=200)
        try:
            await inbox.push(data["update_id"], body, *where)
        except RedisError:
            # Telegram delivers the update again later: nothing is lost.
            log.warning("update %s not taken in: Redis does not answer", data["update_id"])
            return JSONResponse({"ok": False, "error": "try again"}, status_code=503)
        return Response(status_code=200)

    async def healthz(_request: Request) -> Response:
        try:
            await redis_client.ping()
        except RedisError:
            return JSONResponse({"ok": False, "redis": "down"}, status_code=503)
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            Route(webhook_path(config), webhook, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
        ],
        lifespan=lifespan,
    )
