"""Group commands: /newgame, /settings, /join, /leave, /back, /skip, /stop, /score and more."""

from __future__ import annotations

import asyncio
import secrets

from redis.exceptions import ResponseError
from telegram import Update

from engine.commands import (
    AwaitJoin,
    ChangeSettings,
    ChooseGame,
    ComeBack,
    ExtendLobby,
    Join,
    Leave,
    OpenLobby,
    Skip,
    StartGame,
)
from engine.errors import ErrorCode, RuleError
from engine.events import CreatorChanged, LobbyClosed, PlayerJoined, PlayerLeftLobby
from engine.games.base import Games
from engine.lobby import EXTEND_S
from engine.model import OVER_PHASES, Phase
from engine.roomid import RoomId
from engine.settings import parse_changes
from engine.store import CorruptRoom, Outcome
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import _, ngettext, texts
from tgbot.table import introduction, render
from tgbot.table.handlers.common import (
    Context,
    attempt,
    attempt_coded,
    command_in_group,
    display_name,
    error_text,
    is_admin,
    last_game,
    remembered_settings,
    reply,
    room_of,
    service,
    settings_done,
    too_late_to_join,
)
from tgbot.table.handlers.language import speakers
from tgbot.table.render import user_text

# A /skip handled within this many seconds of its phase's start was most likely typed for the
# phase before (two managers skipping at once): it is refused, not applied to the next one.
SKIP_GRACE = 2.0


async def on_newgame(update: Update, context: Context) -> None:
    """/newgame [game]: open a lobby of the group's last game (or the one named), make the
    open lobby one of the game named, or point to the lobby or game already here."""
    chat = update.effective_chat
    user = update.effective_user
    assert chat is not None and user is not None
    name, username = display_name(update)
    svc = service(context)
    asked = (context.args or [""])[0].lower().strip("/")
    asked = svc.lineup.aliases.get(asked, asked)
    if asked and asked not in svc.games:
        await reply(update, context, texts.ERRORS[ErrorCode.UNKNOWN_GAME].format(
            detail=user_text(asked, 32)) + " " + _("Games: {games}.").format(
            games=", ".join(f"/newgame {game}" for game in svc.games)))  # fmt: skip
        return
    game = asked or await asyncio.to_thread(last_game, svc, chat.id)
    where = room_of(update)
    command = OpenLobby(
        chat_id=chat.id,
        topic=where.topic,
        title=" › ".join(filter(None, [chat.title, topic_name(update)])),
        user_id=user.id,
        name=name,
        username=username,
        seed=secrets.randbits(64),
        timer_scale=svc.timer_scale,
        private_ok=await asyncio.to_thread(svc.has_started, user.id),
        language=speakers().chat,
        settings=await asyncio.to_thread(remembered_settings, svc, chat.id, svc.games.default.name),
        seat_language=speakers().own,
        game=game,
        game_settings=await asyncio.to_thread(remembered_settings, svc, chat.id, game),
    )
    _outcome, problem, code = await attempt_coded(update, context, where, command)
    if problem and asked and await _switch(update, context, asked, command.game_settings):
        return
    if problem and code is ErrorCode.GAME_EXISTS:
        await reply(update, context, problem + " " + _("Scroll up to its latest message."))
    elif problem:  # e.g. playing in another chat: the answer names it
        await reply(update, context, problem)


async def _switch(
    update: Update, context: Context, game: str, settings: dict[str, int | bool | str]
) -> bool:
    """/newgame <game> while a lobby of another game is open: the lobby becomes one of it.
    True when that was the case (answered)."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    room = await asyncio.to_thread(svc.store.load, room_of(update))
    if room is None or room.phase is not Phase.LOBBY or room.game == game:
        return False
    command = ChooseGame(user_id=user.id, game=game, settings=settings)
    title = svc.games[game].title
    await command_in_group(
        update, context, command, lambda _done: _("The lobby is for {game} now.").format(game=title)
    )
    return True


def topic_name(update: Update) -> str | None:
    """The name of the forum topic a message was posted in, when Telegram says it: a topic's
    message that replies to nothing else replies to the service message that opened it."""
    message = update.effective_message
    opening = message.reply_to_message if message is not None else None
    created = opening.forum_topic_created if opening is not None else None
    return created.name if created is not None and message.is_topic_message else None


def _names(outcome: Outcome) -> list[str]:
    return render.names(outcome.room) if outcome.room is not None else []


async def on_settings(update: Update, context: Context) -> None:
    """/settings key=value …: change the lobby's settings."""
    user = update.effective_user
    assert user is not None
    if not context.args:
        await show_settings(update, context)
        return
    try:
        changes = parse_changes(" ".join(context.args or []), service(context).games.values())
    except RuleError as error:
        await reply(
            update,
            context,
            error_text(error, lineup=service(context).lineup)
            + "\n"
            + _("Example: /settings rotations=3 hint=60 timers=off"),
        )
        return
    if changes.get("ai"):
        svc = service(context)
        room = await asyncio.to_thread(svc.store.load, room_of(update))
        if room is not None and not svc.lineup.of(room).ai_players:
            title = svc.lineup.game(room).title
            await reply(update, context, texts.NO_AI_PLAYERS.format(game=title))
            return
    await command_in_group(
        update, context, ChangeSettings(user_id=user.id, changes=changes),
        lambda done: settings_done(done, service(context).lineup),
    )


