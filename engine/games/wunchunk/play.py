"""A turn's actions: placing stones, taking them back, ending the turn or passing, and what
happens when time runs out or a seat leaves."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.board import Cell
from engine.games.wunchunk.context import Ctx
from engine.games.wunchunk.errors import Refusal
from engine.games.wunchunk.events import (
    PassReason,
    SeatLeft,
    SeatSpectating,
    SeatUnreachable,
    StonesPending,
    StonesUndone,
    TurnPassed,
    TurnPlayed,
)
from engine.games.wunchunk.model import EMPTY, Phase
from engine.games.wunchunk.turns import (
    abandon_if_too_few,
    end_game,
    finish,
    next_seat,
    rescore,
    start_turn,
)
from engine.model import SeatStatus

MISSES_BEFORE_SPECTATING = 2
MISSED: frozenset[PassReason] = frozenset({"timeout", "skipped", "unreachable"})


def require_turn(ctx: Ctx, index: int) -> None:
    if ctx.state.phase is not Phase.TURN:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.state.phase.value}")
    if ctx.round.seat != index:
        raise RuleError(Refusal.NOT_YOUR_TURN)


def place(ctx: Ctx, index: int, stones: Sequence[tuple[Cell, int]]) -> None:
    """Add stones to the turn being built, all or none: each on an empty cell of the board
    (not under a pending stone), of a seat's colour, within the turn's allotment."""
    require_turn(ctx, index)
    state, rnd = ctx.state, ctx.round
    g = hexes.geometry(state.size)
    taken = {cell for cell, _ in rnd.pending}
    added: list[tuple[int, int]] = []
    for cell, colour in stones:
        number = g.index.get(cell)
        if number is None:
            raise RuleError(Refusal.NO_SUCH_CELL, str(cell))
        if not 0 <= colour < len(state.seats):
            raise RuleError(Refusal.NO_SUCH_COLOUR, str(colour))
        if state.board[number] != EMPTY or number in taken:
            raise RuleError(Refusal.OCCUPIED, g.names[number])
        taken.add(number)
        added.append((number, colour))
    if len(rnd.pending) + len(added) > rnd.allotment:
        raise RuleError(Refusal.TOO_MANY_STONES, f"{rnd.allotment}")
    if not added:
        raise RuleError(Refusal.NO_SUCH_CELL, "no stone")
    rnd.pending.extend(added)
    ctx.emit(
        StonesPending(
            round_no=rnd.no,
            seat=index,
            stones=[(g.cells[i], c) for i, c in added],
            pending=state.pending_stones(),
        )
    )


def undo(ctx: Ctx, index: int, cell: Cell | None, everything: bool) -> None:
    """Take back the last pending stone, the one on `cell`, or every one."""
    require_turn(ctx, index)
    state, rnd = ctx.state, ctx.round
    g = hexes.geometry(state.size)
    if not rnd.pending:
        raise RuleError(Refusal.NOTHING_TO_UNDO)
    if everything:
        removed = list(rnd.pending)
        rnd.pending = []
    elif cell is not None:
        number = g.index.get(cell)
        at = [k for k, (i, _) in enumerate(rnd.pending) if i == number]
        if not at:
            raise RuleError(Refusal.NOTHING_TO_UNDO, str(cell))
        removed = [rnd.pending.pop(at[0])]
    else:
        removed = [rnd.pending.pop()]
    ctx.emit(
        StonesUndone(
            round_no=rnd.no,
            seat=index,
            stones=[(g.cells[i], c) for i, c in removed],
            pending=state.pending_stones(),
        )
    )


def end_turn(ctx: Ctx, index: int) -> None:
    """Apply the pending stones as the turn; none is a pass. Seat 1's second turn may not end
    with more seat-1 chunks than it began with (the turn stays pending, to undo)."""
    require_turn(ctx, index)
    state, rnd = ctx.state, ctx.round
    if not rnd.pending:
        pass_turn(ctx, "empty_turn")
        return
    cells = list(state.board)
    for number, colour in rnd.pending:
        cells[number] = str(colour)
    board = "".join(cells)
    if rnd.balancing:
        colours = [-1 if c == EMPTY else ord(c) - 48 for c in board]
        after = hexes.chunk_count(colours, index, state.size)
        if after > rnd.chunks_before:
            raise RuleError(Refusal.BALANCING, f"{rnd.chunks_before} → {after}")
    g = hexes.geometry(state.size)
    state.board = board
    state.last = list(rnd.pending)
    rnd.pending = []
    state.passed = []
    seat = state.seats[index]
    seat.turns += 1
    seat.missed = 0
    lists = rescore(state)
    ctx.emit(
        TurnPlayed(
            round_no=rnd.no,
            seat=index,
            stones=[(g.cells[i], c) for i, c in state.last],
            scores=lists,
        )
    )
    if EMPTY not in state.board:
        end_game(ctx, "board_full")
        return
    _next(ctx, index)


def pass_turn(ctx: Ctx, reason: PassReason) -> None:
    """The seat on turn places no stone (its pending stones are dropped); a missed turn counts
    toward sitting out (two in a row)."""
    state, rnd = ctx.state, ctx.round
    index = rnd.seat
    seat = state.seats[index]
    rnd.pending = []
    ctx.emit(TurnPassed(round_no=rnd.no, seat=index, reason=reason))
    if reason != "left":
        seat.turns += 1
        if index not in state.passed:
            state.passed.append(index)
        if reason in MISSED:
            seat.missed += 1
            if seat.missed >= MISSES_BEFORE_SPECTATING and seat.status is SeatStatus.PLAYING:
                seat.status = SeatStatus.SPECTATING
                ctx.emit(SeatSpectating(seat=index))
        else:
            seat.missed = 0
    if abandon_if_too_few(ctx):
        return
    if _all_passed(ctx):
        return
    _next(ctx, index)


def _all_passed(ctx: Ctx) -> bool:
    """End the play when every seat in play has passed since the last stone was placed."""
    state = ctx.state
    if state.phase is Phase.TURN and all(i in state.passed for i in state.in_play()):
        end_game(ctx, "all_passed")
        return True
    return False


def _next(ctx: Ctx, current: int) -> None:
    following = next_seat(ctx.state, current)
    if following is None:  # nobody in play: abandoned already
        return
    start_turn(ctx, following)


def time_out(ctx: Ctx, skipped: bool = False) -> None:
    """The turn's time ran out (or /skip): a missed turn is a pass; the reveal's: finish."""
    phase = ctx.state.phase
    if phase is Phase.TURN:
        pass_turn(ctx, "skipped" if skipped else "timeout")
    elif phase is Phase.REVEAL:
        finish(ctx)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE)


def unreachable(ctx: Ctx, index: int) -> None:
    """The private chat of the seat on turn refused the bot: its turn is missed at once."""
    if ctx.state.phase is not Phase.TURN or ctx.round.seat != index:
        raise RuleError(ErrorCode.STALE, "nothing awaited from this seat")
    ctx.emit(SeatUnreachable(seat=index))
    pass_turn(ctx, "unreachable")


def leave(ctx: Ctx, index: int) -> None:
    """A seat leaves for good: its stones stay (they count for its colour); on its turn, the
    turn passes to the next seat. Fewer than two seats in play abandons the game."""
    state, rnd = ctx.state, ctx.state.round
    on_turn = state.phase is Phase.TURN and rnd is not None and rnd.seat == index
    ctx.seat(index).status = SeatStatus.LEFT
    ctx.emit(SeatLeft(seat=index, prompt_round=rnd.no if on_turn and rnd else None))
    if on_turn:
        pass_turn(ctx, "left")
        return
    if abandon_if_too_few(ctx):
        return
    _all_passed(ctx)
