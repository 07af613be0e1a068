"""Polling mode for local development: the same handlers, no public URL needed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from telegram.ext import Application

from tgbot.bootstrap import build_service, name_bot, redis_client, remember_username
from tgbot.ops.config import Config
from tgbot.ops.release import ALLOWED_UPDATES
from tgbot.table.handlers import register
from tgbot.table.service import Dispatch


def run_polling(config: Config, dispatch: Callable[[redis.Redis], Dispatch]) -> None:
    """Poll Telegram for updates and handle them as the webhook would (`dispatch`: where its
    deliveries and timers go, given the Redis client; the entry point knows)."""
    name_bot(config)
    client = redis_client(config)

    async def post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        username = app.bot.username
        remember_username(client, username)
        app.bot_data["service"] = build_service(config, client, username, dispatch(client))
        await app.bot.delete_webhook()

    app = (
        Application.builder()
        .token(config.token)
        .base_url(config.api_base)
        .post_init(post_init)
        .build()
    )
    register(app)
    app.run_polling(allowed_updates=ALLOWED_UPDATES)
