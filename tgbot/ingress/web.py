"""The webhook app: checks the secret, puts each update in its room's inbox, serves /healthz.

It answers Telegram as soon as the update is safe in Redis, in one round trip (shared by the
updates that arrive together); the workers handle it (`tgbot.ingress.inbox`, `workers.jobs.drain`).
So the webhook stays fast under any load, a slow Redis script or Bot API call never holds
Telegram's connection, and Telegram repeats an update only when Redis could not take it (503).
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

import redis.asyncio as aioredis
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.exceptions import RedisError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from engine.store import keys
from engine.store.replicas import Replicas
from tgbot.ingress.inbox import WebInbox, route, update_kind
from tgbot.ops import logs
from tgbot.ops.config import Config
from tgbot.ops.connection import async_client
from tgbot.ops.metrics import FLUSH_EVERY, TALLY, read_snapshot, registry
from tgbot.table.screens import Lineup
from tgbot.webapp.api import app_routes

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


# Telegram's largest updates are a few tens of kilobytes; anything much larger is not Telegram.
MAX_BODY = 1 << 20
METRICS_FRESH_S = 1.0  # /metrics serves one reading of Redis for this long


async def flush_metrics(client: aioredis.Redis) -> None:
    """Add this process's counts to Redis about once a second (`tgbot.ops.metrics`)."""
    while True:
        await asyncio.sleep(FLUSH_EVERY)
        await TALLY.aflush(client)


def create_app(
    config: Config,
    client: aioredis.Redis | None = None,
    games: Iterable[str] = (),
    lineup: Lineup | None = None,
) -> Starlette:
    """The ASGI app of the `web` process (`games`: the names of the games the bot hosts,
    whose running games /metrics counts; `lineup`: their Telegram sides, whose boards the
    board app at `/app/` shows; None: no app)."""
    hosted = list(games)
    own = client is None
    keys.use_bot(config.bot_id)  # the composition root of this process: its bot's key names
    # No health check before each command: a broken connection fails the push, which answers
    # 503 (Telegram sends the update again) and the pool opens a new connection.
    redis_client = client or async_client(config)
    inbox = WebInbox(redis_client, config.queue, Replicas(config.replica_wait_ms))
    secret = config.secret.encode()
    if config.secret_derived:
        log.info("WEBHOOK_SECRET is not set: checking a secret token derived from the bot token")

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # What the process holds once started (modules, the app) lives as long as it does:
        # out of the collector's sight, a full collection no longer walks it. Walking it took
        # 15-80 ms on a busy machine, every request in flight waiting.
        gc.collect()
        gc.freeze()
        flusher = asyncio.create_task(flush_metrics(redis_client))
        try:
            yield
        finally:
            flusher.cancel()
            await TALLY.aflush(redis_client)
            if own:
                await redis_client.aclose()

    async def webhook(request: Request) -> Response:
        answer = await take(request)
        TALLY.count("webhook_answers", status=str(answer.status_code))
        return answer

    async def take(request: Request) -> Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(), secret):
            return Response(status_code=403)
        declared = request.headers.get("content-length", "0")
        if not declared.isascii() or not declared.isdigit() or int(declared) > MAX_BODY:
            return JSONResponse({"ok": False, "error": "too large"}, status_code=413)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"ok": False, "error": "too large"}, status_code=413)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python goes
            return JSONResponse({"ok": False, "error": "malformed JSON"}, status_code=400)
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            return JSONResponse({"ok": False, "error": "not an update"}, status_code=400)
        where = route(data)
        if where is None:  # a kind of update the bot does not handle, or one without a chat
            return Response(status_code=200)
        try:
            if await inbox.push(data["update_id"], body, *where):
                TALLY.count("updates", kind=update_kind(data))
        except RedisError as error:
            # Telegram delivers the update again later: nothing is lost.
            with logs.about(chat=str(where[0]), update_id=data["update_id"]):
                log.warning("update %s not taken in: %s", data["update_id"], error)
            return JSONResponse({"ok": False, "error": "try again"}, status_code=503)
        return Response(status_code=200)

    # A scrape reads Redis (the backlogs of up to a thousand rooms): scrapes coming faster
    # than once a second, however many at once, share one reading.
    scraped: list[tuple[float, bytes]] = []
    reading = asyncio.Lock()

    async def metrics(request: Request) -> Response:
        if config.metrics_token and not hmac.compare_digest(
            request.headers.get("authorization", "").encode(),
            f"Bearer {config.metrics_token}".encode(),
        ):
            return Response(status_code=401)
        async with reading:
            if not scraped or time.monotonic() - scraped[-1][0] >= METRICS_FRESH_S:
                try:
                    snapshot = await read_snapshot(redis_client, hosted)
                except RedisError:
                    return JSONResponse({"ok": False, "redis": "down"}, status_code=503)
                scraped[:] = [(time.monotonic(), generate_latest(registry(snapshot)))]
            body = scraped[-1][1]
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    async def healthz(_request: Request) -> Response:
        try:
            await redis_client.ping()
        except RedisError:
            return JSONResponse({"ok": False, "redis": "down"}, status_code=503)
        return JSONResponse({"ok": True})

    # Updates are taken on any path: Telegram posts to exactly the URL release registered,
    # which `web` need not know (WEBHOOK_URL given to release only, or without a path); the
    # secret token, not the path, is what lets an update in.
    board_app = app_routes(config, redis_client, inbox, lineup) if lineup is not None else []
    return Starlette(
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
            *board_app,
            Route("/{path:path}", webhook, methods=["POST"]),
        ],
        lifespan=lifespan,
    )