def _joined(outcome: Outcome) -> str | None:
    event = next((e for e in outcome.events if isinstance(e, PlayerJoined)), None)
    if event is None or event.late or outcome.room is None:
        return None  # a late join has its own notice
    return ngettext(
        "{name} joined the lobby ({n} player).", "{name} joined the lobby ({n} players).",
        len(outcome.room.seats),
    ).format(name=_names(outcome)[event.seat], n=len(outcome.room.seats))  # fmt: skip


async def show_settings(update: Update, context: Context) -> None:
    """/settings alone: the lobby with its settings keyboard at the bottom of the chat for the
    host or an admin; the settings and how to change them for anybody else."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    room = await asyncio.to_thread(svc.store.load, room_of(update))
    if room is None or room.phase is not Phase.LOBBY:
        await reply(update, context, texts.ERRORS[ErrorCode.WRONG_PHASE])
    elif user.id == room.creator or await is_admin(update, context):
        lobby = render.lobby(room, svc.look, settings_mode=True)
        await asyncio.to_thread(svc.show, room.room_id, lobby.model_copy(update={"fresh": True}))
    else:
        await reply(update, context, svc.lineup.of(room).settings_text(room) + "\n" + _(
            "The host or a group admin changes them, e.g. /settings rotations=3 hint=60"))


async def on_join_command(update: Update, context: Context) -> None:
    """/join: take a seat in the lobby, or late in a running game."""
    svc = service(context)
    user, where = update.effective_user, room_of(update)
    assert user is not None
    name, username = display_name(update)
    if not await asyncio.to_thread(svc.has_started, user.id):
        late = await asyncio.to_thread(too_late_to_join, svc, where)
        if not late:  # listed in the lobby as waiting for them (a running game: no list)
            await attempt(update, context, where,
                          AwaitJoin(user_id=user.id, name=name, username=username))
            await asyncio.to_thread(svc.note_awaiting, user.id, where)
        await reply(
            update,
            context,
            late or texts.OPEN_PRIVATE_LINK.format(link=svc.look.anchor(f"j{where}")),
        )
        return
    await command_in_group(
        update,
        context,
        Join(user_id=user.id, name=name, username=username, language=speakers().own),
        _joined,
    )


def _left(outcome: Outcome) -> str | None:
    lines = []
    for event in outcome.events:
        if isinstance(event, PlayerLeftLobby):
            name = render.user_text(event.name, render.NAME_MAX)
            lines.append(_("{name} left the lobby.").format(name=name))
        elif isinstance(event, CreatorChanged) and outcome.room is not None:
            index = outcome.room.seat_of(event.user_id)
            if index is not None:
                lines.append(_("{name} is the host now.").format(name=_names(outcome)[index]))
        elif isinstance(event, LobbyClosed):
            lines.append(_("Nobody is left, so the lobby is closed."))
    return "\n".join(lines) or None


async def on_leave(update: Update, context: Context) -> None:
    """/leave: leave the lobby or the game."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, Leave(user_id=user.id), _left)


async def on_back(update: Update, context: Context) -> None:
    """/back: play again after sitting out."""
    user = update.effective_user
    assert user is not None
    svc = service(context)

    def done(outcome: Outcome) -> str | None:
        room = outcome.room
        told = svc.lineup.of(room).came_back if room is not None else None
        return told(room, outcome.events) if room is not None and told is not None else None

    await command_in_group(update, context, ComeBack(user_id=user.id), done)


async def on_extend(update: Update, context: Context) -> None:
    """/extend: a seated player gives the lobby a minute more before it starts by itself."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, ExtendLobby(user_id=user.id), _extended)


def _extended(outcome: Outcome) -> str:
    """What /extend gave: a minute, as the lobby's timers really run."""
    scale = outcome.room.timer_scale if outcome.room is not None else 1.0
    return _("/extend: {time} more to join.").format(time=render.duration(EXTEND_S * scale))


