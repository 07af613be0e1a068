"""Telegram handlers: parse an update, build an engine command, run it, answer. Kept thin."""

from __future__ import annotations

import asyncio
import json
import logging
from enum import Enum
from typing import Any

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from tgbot.i18n import DEFAULT
from tgbot.table.handlers.buttons import on_button
from tgbot.table.handlers.common import HANDLER_FAILURES, is_outage
from tgbot.table.handlers.community import on_notify, on_stats, on_top
from tgbot.table.handlers.flood import flood_guard
from tgbot.table.handlers.group import (
    on_back,
    on_extend,
    on_forcestart,
    on_help,
    on_join_command,
    on_leave,
    on_newgame,
    on_rules,
    on_score,
    on_settings,
    on_skip,
    on_stop,
    wrong_chat,
)
from tgbot.table.handlers.language import Speakers, on_language, read, speaking
from tgbot.table.handlers.membership import on_error, on_membership, on_migrate
from tgbot.table.handlers.private import on_private_text, on_start

log = logging.getLogger(__name__)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register every handler in one place."""
    group, private = filters.ChatType.GROUPS, filters.ChatType.PRIVATE
    app.add_handler(TypeHandler(Update, flood_guard), group=-1)
    app.add_handler(ChatMemberHandler(on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    for name, handler in [
        ("newgame", on_newgame),
        ("settings", on_settings),
        ("join", on_join_command),
        ("leave", on_leave),
        ("back", on_back),
        ("skip", on_skip),
        ("stop", on_stop),
        ("score", on_score),
        ("extend", on_extend),
        ("forcestart", on_forcestart),
        ("top", on_top),
        ("notify", on_notify),
    ]:
        app.add_handler(CommandHandler(name, handler, filters=group))
        app.add_handler(CommandHandler(name, wrong_chat, filters=private))
    app.add_handler(CommandHandler("start", on_start, filters=private))
    app.add_handler(CommandHandler("start", on_help, filters=group))
    app.add_handler(CommandHandler("help", on_help))
    app.add_handler(CommandHandler("rules", on_rules))
    app.add_handler(CommandHandler("stats", on_stats))
    app.add_handler(CommandHandler("language", on_language))
    app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, on_private_text))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_error_handler(on_error)


class Handled(Enum):
    """How handling an update went."""

    DONE = "done"
    LATER = "later"  # Redis did not answer: handle it again later
    FAILED = "failed"  # its handler failed for another reason: trying again may not help


def _clean(value: Any) -> Any:
    """The update's strings with lone surrogates (valid in JSON, not in UTF-8) replaced."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, dict):
        return {key: _clean(item) for key, item in value.items()}
    return value


# Of the message a pressed button sits under, the handlers read where it is (its chat, id,
# topic) and whether it is still accessible (its date): its text, entities, buttons and picture
# are left out before parsing, which they made half the cost of (a table message with its
# buttons: 275 µs to parse a press, 134 µs without them).
_UNREAD = ("text", "entities", "caption", "caption_entities", "reply_markup", "photo",
           "link_preview_options")  # fmt: skip


def _slim(update: Any) -> Any:
    """The update without what the handlers never read (`_UNREAD`)."""
    query = update.get("callback_query") if isinstance(update, dict) else None
    message = query.get("message") if isinstance(query, dict) else None
    if isinstance(message, dict):
        for name in _UNREAD:
            message.pop(name, None)
    return update


async def handle(app: Application[Any, Any, Any, Any, Any, Any], raw: bytes) -> Handled:
    """Handle one update as Telegram sent it. LATER when Redis failed it midway: it must be
    handled again later (what it did already is not done twice: the store knows the update).
    An update that does not parse is logged and dropped (handling it again would not help)."""
    try:
        update = Update.de_json(_clean(_slim(json.loads(raw))), app.bot)
    except Exception:
        log.warning("an update does not parse: %.200r", raw, exc_info=True)
        return Handled.DONE
    try:
        speakers: Speakers = await asyncio.to_thread(read, app.bot_data["service"].redis, update)
    except Exception as error:
        if is_outage(error):
            return Handled.LATER
        # A language remembered wrongly must not hold the game up: English, and go on.
        log.warning("update %s: its languages could not be read", update.update_id, exc_info=True)
        speakers = Speakers(chat=DEFAULT, user=DEFAULT, own=None)
    failures: list[BaseException] = []
    token = HANDLER_FAILURES.set(failures)
    try:
        with speaking(speakers):
            await app.process_update(update)
    finally:
        HANDLER_FAILURES.reset(token)
    if any(is_outage(error) for error in failures):
        return Handled.LATER
    return Handled.FAILED if failures else Handled.DONE
