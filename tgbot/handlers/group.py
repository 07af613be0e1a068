"""Group commands: /newgame, /settings, /join, /leave, /back, /skip, /stop, /score and more."""

from __future__ import annotations

import asyncio
import html
import secrets

from telegram import Update

from engine.commands import (
    ChangeSettings,
    ComeBack,
    Join,
    Leave,
    OpenLobby,
    Skip,
)
from engine.errors import ErrorCode, RuleError
from engine.model import Phase
from engine.settings import parse_changes
from engine.store import CorruptRoom
from tgbot import render, texts
from tgbot.handlers.common import (
    Context,
    attempt,
    command_in_group,
    display_name,
    error_text,
    reply,
    service,
)
from tgbot.outgoing import Outgoing
from tgbot.texts import _


async def on_newgame(update: Update, context: Context) -> None:
    """/newgame: open a lobby, or point to the one already here."""
    chat = update.effective_chat
    user = update.effective_user
    assert chat is not None and user is not None
    name, username = display_name(update)
    svc = service(context)
    command = OpenLobby(
        chat_id=chat.id,
        title=chat.title or "",
        user_id=user.id,
        name=name,
        username=username,
        seed=secrets.randbits(64),
        timer_scale=svc.timer_scale,
    )
    _outcome, problem = await attempt(update, context, chat.id, command)
    if problem:
        await reply(update, context, problem + " " + _("Scroll up to its latest message."))
    elif not await asyncio.to_thread(svc.has_started, user.id):
        # The host's secret choices are made in private: make sure the bot can write there.
        await reply(
            update,
            context,
            texts.HOST_OPEN_PRIVATE.format(
                name=html.escape(name), link=svc.look.link(f"r{chat.id}")
            ),
        )


async def on_settings(update: Update, context: Context) -> None:
    """/settings key=value …: change the lobby's settings."""
    user = update.effective_user
    assert user is not None
    try:
        changes = parse_changes(" ".join(context.args or []))
    except RuleError as error:
        await reply(
            update,
            context,
            error_text(error) + "\n" + _("Example: /settings rotations=3 hint=60 timers=off"),
        )
        return
    await command_in_group(update, context, ChangeSettings(user_id=user.id, changes=changes))


async def on_join_command(update: Update, context: Context) -> None:
    """/join: take a seat in the lobby, or late in a running game."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if not await asyncio.to_thread(svc.has_started, user.id):
        await reply(
            update, context, texts.OPEN_PRIVATE_LINK.format(link=svc.look.link(f"j{chat.id}"))
        )
        return
    name, username = display_name(update)
    await command_in_group(update, context, Join(user_id=user.id, name=name, username=username))


async def on_leave(update: Update, context: Context) -> None:
    """/leave: leave the lobby or the game."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, Leave(user_id=user.id))


async def on_back(update: Update, context: Context) -> None:
    """/back: play again after sitting out."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, ComeBack(user_id=user.id))


async def on_skip(update: Update, context: Context) -> None:
    """/skip: apply the current phase's timeout rule once (creator or admin)."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, Skip(user_id=user.id))


async def on_stop(update: Update, context: Context) -> None:
    """/stop: ask for a confirmation before ending the game."""
    svc = service(context)
    chat = update.effective_chat
    assert chat is not None
    room = await asyncio.to_thread(svc.store.load, chat.id)
    if room is None or room.phase in (Phase.FINISHED, Phase.ABANDONED, Phase.CLOSED):
        await reply(update, context, texts.ERRORS[ErrorCode.NO_GAME])
        return
    look = svc.look
    confirm = Outgoing(
        chat_id=chat.id,
        key=f"stop:{room.version}",
        text=_("End this game now, without a winner?"),
        buttons=[
            [
                look.button(_("Yes, stop it"), "stop", 1, room.version),
                look.button(_("No, go on"), "stop", 0, room.version),
            ]
        ],
    )
    await asyncio.to_thread(svc.show, chat.id, confirm)


async def on_score(update: Update, context: Context) -> None:
    """/score: standings of the current or last game, and the group's lifetime stats."""
    svc = service(context)
    chat = update.effective_chat
    assert chat is not None
    try:
        room = await asyncio.to_thread(svc.store.load, chat.id)
    except CorruptRoom:
        await reply(update, context, texts.DAMAGED)
        return
    stats = await asyncio.to_thread(svc.store.group_stats, chat.id)
    await reply(update, context, render.score(room, stats))


async def on_rules(update: Update, context: Context) -> None:
    """/rules: how to play."""
    await reply(update, context, texts.RULES)


async def on_help(update: Update, context: Context) -> None:
    """/help: the commands (in private: what the bot does there)."""
    chat = update.effective_chat
    assert chat is not None
    await reply(update, context, texts.PRIVATE_HELP if chat.type == "private" else texts.HELP)


async def wrong_chat(update: Update, context: Context) -> None:
    """A command sent in the wrong kind of chat."""
    chat = update.effective_chat
    assert chat is not None
    await reply(update, context, texts.GROUP_ONLY if chat.type == "private" else texts.PRIVATE_ONLY)