async def on_forcestart(update: Update, context: Context) -> None:
    """/forcestart: the host or an admin starts the lobby now, as its Start button does (the
    first round's message, at the bottom of the chat, says it started)."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, StartGame(user_id=user.id), lambda outcome: None)


def _skipper(update: Update, outcome: Outcome) -> str:
    """Who typed /skip, as the group knows them: their seat's name, their own, or the group's
    (an anonymous admin writes as the group)."""
    user, message = update.effective_user, update.effective_message
    assert user is not None
    room = outcome.room
    index = room.seat_of(user.id) if room is not None else None
    if room is not None and index is not None:
        return render.names(room)[index]
    sender = message.sender_chat if message is not None else None
    name = sender.title if sender is not None and sender.title else display_name(update)[0]
    return user_text(name, render.NAME_MAX)


async def on_skip(update: Update, context: Context) -> None:
    """/skip: apply the current phase's timeout rule once (creator or admin)."""
    user = update.effective_user
    assert user is not None
    command = Skip(user_id=user.id, grace=SKIP_GRACE)
    svc = service(context)

    def done(outcome: Outcome) -> str | None:
        room = outcome.room
        told = svc.lineup.of(room).skipped if room is not None else None
        if room is None or told is None:
            return None
        return told(room, outcome.events, _skipper(update, outcome))

    await command_in_group(update, context, command, done)


async def on_stop(update: Update, context: Context) -> None:
    """/stop: the host or an admin is asked for a confirmation before the game ends; a question
    asked again comes back to the bottom of the chat (the old one loses its buttons)."""
    svc = service(context)
    user, where = update.effective_user, room_of(update)
    assert user is not None
    room = await asyncio.to_thread(svc.store.load, where)
    if room is None or room.phase in (Phase.FINISHED, Phase.ABANDONED, Phase.CLOSED):
        await reply(update, context, texts.ERRORS[ErrorCode.NO_GAME])
        return
    if user.id != room.creator and not await is_admin(update, context):
        await reply(update, context, _("Only the game's host or a group admin can stop it."))
        return
    look = svc.look
    lobby = room.phase is Phase.LOBBY
    what = _("End this lobby now?") if lobby else _("End this game now, without a winner?")
    yes = _("Yes, close it") if lobby else _("Yes, stop it")
    no = _("No, keep it open") if lobby else _("No, go on")
    confirm = Outgoing(
        chat_id=where.chat,
        thread_id=where.thread_id,
        key=render.STOP_KEY,
        game=room.game_id,
        fresh=True,
        text=what,
        buttons=[
            [
                look.button(yes, "stop", 1 + 2 * lobby, room.version, room.game_id),
                look.button(no, "stop", 2 * lobby, room.version, room.game_id),
            ]
        ],
    )
    await asyncio.to_thread(svc.show, where, confirm)


async def on_score(update: Update, context: Context) -> None:
    """/score: standings of the current or last game, and the group's lifetime stats."""
    svc = service(context)
    chat = update.effective_chat
    assert chat is not None
    try:
        room = await asyncio.to_thread(svc.store.load, room_of(update))
    except CorruptRoom:
        await reply(update, context, texts.DAMAGED)
        return
    stats = await asyncio.to_thread(svc.store.group_stats, chat.id)
    await reply(update, context, render.score(room, stats, svc.look), once="score")


async def _game_here(update: Update, context: Context) -> str:
    """The game of the lobby or game here, else the group's last one (in private: the game
    the player sits in, else Hintrigue)."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    where: RoomId | None = room_of(update)
    if chat.type == "private":
        where = await asyncio.to_thread(svc.store.room_of_player, user.id)
        if where is None:
            return svc.games.default.name
    try:
        room = await asyncio.to_thread(svc.store.load, where)
    except (CorruptRoom, ResponseError):  # damaged data: the rules are still worth reading
        room = None
    if room is not None and room.phase not in OVER_PHASES:
        return room.game
    return await asyncio.to_thread(last_game, svc, where.chat)


def _once(answer: str, game: str, games: Games) -> str:
    """The name of an answer that is not queued twice: per game."""
    return answer if game == games.default.name else f"{answer}:{game}"


async def on_rules(update: Update, context: Context) -> None:
    """/rules: how to play the game of the lobby or game here."""
    game = await _game_here(update, context)
    lineup = service(context).lineup
    await reply(update, context, lineup.screens[game].rules(),
                once=_once("rules", game, lineup.games))  # fmt: skip


async def on_help(update: Update, context: Context) -> None:
    """/help: the commands, with the settings of the game here (in private: what the bot does
    there)."""
    chat = update.effective_chat
    assert chat is not None
    lineup = service(context).lineup
    if chat.type == "private":
        await reply(update, context, introduction.private_help(lineup), once="help")
        return
    game = await _game_here(update, context)
    # The commands are every game's; the last paragraph lists the settings of this one.
    text = introduction.commands(lineup) + "\n\n" + lineup.screens[game].settings_help()
    await reply(update, context, text, once=_once("help", game, lineup.games))


async def wrong_chat(update: Update, context: Context) -> None:
    """A command sent in the wrong kind of chat."""
    chat = update.effective_chat
    assert chat is not None
    await reply(
        update,
        context,
        texts.GROUP_ONLY if chat.type == "private" else texts.PRIVATE_ONLY,
        once="wrong_chat",
    )
