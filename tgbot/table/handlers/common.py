"""What every handler shares: the service, running a command, answering."""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

import redis
import redis.exceptions
from telegram import CallbackQuery, ChatMember, Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import (
    ContextTypes,
)

from engine.commands import Command, OpenLobby
from engine.errors import MARKED, ErrorCode, RuleError
from engine.events import GameChosen, LobbyOpened, SettingsChanged
from engine.model import RUNNING_PHASES, Room
from engine.roomid import RoomId
from engine.store import CorruptRoom, Outcome, StoreBusy, keys, preferences
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import _, texts
from tgbot.local.quick import quick_settings
from tgbot.table import render
from tgbot.table.notify import tell_subscribers
from tgbot.table.render.common import user_text
from tgbot.table.screens import Lineup
from tgbot.table.service import Service
from tgbot.webapp.board import APP_PRESS

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE

# While a worker handles an update: the errors its handlers raised, noted by the error handler.
HANDLER_FAILURES: ContextVar[list[BaseException] | None] = ContextVar(
    "handler_failures", default=None
)
# While a worker handles a press the board app made (its query id starts with APP_PRESS), the
# Redis client its answer goes to.
APP_ANSWERS: ContextVar[redis.Redis | None] = ContextVar("app_answers", default=None)
# Redis not answering (down, restarting, failing over): the update is handled again later.
_OUTAGES = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
            redis.exceptions.ReadOnlyError)  # fmt: skip


def is_outage(error: BaseException) -> bool:
    """Whether an error means Redis did not answer, rather than that it refused the command."""
    return isinstance(error, _OUTAGES)


def service(context: Context) -> Service:
    """The service the composition root put in bot_data."""
    svc: Service = context.bot_data["service"]
    return svc


def room_of(update: Update) -> RoomId:
    """The room an update concerns: the forum topic its message (or the message a pressed
    button is on) was posted in, else its chat (a plain group, the General topic, a private
    chat)."""
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None
    return RoomId.of_message(chat.id, getattr(message, "message_thread_id", None),
                             getattr(message, "is_topic_message", None))  # fmt: skip


def display_name(update: Update) -> tuple[str, str | None]:
    """The acting user's display name and @username."""
    user = update.effective_user
    assert user is not None
    return user.full_name or str(user.id), user.username


def error_text(error: RuleError, markup: bool = True, lineup: Lineup | None = None) -> str:
    """A rule error as a short answer in the language spoken: HTML for a message (its detail
    escaped, since it may echo what a user typed or named), plain text for a press's answer.
    `lineup`: the games hosted, whose refusals and settings it names (None: the table's)."""
    refusals: Mapping[Any, str] = lineup.refusals if lineup is not None else texts.ERRORS
    facts = dict(error.facts)
    row = lineup.any_setting(str(facts.get("setting"))) if lineup is not None else None
    if row is not None:
        facts["setting"] = _(row.label)
    detail = _(error.template) if error.template in MARKED else error.template
    if facts:
        detail = detail.format(**facts)
    if error.code is ErrorCode.LOBBY_LONGEST:  # a span of time, as players read one
        detail = render.duration(int(facts.get("seconds", 600)))
    return refusals[error.code].format(detail=user_text(detail) if markup else detail)


async def run(
    svc: Service, where: RoomId, command: Command, update: Update, **options: Any
) -> Outcome:
    """Run a command off the event loop (the store talks to Redis synchronously); the
    settings of a lobby opened or changed are remembered for the group's next lobby."""
    outcome = await asyncio.to_thread(
        svc.run, where, command, update_id=update.update_id, **options
    )
    room = outcome.room
    if room is not None and any(isinstance(e, LobbyOpened | SettingsChanged | GameChosen)
                                for e in outcome.events):  # fmt: skip
        await asyncio.to_thread(remember_settings, svc, room)
    if room is not None and isinstance(command, OpenLobby) and any(
        isinstance(e, LobbyOpened) for e in outcome.events
    ):
        await asyncio.to_thread(tell_subscribers, svc, room, command.user_id)
    return outcome


def remember_settings(svc: Service, room: Room) -> None:
    """Keep a lobby's settings for its group's next lobby of the game, and its language for
    the group's answers outside a game too."""
    preferences.remember(svc.redis, room, svc.games.named(room.game).setting_names)


def last_game(svc: Service, chat_id: int) -> str:
    """The group's last game: what a bare /newgame opens (Hintrigue at first)."""
    name = preferences.last_game(svc.redis, chat_id)
    return name if name is not None and name in svc.games else svc.games.default.name


def remember_group_language(svc: Service, chat_id: int, language: str) -> None:
    """Keep a group's language for its next lobby (and its answers outside a game)."""
    preferences.remember_language(svc.redis, chat_id, language)


def remembered_settings(svc: Service, chat_id: int, game: str) -> dict[str, int | bool | str]:
    """The settings of the group's last lobby of the game (none: the defaults), over the
    quick timers when the bot runs with them."""
    start = quick_settings(svc.games.named(game)) if svc.quick_timers else {}
    return {**start, **preferences.settings(svc.redis, chat_id, game)}


async def is_admin(update: Update, context: Context) -> bool:
    """Whether the sender is an admin of the group (an anonymous admin writes as the group)."""
    chat, message, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and user is not None
    if (
        message is not None
        and message.sender_chat is not None
        and message.sender_chat.id == chat.id
    ):
        return True
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


