"""The composition root: builds the service from the configuration, for web and workers alike."""

from __future__ import annotations

import logging

import redis

from engine.games.registry import GAMES
from engine.store import Store, keys
from engine.store.clock import RedisClock
from engine.store.replicas import Replicas
from tgbot.ops.config import Config
from tgbot.ops.connection import sync_client
from tgbot.table.render import Look
from tgbot.table.service import Dispatch, Service

log = logging.getLogger(__name__)


def name_bot(config: Config) -> None:
    """Every key this process reads and writes carries the configured bot's id."""
    keys.use_bot(config.bot_id)


def redis_client(config: Config) -> redis.Redis:
    """A Redis client for the primary: REDIS_URL's, or the one the Sentinels name."""
    return sync_client(config, health_check_interval=30)


def build_service(
    config: Config, client: redis.Redis, bot_username: str, dispatch: Dispatch | None = None
) -> Service:
    """Wire the store, rendering and dispatch (RQ unless a test passes its own)."""
    name_bot(config)
    if dispatch is None:
        from workers.dispatch import RqDispatch

        dispatch = RqDispatch(client, config.queue)
    look = Look(
        bot_username=bot_username,
        key=config.signing_key,
        earlier_keys=config.earlier_signing_keys,
    )
    return Service(
        store=Store(client, GAMES, clock=RedisClock(client),
                    replicas=Replicas(config.replica_wait_ms)),
        redis=client,
        look=look,
        dispatch=dispatch,
        timer_scale=config.timer_scale,
        quick_timers=config.quick_timers,
    )


def remember_username(client: redis.Redis, username: str) -> None:
    """Let the other processes know the bot's @username (for deep links) without asking
    Telegram."""
    try:
        client.set(keys.bot_username(), username)
    except redis.RedisError:
        # Go on anyway: the other processes ask Telegram themselves.
        log.warning("Redis does not answer; the bot's username is not shared")


def known_username(client: redis.Redis) -> str | None:
    """The bot's @username as a process last learnt it from Telegram."""
    raw = client.get(keys.bot_username())
    return raw.decode() if isinstance(raw, bytes) else raw
