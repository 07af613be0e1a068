"""The `release` step: register the webhook with Telegram."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand

from engine.store.migrate import migrate_keys
from tgbot import i18n
from tgbot.bootstrap import name_bot, redis_client
from tgbot.i18n import N_, _
from tgbot.ops.config import Config

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
MAX_CONNECTIONS = 40

COMMANDS = {
    "newgame": N_("open a lobby in this group"),
    "join": N_("join the lobby, or the running game"),
    "extend": N_("a minute more before the lobby starts by itself"),
    "forcestart": N_("start the lobby now (host or admin)"),
    "settings": N_("the lobby's settings (host or admin)"),
    "score": N_("scores of the current or last game"),
    "stats": N_("your lifetime figures (reply to a message: its sender's)"),
    "top": N_("the group's leaderboard of the last 90 days"),
    "notify": N_("a private message when the next game opens here"),
    "rules": N_("how to play"),
    "help": N_("commands"),
    "language": N_("the language I write to you in"),
    "leave": N_("leave the lobby or the game"),
    "back": N_("play again after sitting out"),
    "skip": N_("skip the player we wait for (host or admin)"),
    "stop": N_("end the game (host or admin)"),
}


def command_menu(language: str) -> list[BotCommand]:
    """The command menu in one language."""
    with i18n.use(language):
        return [BotCommand(name, _(about)) for name, about in COMMANDS.items()]


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
        # English for everybody, then each other language for the users whose app speaks it.
        await bot.set_my_commands(command_menu(i18n.DEFAULT))
        for language in i18n.LANGUAGES:
            if language != i18n.DEFAULT:
                await bot.set_my_commands(command_menu(language), language_code=language)
    log.info("webhook set to %s", config.webhook_url)
    if config.secret_derived:
        log.info("WEBHOOK_SECRET is not set: the webhook's secret token is derived from the "
                 "bot token (web derives the same one)")  # fmt: skip
