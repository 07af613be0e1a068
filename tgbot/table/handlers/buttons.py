"""Every inline button: decode, run, answer the press (always, and at once)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import CallbackQuery, Update

from engine.commands import (
    AddAI,
    AwaitJoin,
    ChangeSettings,
    ChooseGame,
    ComeBack,
    Command,
    Join,
    Leave,
    RemoveAI,
    StartGame,
    StopGame,
)
from engine.errors import ErrorCode
from engine.model import OVER_PHASES, Phase, Room
from engine.roomid import RoomId
from engine.store import Outcome
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import _, texts
from tgbot.table import callback, render
from tgbot.table.handlers.common import (
    APP_ANSWERS,
    APP_PRESS,
    Context,
    answer,
    attempt,
    display_name,
    is_admin,
    remembered_settings,
    room_of,
    service,
    too_late_to_join,
)
from tgbot.table.handlers.community import on_notify_button
from tgbot.table.handlers.language import on_language_button, speakers
from tgbot.table.render import Look
from tgbot.table.service import Service

log = logging.getLogger(__name__)

S = TypeVar("S")


async def on_button(update: Update, context: Context) -> None:
    """Every inline button: decode, run, answer the press (always, and at once)."""
    query = update.callback_query
    assert query is not None
    svc = service(context)
    if query.id.startswith(APP_PRESS):
        APP_ANSWERS.set(svc.redis)
    # A press is answered in the presser's language; what it changes in the group speaks the
    # group's (its rendering says so).
    with i18n.use(speakers().user):
        try:
            pressed = svc.lineup.codec.decode(svc.look.key, query.data, svc.look.earlier_keys)
        except callback.BadCallback:
            await answer(query, texts.FORGED_BUTTON, alert=True)
            return
        handler = BUTTONS.get(pressed.kind) or svc.lineup.buttons[pressed.kind]
        await handler(update, context, query, pressed.args)


def _room(update: Update) -> RoomId:
    """The room of the message the pressed button is on (a group's, or its forum topic's)."""
    return room_of(update)


def named_room(args: tuple[int, ...], topic_at: int) -> RoomId:
    """The room a private button names: its chat, and its forum topic when the button carries
    one at `topic_at` (its kind in `Codec.with_topic`)."""
    return RoomId(args[0], args[topic_at] if len(args) > topic_at else 0)


Ok = str | Callable[[Outcome], str]


async def button_command(
    update: Update,
    context: Context,
    query: CallbackQuery,
    where: RoomId,
    command: Command,
    ok: Ok,
    **options: Any,
) -> Outcome | None:
    outcome, problem = await attempt(update, context, where, command, **options)
    if problem is not None:
        await answer(query, problem, alert=True)
    elif outcome is None or outcome.duplicate:
        await answer(query, "")
    elif any(e.kind == "seat_returned" for e in outcome.events):
        await answer(query, texts.BACK, alert=True)
    else:
        await answer(query, ok if isinstance(ok, str) else ok(outcome))
    return outcome


async def on_join(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Join: seat the player, or send one who never opened a private chat to the deep link
    (listed in the lobby as waiting for them, so the group can nudge them)."""
    svc = service(context)
    where = _room(update)
    user = query.from_user
    name, username = display_name(update)
    if not await asyncio.to_thread(svc.has_started, user.id):
        late = await asyncio.to_thread(too_late_to_join, svc, where)
        if late:
            await answer(query, late, alert=True)
            return
        await attempt(update, context, where, AwaitJoin(
            user_id=user.id, name=name, username=username, game_id=game_of(args, 0)))  # fmt: skip
        await asyncio.to_thread(svc.note_awaiting, user.id, where)
        await answer(query, texts.OPEN_PRIVATE, url=svc.look.link(f"j{where}"))
        return
    await button_command(
        update,
        context,
        query,
        where,
        Join(
            user_id=user.id,
            name=name,
            username=username,
            game_id=game_of(args, 0),
            language=speakers().own,
        ),
        texts.JOINED,
    )


