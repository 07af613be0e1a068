"""The bot added to or removed from a group; a group becoming a supergroup; errors."""

from __future__ import annotations

import asyncio
import logging

from telegram import ChatMember, Update

from engine.roomid import RoomId
from engine.store import LANGUAGE_TTL, keys
from tgbot.egress.outgoing import Outgoing
from tgbot.table import introduction
from tgbot.table.handlers.common import (
    HANDLER_FAILURES,
    Context,
    is_outage,
    service,
)
from tgbot.table.handlers.language import speakers

log = logging.getLogger(__name__)


async def on_membership(update: Update, context: Context) -> None:
    """The bot added to a group introduces itself; removed, the room is closed and cleaned up."""
    change = update.my_chat_member
    assert change is not None
    svc = service(context)
    chat_id = change.chat.id
    old, new = change.old_chat_member.status, change.new_chat_member.status
    present = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER)
    if new in present and old not in present and change.chat.type != "private":
        # A new group speaks the language of whoever added the bot (the update speaks it
        # already), unless the group chose one before; if we do not speak theirs, that of
        # whoever opens the first lobby.
        if speakers().own is not None:
            await asyncio.to_thread(
                svc.redis.set, keys.group_language(chat_id), speakers().own, ex=LANGUAGE_TTL,
                nx=True,
            )
        # In a forum, its General topic.
        intro = Outgoing(chat_id=chat_id, text=introduction.introduction(svc.lineup))
        await asyncio.to_thread(svc.show, RoomId(chat_id), intro)
    elif new in (ChatMember.LEFT, ChatMember.BANNED) and change.chat.type != "private":
        await asyncio.to_thread(svc.store.delete_room, chat_id)


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: move its game to the new chat id."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id:
        await asyncio.to_thread(
            service(context).store.migrate, message.chat.id, message.migrate_to_chat_id
        )


async def on_error(update: object, context: Context) -> None:
    """Note every handler error for the worker, which handles the update again later when
    Redis did not answer, and sets it aside after a few failed tries otherwise."""
    update_id = getattr(update, "update_id", "?")
    failures = HANDLER_FAILURES.get()
    if failures is not None and context.error is not None:
        failures.append(context.error)
    if context.error is not None and is_outage(context.error):
        log.warning("update %s: Redis does not answer; it will be handled again", update_id)
        return
    log.error("update %s failed", update_id, exc_info=context.error)
