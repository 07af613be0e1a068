"""The private chat: /start with its deep links, the storyteller's hint, re-sending."""

from __future__ import annotations

import asyncio

from telegram import Update

from engine.commands import (
    GiveHint,
    Join,
)
from engine.events import PlayerJoined
from engine.model import Phase
from tgbot import render, texts
from tgbot.handlers.common import (
    Context,
    attempt,
    display_name,
    reply,
    service,
)
from tgbot.outgoing import Outgoing
from tgbot.texts import _


async def on_start(update: Update, context: Context) -> None:
    """/start in private: remember the chat, join by deep link, or re-send what we wait for."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    await asyncio.to_thread(svc.mark_started, user.id)
    payload = context.args[0] if context.args else ""
    if payload.startswith("j") and payload[1:].lstrip("-").isdigit():
        name, username = display_name(update)
        outcome, problem = await attempt(
            update, context, int(payload[1:]), Join(user_id=user.id, name=name, username=username)
        )
        late = outcome is not None and any(
            isinstance(e, PlayerJoined) and e.late for e in outcome.events
        )
        await reply(update, context, problem or (texts.JOINED_LATE if late else texts.JOINED))
        return
    if not await resend(update, context):
        await reply(update, context, texts.PRIVATE_HELP)


async def resend(update: Update, context: Context) -> bool:
    """Re-send the private message the game waits on from this player, if any."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    chat_id = await asyncio.to_thread(svc.store.room_of_player, user.id)
    room = await asyncio.to_thread(svc.store.load, chat_id) if chat_id is not None else None
    if room is None or room.round is None:
        return False
    index = room.seat_of(user.id)
    rnd = room.round
    if index is None:
        return False
    look = svc.look
    message: Outgoing | None = None
    if room.seats[index].status.value == "spectating":
        message = render.spectator_dm(room, index, look)
    elif index == rnd.storyteller and room.phase is Phase.HINT:
        message = render.storyteller_dm(room, index, look)
    elif room.phase is Phase.DECOYS and index in rnd.participants and index not in rnd.plays:
        message = render.decoy_dm(room, index, look)
    if message is None:
        return False
    # A new message at the bottom of the chat, which later edits then follow.
    await asyncio.to_thread(svc.show, room.chat_id, message.model_copy(update={"fresh": True}))
    return True


async def on_private_text(update: Update, context: Context) -> None:
    """Text in private: the storyteller's hint."""
    svc = service(context)
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    chat_id = await asyncio.to_thread(svc.store.room_of_player, user.id)
    if chat_id is None:
        await reply(update, context, texts.PRIVATE_HELP)
        return
    _outcome, problem = await attempt(
        update, context, chat_id, GiveHint(user_id=user.id, text=message.text or "")
    )
    if problem:
        await reply(update, context, problem)
    else:
        await reply(update, context, _("Hint given. The others are choosing their decoys."))