async def on_leave_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Leave the lobby."""
    command = Leave(user_id=query.from_user.id, game_id=game_of(args, 0))
    await button_command(update, context, query, _room(update), command, texts.LEFT)


async def on_start_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Start the game. A presser who must still open the private chat is sent there."""
    svc = service(context)
    where, user = _room(update), query.from_user
    room = await asyncio.to_thread(svc.store.load, where)
    seat = room.seat_of(user.id) if room is not None and room.phase is Phase.LOBBY else None
    if room is not None and room.ai_seats() and not svc.lineup.of(room).ai_players:
        title = svc.lineup.game(room).title
        await answer(query, texts.NO_AI_PLAYERS.format(game=title), alert=True)
        return
    if room is not None and seat is not None and not room.seats[seat].private_ok:
        # The host starting the game first opens the chat where the cards are dealt.
        await answer(query, texts.OPEN_PRIVATE_FIRST, url=svc.look.link(f"r{where}"))
        return
    command = StartGame(user_id=user.id, game_id=game_of(args, 0))
    await button_command(update, context, query, where, command, texts.STARTED)


async def on_add_ai(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Seat an AI player in the lobby (creator or admin), if AI players play its game."""
    svc = service(context)
    room = await asyncio.to_thread(svc.store.load, _room(update))
    if room is not None and not svc.lineup.of(room).ai_players:
        title = svc.lineup.game(room).title
        await answer(query, texts.NO_AI_PLAYERS.format(game=title), alert=True)
        return
    command = AddAI(user_id=query.from_user.id, game_id=game_of(args, 0))
    await button_command(update, context, query, _room(update), command, texts.AI_ADDED)


async def on_remove_ai(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Free the lobby's last AI seat (creator or admin)."""
    command = RemoveAI(user_id=query.from_user.id, game_id=game_of(args, 0))
    await button_command(update, context, query, _room(update), command, texts.AI_REMOVED)


async def on_menu(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Open or close the settings keyboard of the lobby (creator or admin)."""
    svc = service(context)
    where = _room(update)
    room = await asyncio.to_thread(svc.store.load, where)
    if room is None or room.phase is not Phase.LOBBY:
        await answer(query, texts.STALE_BUTTON, alert=True)
        return
    if (game := game_of(args, 0)) is not None and room.game_id and game != room.game_id:
        await answer(query, texts.ERRORS[ErrorCode.OTHER_GAME], alert=True)
        return
    if query.from_user.id != room.creator and not await is_admin(update, context):
        await answer(query, texts.ERRORS[ErrorCode.NOT_ALLOWED], alert=True)
        return
    opening = query.data is not None and ".menu" in query.data
    await asyncio.to_thread(svc.show, where, render.lobby(room, svc.look, opening))
    await answer(query, "")


async def on_set(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A settings button: change one setting."""
    row, value = args[:2]
    svc = service(context)
    name = svc.lineup.setting_at.get(row)
    shown = svc.lineup.any_setting(name) if name is not None else None
    if name is None or shown is None:
        await answer(query, texts.FORGED_BUTTON, alert=True)
        return
    setting: int | bool | str = value
    if shown.switch:
        setting = bool(value)
    elif shown.choices:
        setting = shown.choices[value % len(shown.choices)]
    await button_command(
        update,
        context,
        query,
        _room(update),
        ChangeSettings(
            user_id=query.from_user.id, changes={name: setting}, game_id=game_of(args, 2)
        ),
        texts.SETTINGS_CHANGED,
        settings_mode=True,
    )


async def on_game(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The lobby's Game button: the lobby becomes one of the next game, with the group's
    remembered settings of it (host or admin)."""
    svc = service(context)
    order = list(svc.games)
    if not 0 <= args[0] < len(order):
        await answer(query, texts.FORGED_BUTTON, alert=True)
        return
    game = order[args[0]]
    where = _room(update)
    remembered = await asyncio.to_thread(remembered_settings, svc, where.chat, game)
    command = ChooseGame(
        user_id=query.from_user.id,
        game=game,
        settings=remembered,
        game_id=game_of(args, 1),
    )
    title = svc.games[game].title
    done = _("The lobby is for {game} now.").format(game=title)
    await button_command(update, context, query, where, command, done)


def game_of(args: tuple[int, ...], fields: int) -> int | None:
    """The game id a button carries after its `fields` other fields (older buttons have none)."""
    return args[fields] if len(args) > fields else None


async def prompt_room(
    context: Context, query: CallbackQuery, args: tuple[int, ...], kind: type[S], values: int = 1
) -> tuple[Service, Room, S] | None:
    """For a private button that only redraws the presser's prompt (chat, round, `values`
    values, game, topic): the room and its game state of `kind` while the button's round is
    on; otherwise the press is answered as stale, and None."""
    svc = service(context)
    room = await asyncio.to_thread(svc.store.load, named_room(args, 3 + values))
    state = room.play if room is not None else None
    game = game_of(args, 2 + values)
    if (
        room is None
        or not isinstance(state, kind)
        or state.round is None  # type: ignore[attr-defined]
        or state.round.no != args[1]  # type: ignore[attr-defined]
        or (game is not None and room.game_id != game)
    ):
        await answer(query, texts.STALE_BUTTON, alert=True)
        return None
    return svc, room, state


async def show_prompt(
    svc: Service, query: CallbackQuery, room: Room, prompt: Callable[[Look], Outgoing]
) -> None:
    """Redraw the presser's prompt (drawn at the store's clock) and answer the press."""
    look = svc.look.at(await asyncio.to_thread(svc.store.clock))
    await asyncio.to_thread(svc.show, room.room_id, prompt(look))
    await answer(query, "")


async def on_info(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A setting's label on the settings keyboard: say what the setting does."""
    (row,) = args
    svc = service(context)
    name = svc.lineup.setting_at.get(row)
    if name is None:
        await answer(query, texts.FORGED_BUTTON, alert=True)
        return
    room = await asyncio.to_thread(svc.store.load, _room(update))
    game = room.game if room is not None else svc.games.default.name
    await answer(query, _(svc.lineup.setting(game, name).help), alert=True)


async def on_back_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """ "I'm back", in private."""
    command = ComeBack(user_id=query.from_user.id, game_id=game_of(args, 1))
    await button_command(update, context, query, named_room(args, 2), command, texts.BACK)


async def on_stop_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The /stop confirmation: for the game's creator or an admin. Once decided, the question
    is edited into the decision, without its buttons."""
    answer_given, asked = args[:2]
    confirm, asked_in_lobby = answer_given & 1, answer_given >= 2
    game = game_of(args, 2)
    where = _room(update)
    svc = service(context)
    room = await asyncio.to_thread(svc.store.load, where)
    if room is None or room.phase in OVER_PHASES or (game is not None and game != room.game_id):
        # A question left over from a game that is over (it ended meanwhile).
        await answer(query, _("That game is over."))
        with i18n.use(speakers().chat):
            over = _("/stop: the game is over.")
        await asyncio.to_thread(svc.show, where, *_stop_question(where, game, asked, over))
        return
    if asked_in_lobby and room.phase is not Phase.LOBBY:
        # The lobby's question, from before its game started: it must not stop the game.
        await answer(query, _("The game has started: send /stop again to end it."))
        with i18n.use(speakers().chat):
            started = _("/stop: the game has started; send /stop again to end it.")
        await asyncio.to_thread(svc.show, where, *_stop_question(where, game, asked, started))
        return
    if confirm:
        outcome = await button_command(
            update, context, query, where, StopGame(user_id=query.from_user.id, game_id=game),
            lambda done: _("The game is stopped.") if done.room is not None else _(
                "The lobby is closed."),
        )  # fmt: skip
        decided = outcome is not None and not outcome.duplicate
        with i18n.use(speakers().chat):
            decision = _("/stop: the game was stopped.")
            if outcome is not None and outcome.room is None:
                decision = _("/stop: the lobby was closed.")
    else:
        if room.creator != query.from_user.id and not await is_admin(update, context):
            await answer(query, texts.ERRORS[ErrorCode.NOT_ALLOWED], alert=True)
            return
        lobby = room.phase is Phase.LOBBY
        await answer(query, _("The lobby stays open.") if lobby else _("The game goes on."))
        with i18n.use(speakers().chat):
            decided = True
            decision = _("/stop: the lobby stays open.") if lobby else _("/stop: the game goes on.")
    if decided:
        await asyncio.to_thread(svc.show, where, *_stop_question(where, game, asked, decision))


def _stop_question(where: RoomId, game: int | None, asked: int, text: str) -> list[Outgoing]:
    """The /stop question edited into `text`, without its buttons (a question asked before it
    had one key per game had one per room version)."""
    return [
        Outgoing(chat_id=where.chat, thread_id=where.thread_id, key=key, game=game or 0,
                 text=text, lang=speakers().chat, edit_only=True)
        for key in (render.STOP_KEY, f"stop:{asked}")
    ]  # fmt: skip


BUTTONS: dict[str, Callable[[Update, Context, CallbackQuery, tuple[int, ...]], Awaitable[None]]] = {
    "lang": on_language_button,
    "join": on_join,
    "leave": on_leave_button,
    "start": on_start_button,
    "menu": on_menu,
    "addai": on_add_ai,
    "rmai": on_remove_ai,
    "done": on_menu,
    "set": on_set,
    "info": on_info,
    "back": on_back_button,
    "stop": on_stop_button,
    "notify": on_notify_button,
    "game": on_game,
}
