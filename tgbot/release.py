"""The `release` step: register the webhook with Telegram."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand

from tgbot.bootstrap import name_bot, redis_client
from tgbot.config import Config
from tgbot.migrate import migrate_keys

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
MAX_CONNECTIONS = 40

COMMANDS = [
    BotCommand("newgame", "open a lobby in this group"),
    BotCommand("join", "join the lobby, or the running game"),
    BotCommand("settings", "the lobby's settings (host or admin)"),
    BotCommand("score", "scores of the current or last game"),
    BotCommand("rules", "how to play"),
    BotCommand("help", "commands"),
    BotCommand("leave", "leave the lobby or the game"),
    BotCommand("back", "play again after sitting out"),
    BotCommand("skip", "skip the player we wait for (host or admin)"),
    BotCommand("stop", "end the game (host or admin)"),
]


async def release(config: Config) -> None:
    """The release step: move keys named before they carried the bot's id, then set the
    webhook."""
    name_bot(config)
    client = redis_client(config)
    try:
        migrate_keys(client)
    finally:
        client.close()
    await set_webhook(config)


async def set_webhook(config: Config) -> None:
    """Point Telegram at WEBHOOK_URL with the secret token and the update types we handle."""
    if not config.webhook_url:
        raise SystemExit("WEBHOOK_URL is not set")
    async with Bot(config.token, base_url=config.api_base) as bot:
        await bot.set_webhook(
            url=config.webhook_url,
            secret_token=config.secret,
            allowed_updates=ALLOWED_UPDATES,
            max_connections=MAX_CONNECTIONS,
        )
        await bot.set_my_commands(COMMANDS)
    log.info("webhook set to %s", config.webhook_url)
    if config.secret_derived:
        log.info("WEBHOOK_SECRET is not set: the webhook's secret token is derived from the "
                 "bot token (web derives the same one)")  # fmt: skip
