"""Hintrigue's commands in a running game: the table hands them over here (`act`)."""

from __future__ import annotations

from typing import Any

from engine.commands import (
    ComeBack,
    GiveHint,
    Leave,
    MarkUnreachable,
    Skip,
    StopGame,
    Timeout,
    TopicGone,
)
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue import play
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import SeatLeft, SeatReturned
from engine.games.hintrigue.model import Phase, Seat, phase_of, round_of, state_of
from engine.games.hintrigue.turns import (
    abandon,
    abandon_if_too_few,
    open_prompts,
    pass_turn,
    refill,
)
from engine.model import RUNNING_PHASES, Room, SeatStatus
from engine.table import check_timer, require_manager

_ROUND_ACTIONS = (ChooseCard, GiveHint, PlayDecoy, Vote, ComeBack)


def act(ctx: Ctx, command: Any) -> None:
    """Apply one command to a running game of Hintrigue; when its phase or round changes, the
    new one begins now (the room's phase stays `playing`)."""
    before = _moment(ctx.room)
    _act(ctx, command)
    if _moment(ctx.room) != before:
        ctx.room.phase_at = ctx.now


def _moment(room: Room) -> tuple[Phase | None, int | None]:
    rnd = round_of(room)
    return phase_of(room), rnd.no if rnd is not None else None


def _act(ctx: Ctx, command: Any) -> None:
    if isinstance(command, Timeout | MarkUnreachable):
        _system(ctx, command)
        return
    if isinstance(command, TopicGone):
        abandon(ctx, "topic_gone")
        return
    if isinstance(command, Leave):
        index = ctx.seat_for(command.user_id)
        if ctx.seat(index).status is SeatStatus.LEFT:
            raise RuleError(ErrorCode.HAS_LEFT)
        leave_game(ctx, index)
        return
    if isinstance(command, _ROUND_ACTIONS):
        seated = ctx.room.seat_of(command.user_id)
        if seated is not None and ctx.seat(seated).status is SeatStatus.LEFT:
            raise RuleError(ErrorCode.HAS_LEFT)  # a left seat never plays again
    if _came_back(ctx, command) and isinstance(command, _ROUND_ACTIONS):
        return
    if isinstance(command, StopGame):
        require_manager(ctx.room.creator, command.user_id, command.is_admin)
        abandon(ctx, "stopped")
    elif isinstance(command, Skip):
        require_manager(ctx.room.creator, command.user_id, command.is_admin)
        _require_running(ctx)
        if ctx.now - ctx.room.phase_at < command.grace:
            # Likely meant for the phase before (two managers skipping at once).
            raise RuleError(ErrorCode.JUST_STARTED)
        rnd, phase = round_of(ctx.room), phase_of(ctx.room)
        if rnd is not None and phase in (Phase.DECOYS, Phase.VOTING):
            rnd.skipped.append(phase)
        play.time_out(ctx, reason="skipped")
    else:
        _round_action(ctx, command)


def join_late(ctx: Ctx, index: int) -> None:
    """A player seated until the last turn starts is dealt a hand and plays from the next round."""
    rnd = round_of(ctx.room)
    if rnd is None or rnd.last:
        raise RuleError(ErrorCode.TOO_LATE_TO_JOIN)
    state_of(ctx.room).seats.append(Seat())
    refill(ctx, index)


def timer(room: Room) -> tuple[int, str] | None:
    """The round and phase of the room's current deadline."""
    rnd, phase = round_of(room), phase_of(room)
    if rnd is None or phase is None:
        return None
    return rnd.no, phase.value


def _came_back(ctx: Ctx, command: Any) -> bool:
    """A spectating seat that acts in the game (other than leaving) plays from the next round."""
    index = ctx.room.seat_of(getattr(command, "user_id", 0))
    if index is None or ctx.seat(index).status is not SeatStatus.SPECTATING:
        if isinstance(command, ComeBack):
            ctx.seat_for(command.user_id)
            raise RuleError(ErrorCode.NOT_SPECTATING)
        return False
    ctx.seat(index).status = SeatStatus.PLAYING
    state_of(ctx.room).seats[index].missed_hints = 0
    ctx.emit(SeatReturned(seat=index))
    return True


def _round_action(ctx: Ctx, command: Any) -> None:
    _require_running(ctx)
    index = ctx.seat_for(getattr(command, "user_id", 0))
    expected = getattr(command, "round_no", None)
    rnd = round_of(ctx.room)
    if expected is not None and rnd is not None and expected != rnd.no:
        raise RuleError(ErrorCode.STALE, "a button of another round")
    if isinstance(command, ChooseCard):
        play.choose_card(ctx, index, command.card)
    elif isinstance(command, GiveHint):
        play.give_hint(ctx, index, command.text)
    elif isinstance(command, PlayDecoy):
        play.play_decoy(ctx, index, command.card)
    elif isinstance(command, Vote):
        play.vote(ctx, index, command.card)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def _require_running(ctx: Ctx) -> None:
    if ctx.room.phase not in RUNNING_PHASES:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.room.phase.value}")


def _system(ctx: Ctx, command: Timeout | MarkUnreachable) -> None:
    """Timers and delivery failures name the round and phase they were meant for."""
    room = ctx.room
    named = (command.round_no, command.phase)
    if isinstance(command, MarkUnreachable):
        if timer(room) != named:
            raise RuleError(ErrorCode.STALE, "the room has moved on")
        play.unreachable(ctx, ctx.seat_for(command.user_id))
        return
    check_timer(timer(room), named, room.deadline, ctx.now)
    play.time_out(ctx)


def leave_game(ctx: Ctx, index: int) -> None:
    """A seat leaves a running game for good; its hand goes to the discard pile."""
    room, state = ctx.room, state_of(ctx.room)
    rnd = state.round
    # A decoy's prompt, once played, tells its player to vote in the group: closed too.
    speaks = rnd is not None and state.phase in (Phase.DECOYS, Phase.VOTING) and (
        index in rnd.plays and index != rnd.storyteller)
    prompt = rnd.no if rnd is not None and (index in open_prompts(room) or speaks) else None
    room.seats[index].status = SeatStatus.LEFT
    state.discard.extend(state.seats[index].hand)
    state.seats[index].hand = []
    ctx.emit(SeatLeft(seat=index, prompt_round=prompt))
    if abandon_if_too_few(ctx):
        return
    if rnd is None or state.phase is Phase.REVEAL:
        return
    if index == rnd.storyteller and state.phase in (Phase.HINT, Phase.DECOYS):
        play.void_round(ctx, "storyteller_left")
        pass_turn(ctx)
    elif state.phase is Phase.DECOYS and all(i in rnd.plays for i in play.decoy_seats(ctx)):
        play.open_voting(ctx)
    elif state.phase is Phase.VOTING:
        rnd.votes.pop(index, None)
        play.close_voting_if_complete(ctx)
