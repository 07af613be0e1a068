"""The private chat: /start with its deep links, the storyteller's hint, re-sending."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

from telegram import Update

from engine.commands import GiveHint, Join, OpenedPrivateChat
from engine.errors import RuleError
from engine.events import PlayerJoined
from engine.model import OVER_PHASES, Room
from engine.roomid import RoomId
from engine.store import CorruptRoom
from tgbot import i18n
from tgbot.i18n import _, texts
from tgbot.table import introduction, render
from tgbot.table.handlers.common import (
    Context,
    attempt,
    display_name,
    reply,
    run,
    service,
)
from tgbot.table.handlers.language import speakers
from tgbot.table.notify import is_subscribed
from tgbot.table.service import Service

# Deep-link payloads: j<room> joins that room's game; r<room> connects a seated player to it
# (a room as `engine.roomid` writes it: `<chat>`, or `<chat>_<topic>` for a forum topic);
# n<room> puts the player on that group's list for its next lobby (/notify).
PAYLOAD = re.compile(r"([jrn])(-?[0-9]{1,20}(?:_[1-9][0-9]{0,19})?)", re.ASCII)


async def on_start(update: Update, context: Context) -> None:
    """/start in private: remember the chat, join by deep link, or say where the game stands
    for this player (re-sending what it waits for from them)."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    await asyncio.to_thread(svc.mark_started, user.id)
    payload = PAYLOAD.fullmatch(context.args[0]) if context.args else None
    # The link of /notify (or of its button) for one who had not opened this chat: they are on
    # the group's list already. The link itself subscribes nobody: a stranger who guessed a
    # group's id learns nothing of its games.
    group = RoomId.parse(payload[2]).chat if payload is not None and payload[1] == "n" else None
    if group is not None and await asyncio.to_thread(is_subscribed, svc, group, user.id):
        await reply(update, context, _("🔔 I will write to you here when the next game opens in "
                                       "that group."))  # fmt: skip
        return
    if payload is not None and payload[1] == "j":
        await _join_by_link(update, context, RoomId.parse(payload[2]))
        return
    # The bot found by name after pressing Join in a group (a plain /start, not the link):
    # the seat waits for them all the same.
    awaiting = await asyncio.to_thread(svc.take_awaiting, user.id) if payload is None else None
    if awaiting is not None and await _join_by_link(update, context, awaiting, quiet=True):
        return
    room = await _connect(update, context)
    if room is None:
        await reply(update, context, introduction.private_help(service(context).lineup))
    elif not await resend(update, context, room):
        told = service(context).lineup.of(room).where_it_stands(room, user.id)
        await reply(update, context, told)


async def _join_by_link(update: Update, context: Context, where: RoomId,
                        quiet: bool = False) -> bool:  # fmt: skip
    """Take the seat of the room whose Join link was opened; say so, or why not (`quiet`: a
    refusal says nothing, for the caller to answer as it would). Whether it was answered."""
    user = update.effective_user
    assert user is not None
    name, username = display_name(update)
    join = Join(user_id=user.id, name=name, username=username, language=speakers().own)
    outcome, problem = await attempt(update, context, where, join)
    if problem:
        if not quiet:
            await reply(update, context, problem)
        return not quiet
    if outcome is None or outcome.room is None:
        return True  # handled before: answered then
    room, late = outcome.room, any(isinstance(e, PlayerJoined) and e.late
                                   for e in outcome.events)  # fmt: skip
    index = room.seat_of(user.id)
    # Seated now: a player without a language of their own is told in the group's.
    with i18n.use(render.seat_language(room, index) if index is not None else None):
        joined = texts.JOINED_LATE_IN if late else service(context).lineup.of(room).joined()
        await reply(update, context, joined.format(group=render.title(room)))
    return True


async def _connect(update: Update, context: Context) -> Room | None:
    """The room of the game the user sits in, now knowing the bot can write to them."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    where = await asyncio.to_thread(svc.store.room_of_player, user.id)
    if where is None:
        return None
    # Refused when the bot could write to them already, or the seat is gone: nothing to note.
    with contextlib.suppress(RuleError):
        await run(svc, where, OpenedPrivateChat(user_id=user.id), update)
    try:
        room = await asyncio.to_thread(svc.store.load, where)
    except CorruptRoom:
        return None
    if room is None or room.phase in OVER_PHASES or room.seat_of(user.id) is None:
        return None
    return room


async def resend(update: Update, context: Context, room: Room) -> bool:
    """Re-send the private message the game waits on from this player, if any."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    index = room.seat_of(user.id)
    if index is None:
        return False
    message = svc.lineup.of(room).waiting_prompt(room, index, svc.look.at(time.time()))
    if message is None:
        return False
    # A new message at the bottom of the chat, which later edits then follow; the old copy
    # loses its buttons.
    await asyncio.to_thread(svc.show, room.room_id, message.model_copy(update={"fresh": True}))
    return True


async def on_private_text(update: Update, context: Context) -> None:
    """Text in private: the storyteller's hint, the active player's clue."""
    svc = service(context)
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    where = await asyncio.to_thread(svc.store.room_of_player, user.id)
    if where is None:
        await reply(update, context, introduction.private_help(service(context).lineup))
        return
    # The text a player types in private is the game's: a hint, a clue.
    outcome, problem = await attempt(
        update, context, where, GiveHint(user_id=user.id, text=message.text or ""),
        typed_by=user.id,
    )  # fmt: skip
    if problem:
        late = await asyncio.to_thread(_too_late, svc, where, user.id)
        await reply(update, context, late or problem)
        return
    room = outcome.room if outcome is not None else None
    if room is None:  # a duplicate: answered as the first copy was
        room = await asyncio.to_thread(svc.store.load, where)
    side = svc.lineup.screens[room.game if room is not None else svc.games.default.name]
    if side.text_given is not None:
        await reply(update, context, side.text_given())


def _too_late(svc: Service, where: RoomId, user_id: int) -> str | None:
    """What a player whose typed text was refused is told instead of the refusal when their
    time had just run out, as their game says (None: the refusal)."""
    try:
        room = svc.store.load(where)
    except CorruptRoom:
        return None
    index = room.seat_of(user_id) if room is not None else None
    if room is None or index is None:
        return None
    too_late = svc.lineup.of(room).too_late
    return too_late(room, index) if too_late is not None else None
