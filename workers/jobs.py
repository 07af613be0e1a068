"""RQ jobs: they take ids, never objects, and may run twice without harm."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from functools import cache

from telegram import Bot

from engine.commands import MarkUnreachable, Timeout
from engine.errors import ErrorCode, RuleError
from engine.model import Phase
from tgbot.bootstrap import build_service, known_username, redis_client
from tgbot.config import from_env
from tgbot.delivery import flush as flush_outbox
from tgbot.service import Service
from workers.dispatch import RqDispatch
from workers.ratelimit import RedisLimiter

log = logging.getLogger(__name__)


@cache
def runtime() -> tuple[Service, RqDispatch]:
    """The worker's service, built once per process from the environment."""
    config = from_env()
    client = redis_client(config)
    dispatch = RqDispatch(client, config.queue)
    username = known_username(client) or asyncio.run(_username(config.token, config.api_base))
    return build_service(config, client, username, dispatch), dispatch


async def _username(token: str, base_url: str) -> str:
    async with Bot(token, base_url=base_url) as bot:
        return bot.username


def fire_timer(chat_id: int, round_no: int, phase: str) -> str:
    """Apply a room's timeout; a timer the room has moved past does nothing."""
    service, dispatch = runtime()
    try:
        service.run(chat_id, Timeout(round_no=round_no, phase=Phase(phase)))
    except RuleError as error:
        if error.code is ErrorCode.TOO_EARLY:
            room = service.store.load(chat_id)
            if room is not None and room.deadline is not None:
                dispatch.schedule_timer(chat_id, round_no, phase, room.deadline)
            return "early"
        return error.code.value
    return "fired"


def flush(chat_id: int, attempt: int = 0) -> int:
    """Deliver a chat's outbox in order; come back later when Telegram asks to wait."""
    service, dispatch = runtime()
    config = from_env()

    def unreachable(room_chat: int, user: int, round_no: int, phase: str) -> None:
        # A stale report (the player acted meanwhile, the round moved on) changes nothing.
        with contextlib.suppress(RuleError):
            service.run(
                room_chat, MarkUnreachable(user_id=user, round_no=round_no, phase=Phase(phase))
            )

    async def go() -> int:
        async with Bot(config.token, base_url=config.api_base) as bot:
            result = await flush_outbox(
                bot, service.redis, chat_id, RedisLimiter(service.redis), unreachable, attempt
            )
        if result.retry_after is not None:
            dispatch.queue.enqueue_in(
                timedelta(seconds=result.retry_after),
                "workers.jobs.flush",
                chat_id,
                attempt + 1,
                result_ttl=600,
            )
        return result.delivered

    return asyncio.run(go())
