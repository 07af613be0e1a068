"""The composition root: builds the service from the configuration and the games the bot
hosts (`tgbot.games.registry`), for the workers and polling alike."""

from __future__ import annotations

import logging

import redis

from engine.store import Store, keys
from engine.store.clock import RedisClock
from engine.store.replicas import Replicas
from tgbot.games.registry import LINEUP
from tgbot.ops.config import Config
from tgbot.ops.connection import sync_client
from tgbot.table.render import Look
from tgbot.table.screens import Lineup
from tgbot.table.service import Dispatch, Service

log = logging.getLogger(__name__)


def name_bot(config: Config) -> None:
    """Every key this process reads and writes carries the configured bot's id."""
    keys.use_bot(config.bot_id)


def redis_client(config: Config) -> redis.Redis:
    """A Redis client for the primary: REDIS_URL's, or the one the Sentinels name."""
    return sync_client(config, health_check_interval=30)


def build_service(
    config: Config,
    client: redis.Redis,
    bot_username: str,
    dispatch: Dispatch,
    lineup: Lineup = LINEUP,
) -> Service:
    """Wire the store, rendering and dispatch (RQ's in the bot's processes) for the games of
    `lineup` (every game the bot hosts, unless a test hosts others)."""
    name_bot(config)
    look = Look(
        bot_username=bot_username,
        key=config.signing_key,
        lineup=lineup,
        earlier_keys=config.earlier_signing_keys,
        app_url=config.board_app_url,
        app_link=config.app_link,
    )
    return Service(
        store=Store(client, lineup.games, clock=RedisClock(client),
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
