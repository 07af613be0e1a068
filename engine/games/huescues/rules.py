"""The entry points of Hues and Cues: `start()` a game, then `apply()` one command at a time."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.huescues import play
from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    ComeBack,
    Command,
    ConfirmCone,
    GiveCue,
    Join,
    Leave,
    MarkUnreachable,
    NoSecondCue,
    Skip,
    StopGame,
    Timeout,
)
from engine.games.huescues.context import Ctx
from engine.games.huescues.events import Event, PlayerJoined, SeatReturned
from engine.games.huescues.model import OVER_PHASES, Phase, Seat, Settings, State
from engine.games.huescues.turns import abandon, new_game
from engine.model import SeatStatus
from engine.rng import Rng
from engine.table import check_timer, require_manager

_ROUND_ACTIONS = (ChooseColour, GiveCue, NoSecondCue, ChooseCell, ConfirmCone, ComeBack)


def start(
    players: Sequence[tuple[int, str]],
    settings: Settings | None = None,
    *,
    seed: int,
    now: float,
    host: int | None = None,
    timer_scale: float = 1.0,
    language: str = "en",
) -> tuple[State, list[Event]]:
    """Start a game with the seated players (user id, name) in seat order.

    `host` may /skip and /stop besides a group admin (default: the first player); `language`
    is the room's (its colour words are forbidden cues, besides English ones).

    Raises:
        RuleError: fewer than three players, more than `max_seats`, a player twice, or
            settings out of bounds.
    """
    ctx = new_game(players, settings or Settings(), seed, now, host, timer_scale, language)
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events


def apply(
    state: State, command: Command, now: float, *, owned: bool = False
) -> tuple[State, list[Event]]:
    """Apply one command to a game at time `now` (UTC seconds).

    `state` itself is never changed, unless the caller owns it (`owned=True`: a state freshly
    parsed for this one command, thrown away if the command is refused), which spares a copy.

    Raises:
        RuleError: the rules refuse the command; nothing changed.
    """
    if state.phase in OVER_PHASES:
        raise RuleError(ErrorCode.NO_GAME)
    ctx = Ctx(state=state if owned else state.clone(), now=now, rng=Rng(state.rng))
    before = _moment(state)
    _dispatch(ctx, command)
    if _moment(ctx.state) != before:
        ctx.state.phase_at = now
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events


def _moment(state: State) -> tuple[Phase, int | None]:
    return state.phase, state.round.no if state.round is not None else None


def _dispatch(ctx: Ctx, command: Command) -> None:
    if isinstance(command, Timeout | MarkUnreachable):
        _system(ctx, command)
        return
    if isinstance(command, Join):
        _join(ctx, command)
        return
    if isinstance(command, Skip | StopGame):
        _manage(ctx, command)  # a group admin need not be seated
        return
    index = ctx.seat_for(command.user_id)
    if ctx.seat(index).status is SeatStatus.LEFT:
        raise RuleError(ErrorCode.HAS_LEFT)  # a left seat never plays again
    if isinstance(command, Leave):
        play.leave(ctx, index)
        return
    if _came_back(ctx, index, command) and isinstance(command, _ROUND_ACTIONS):
        return
    _round_action(ctx, index, command)


def _manage(ctx: Ctx, command: Skip | StopGame) -> None:
    require_manager(ctx.state.host, command.user_id, command.is_admin)
    index = ctx.state.seat_of(command.user_id)
    if index is not None:
        _came_back(ctx, index, command)
    if isinstance(command, StopGame):
        abandon(ctx, "stopped")
        return
    if ctx.now - ctx.state.phase_at < command.grace:
        # Likely meant for the phase before (two managers skipping at once).
        raise RuleError(ErrorCode.JUST_STARTED)
    play.time_out(ctx, skipped=True)


def _came_back(ctx: Ctx, index: int, command: Command) -> bool:
    """A spectating seat that acts in the game (other than leaving) plays from the next round."""
    seat = ctx.seat(index)
    if seat.status is not SeatStatus.SPECTATING:
        if isinstance(command, ComeBack):
            raise RuleError(ErrorCode.NOT_SPECTATING)
        return False
    seat.status = SeatStatus.PLAYING
    seat.missed = 0
    ctx.emit(SeatReturned(seat=index))
    return True


def _round_action(ctx: Ctx, index: int, command: Command) -> None:
    expected = getattr(command, "round_no", None)
    if expected is not None and expected != ctx.round.no:
        raise RuleError(ErrorCode.STALE, "a button of another round")
    if isinstance(command, ChooseColour):
        play.choose_colour(ctx, index, command.cell)
    elif isinstance(command, GiveCue):
        play.give_cue(ctx, index, command.text)
    elif isinstance(command, NoSecondCue):
        play.no_second_cue(ctx, index)
    elif isinstance(command, ChooseCell):
        play.choose_cell(ctx, index, command.cell)
    elif isinstance(command, ConfirmCone):
        play.confirm_cone(ctx, index)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def _join(ctx: Ctx, command: Join) -> None:
    """Seat a player late, until the last turn starts; it plays from the next round."""
    state = ctx.state
    existing = state.seat_of(command.user_id)
    if existing is not None:
        left = state.seats[existing].status is SeatStatus.LEFT
        raise RuleError(ErrorCode.HAS_LEFT if left else ErrorCode.ALREADY_JOINED)
    if len(state.present_seats()) >= state.settings.max_seats:
        raise RuleError(ErrorCode.ROOM_FULL)
    if not joinable(state):
        raise RuleError(ErrorCode.TOO_LATE_TO_JOIN)
    state.seats.append(Seat(user_id=command.user_id, name=command.name))
    ctx.emit(PlayerJoined(seat=len(state.seats) - 1))


def joinable(state: State) -> bool:
    """Whether a player may still join: until the last regular round starts."""
    rnd = state.round
    return state.phase not in OVER_PHASES and rnd is not None and not (rnd.last or rnd.extra)


def _system(ctx: Ctx, command: Timeout | MarkUnreachable) -> None:
    """Timers and delivery failures name the round and phase they were meant for."""
    state = ctx.state
    rnd = state.round
    current = (rnd.no, state.phase.value) if rnd is not None else None
    named = (command.round_no, command.phase.value)
    if isinstance(command, MarkUnreachable):
        if current != named:
            raise RuleError(ErrorCode.STALE, "the game has moved on")
        play.unreachable(ctx, ctx.seat_for(command.user_id))
        return
    check_timer(current, named, state.deadline, ctx.now)
    play.time_out(ctx)
