"""The table's one entry point: state + command + now → new state + events, or a RuleError.

The table runs the lobby and what concerns a seat in any game (joining, a private chat
opened, a language chosen); a running game's own commands, and the shared ones whose rule is
the game's (leaving, coming back, /skip, /stop, timers, unreachable players), go to the game
the room plays (`engine.games`).
"""

from __future__ import annotations

from typing import Any

from engine.commands import (
    AddAI,
    AwaitJoin,
    ChangeSettings,
    ChooseGame,
    ChooseLanguage,
    ComeBack,
    ExtendLobby,
    Join,
    Leave,
    MarkUnreachable,
    OpenedPrivateChat,
    OpenLobby,
    RemoveAI,
    Skip,
    StartGame,
    StopGame,
    Timeout,
    TopicGone,
)
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent
from engine.games.base import Games
from engine.lobby import (
    add_ai,
    await_join,
    change_settings,
    choose_game,
    choose_language,
    close_lobby,
    extend,
    join,
    join_deadline,
    leave_lobby,
    lobby_opened,
    open_room,
    opened_private_chat,
    remove_ai,
    require_manager,
    start_game,
    stop_waiting,
    time_up,
)
from engine.model import OVER_PHASES, Phase, Room
from engine.rng import Rng

LOBBY_TIMER = "lobby"
"""The phase a lobby's join timer names (round 0)."""


def apply(
    room: Room | None, command: Any, now: float, games: Games, *, owned: bool = False
) -> tuple[Room, list[AnyEvent]]:
    """Apply one command (the table's, or the room's game's own) to a room at time `now`
    (UTC seconds), at a table hosting `games`.

    `room` itself is never changed, unless the caller owns it (`owned=True`: a room freshly
    parsed for this one command, thrown away if the command is refused), which spares a copy.

    Raises:
        RuleError: the rules refuse the command; nothing changed.
    """
    if isinstance(command, OpenLobby):
        if room is not None and room.phase not in OVER_PHASES:
            raise RuleError(ErrorCode.GAME_EXISTS)
        new = open_room(command, now, games)
        if room is not None:
            new.version = room.version + 1
        return new, [lobby_opened()]
    if room is None or room.phase in OVER_PHASES:
        raise RuleError(ErrorCode.NO_GAME)
    ctx = Ctx(room=room if owned else room.clone(), now=now, rng=Rng(room.rng), games=games)
    before = _moment(room)
    _dispatch(ctx, command)
    if _moment(ctx.room) != before:
        ctx.room.phase_at = now
    if ctx.room.phase is Phase.LOBBY and not ctx.room.settings.join_s:
        ctx.room.deadline = join_deadline(ctx.room, now)  # an idle lobby's day starts anew
    ctx.room.rng = ctx.rng.state
    ctx.room.version += 1
    return ctx.room, ctx.events


def _moment(room: Room) -> Phase:
    return room.phase  # a game whose round changes within a phase says so itself


def _dispatch(ctx: Ctx, command: Any) -> None:
    lobby = ctx.room.phase is Phase.LOBBY
    if isinstance(command, Timeout | MarkUnreachable):
        if command.phase == LOBBY_TIMER and isinstance(command, Timeout):
            _lobby_timeout(ctx)
        elif lobby:
            raise RuleError(ErrorCode.STALE, "the room has moved on")
        else:
            ctx.game.act(ctx, command)
        return
    if isinstance(command, TopicGone):
        if lobby:
            close_lobby(ctx, "topic_gone")
        else:
            ctx.game.act(ctx, command)  # the game ends without a winner
        return
    game = getattr(command, "game_id", None)
    if game is not None and ctx.room.game_id and game != ctx.room.game_id:
        raise RuleError(ErrorCode.OTHER_GAME, "a button of an earlier game")
    if isinstance(command, Join):
        join(ctx, command)
    elif isinstance(command, AwaitJoin):
        await_join(ctx, command)
    elif isinstance(command, OpenedPrivateChat):
        opened_private_chat(ctx, ctx.seat_for(command.user_id))
    elif isinstance(command, ChooseLanguage):
        choose_language(ctx, command)
    elif isinstance(command, ExtendLobby):
        extend(ctx, command)
    elif lobby:
        _lobby(ctx, command)
    elif isinstance(command, ChangeSettings | ChooseGame | StartGame | AddAI | RemoveAI):
        require_manager(ctx, command.user_id, command.is_admin)
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.room.phase.value}")
    else:
        ctx.game.act(ctx, command)


def _lobby(ctx: Ctx, command: Any) -> None:
    """A command while the lobby is open."""
    if isinstance(command, Leave):
        waiting = ctx.room.waiting_for(command.user_id)
        if waiting is not None and ctx.room.seat_of(command.user_id) is None:
            stop_waiting(ctx, waiting)
        else:
            leave_lobby(ctx, ctx.seat_for(command.user_id))
    elif isinstance(command, ChangeSettings):
        change_settings(ctx, command)
    elif isinstance(command, AddAI):
        add_ai(ctx, command)
    elif isinstance(command, RemoveAI):
        remove_ai(ctx, command)
    elif isinstance(command, ChooseGame):
        choose_game(ctx, command)
    elif isinstance(command, StartGame):
        start_game(ctx, command)
    elif isinstance(command, StopGame):
        require_manager(ctx, command.user_id, command.is_admin)
        close_lobby(ctx)
    elif isinstance(command, Skip):
        require_manager(ctx, command.user_id, command.is_admin)
        raise RuleError(ErrorCode.WRONG_PHASE, "now lobby")
    elif isinstance(command, ComeBack):
        ctx.seat_for(command.user_id)
        raise RuleError(ErrorCode.NOT_SPECTATING)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, "now lobby")


def _lobby_timeout(ctx: Ctx) -> None:
    """The lobby's join time ran out: it starts, or closes."""
    room = ctx.room
    if room.phase is not Phase.LOBBY or room.deadline is None:
        raise RuleError(ErrorCode.STALE, "the lobby is over")
    if ctx.now < room.deadline:
        raise RuleError(ErrorCode.TOO_EARLY, f"{room.deadline - ctx.now:.3f}s early")
    time_up(ctx)