async def reply(update: Update, context: Context, text: str, once: str | None = None) -> None:
    """Answer a message in its room (its forum topic), queued behind the room's other
    messages. An answer given `once` (a name) is not queued again while the same answer waits
    for delivery."""
    where = room_of(update)
    message = Outgoing(chat_id=where.chat, thread_id=where.thread_id, text=text, once=once)
    await asyncio.to_thread(service(context).show, where, message)


async def attempt(
    update: Update, context: Context, where: RoomId, command: Command, **options: Any
) -> tuple[Outcome | None, str | None]:
    """Run a command; return its outcome, or the short answer explaining why not (HTML for a
    message; plain text for an answer to a press)."""
    outcome, problem, _code = await attempt_coded(update, context, where, command, **options)
    return outcome, problem


async def attempt_coded(
    update: Update, context: Context, where: RoomId, command: Command, **options: Any
) -> tuple[Outcome | None, str | None, ErrorCode | None]:
    """`attempt`, also saying which rule refused the command (None: none did)."""
    svc = service(context)
    try:
        return await run(svc, where, command, update, **options), None, None
    except RuleError as error:
        if (
            error.code is ErrorCode.NOT_ALLOWED
            and hasattr(command, "is_admin")
            and await is_admin(update, context)
        ):
            return await attempt_coded(
                update, context, where, command.model_copy(update={"is_admin": True}), **options
            )
        markup = update.callback_query is None
        user_id = getattr(command, "user_id", None)
        if error.code is ErrorCode.IN_OTHER_GAME and markup and isinstance(user_id, int):
            return None, await elsewhere(context, user_id, error), error.code
        return None, error_text(error, markup, svc.lineup), error.code
    except CorruptRoom:
        log.exception("room %s is damaged", where)
        return None, texts.DAMAGED, None
    except StoreBusy:
        log.warning("room %s is busy", where)
        return None, texts.BUSY, None


async def elsewhere(context: Context, user_id: int, error: RuleError) -> str:
    """A player already playing in another chat is told which one, with a link to that
    game's latest message in its group where Telegram allows one."""
    svc = service(context)
    where = await asyncio.to_thread(svc.store.room_of_player, user_id)
    found = await asyncio.to_thread(_latest_group_message, svc, where) if where else None
    if where is None or found is None:
        return error_text(error, lineup=svc.lineup)
    title, message_id = found
    username = None
    if message_id is not None and render.private_link_works(where.chat):
        try:  # a public group (always a supergroup) is linked to by its username
            username = (await context.bot.get_chat(where.chat)).username
        except TelegramError:
            username = None
    link = render.message_link(where.chat, message_id, username) if message_id else None
    shown = user_text(title, 64)
    if link is not None:
        shown = f'<a href="{html.escape(link)}">{shown}</a>'
    return texts.ERRORS[ErrorCode.IN_OTHER_GAME].format(detail=shown)


def _latest_group_message(svc: Service, where: RoomId) -> tuple[str, int | None] | None:
    """The title of a room's game and the id of its latest message in the group, if any."""
    try:
        room = svc.store.load(where)
    except CorruptRoom:
        return None
    if room is None:
        return None
    ids = svc.redis.hgetall(keys.message_ids(where, room.game_id))
    group = [int(v) for k, v in ids.items() if not _text(k).startswith("dm:")]
    return room.title or str(where.chat), max(group, default=None)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def command_in_group(
    update: Update, context: Context, command: Command, done: Callable[[Outcome], str | None]
) -> Outcome | None:
    """Run a group command and answer it in the group, whether it worked (`done` says how) or
    not: every command gets a visible answer, even when the message it changes is far up."""
    outcome, problem = await attempt(update, context, room_of(update), command)
    if problem:
        await reply(update, context, problem)
    elif outcome is not None and not outcome.duplicate and (text := done(outcome)):
        await reply(update, context, text)
    return outcome


def too_late_to_join(svc: Service, where: RoomId) -> str | None:
    """Why nobody can join the room's game any more (its last turn started), if so."""
    room = svc.store.load(where)
    if room is not None and room.phase in RUNNING_PHASES and not svc.games.named(
        room.game
    ).joinable(room):
        return texts.ERRORS[ErrorCode.TOO_LATE_TO_JOIN]
    return None


def settings_done(outcome: Outcome, lineup: Lineup) -> str | None:
    """What a settings change did, as the group is told."""
    room = outcome.room
    changed = next((e for e in outcome.events if isinstance(e, SettingsChanged)), None)
    if room is None or changed is None:
        return None
    with i18n.use(room.settings.language):  # the group's, changed or not
        shown = ", ".join(render.setting_line(room, name, lineup) for name in changed.changes)
        return _("Settings changed: {changes}.").format(changes=shown)


async def answer(query: CallbackQuery, text: str = "", alert: bool = False,
                 url: str | None = None) -> None:  # fmt: skip
    """Answer a press privately (`url`: open that link). A press answered too late (Telegram
    takes answers for a limited time; a press handled again after an outage) is left
    unanswered: what it did stands, and the game's messages show it. A press the board app
    made is answered to the app, through Redis (`tgbot.webapp.api`)."""
    if query.id.startswith(APP_PRESS):
        client = APP_ANSWERS.get()
        if client is not None:
            body = json.dumps({"text": text[:200], "alert": alert})
            await asyncio.to_thread(client.set, keys.app_answer(query.id), body, ex=60)
        return
    try:
        await query.answer(text[:200] or None, show_alert=alert, url=url)
    except BadRequest as error:
        if "query is too old" not in error.message.lower():
            raise
        log.info("press %s answered too late: %s", query.id, error.message)
