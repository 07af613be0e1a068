"""Turns: starting a game, whose turn comes next, scores and standings, the end."""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.common import turns as common
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.context import Ctx
from engine.games.wunchunk.events import (
    EndReason,
    GameEnded,
    GameFinished,
    GameStarted,
    TurnStarted,
)
from engine.games.wunchunk.model import (
    EMPTY,
    MAX_SEATS,
    MIN_SEATS,
    Phase,
    Round,
    Seat,
    Settings,
    State,
)
from engine.games.wunchunk.settings import check, size_for
from engine.model import SeatStatus
from engine.rng import Rng


def new_game(
    players: Sequence[tuple[int, str]],
    settings: Settings,
    seed: int,
    now: float,
    host: int | None,
    timer_scale: float,
) -> Ctx:
    """Seat the players, draw who plays first, set the start chunks, start the first turn."""
    common.check_players(players, MIN_SEATS)
    check(settings)
    common.check_seats(players, min(settings.max_seats, MAX_SEATS))
    size = size_for(settings, len(players))
    rng = Rng(seed)
    first = rng.below(len(players))
    g = hexes.geometry(size)
    cells = [EMPTY] * g.size
    start = hexes.start_stones(len(players), first)
    for cell, colour in start.items():
        cells[g.index[cell]] = str(colour)
    state = State(
        settings=settings,
        host=players[0][0] if host is None else host,
        seats=[Seat(user_id=user_id, name=name) for user_id, name in players],
        rng=seed,
        size=size,
        board="".join(cells),
        first=first,
        timer_scale=timer_scale,
        phase_at=now,
    )
    ctx = Ctx(state=state, now=now, rng=rng)
    rescore(state)
    ctx.emit(
        GameStarted(
            size=size, first=first, stones=sorted(start.items(), key=lambda s: (s[1], s[0]))
        )
    )
    start_turn(ctx, first, number=1)
    return ctx


def scores(state: State) -> list[list[int]]:
    """Every seat's score list, from the board."""
    colours = state.colours()
    return [
        list(hexes.score_of_sizes(hexes.sizes_of(colours, colour, state.size)))
        for colour in range(len(state.seats))
    ]


def rescore(state: State) -> list[list[int]]:
    """Recompute every seat's chunks, crumbs and score list from the board; a seat's total is
    how many seats its list beats (smaller is better)."""
    lists = scores(state)
    for seat, listed in zip(state.seats, lists, strict=True):
        seat.groups = listed
        seat.chunks = listed[0]
        seat.crumbs = listed[1] if len(listed) > 1 else 0
    for index, seat in enumerate(state.seats):
        seat.score = sum(1 for other in lists if other > lists[index])
    return lists


def standings(state: State) -> list[int]:
    """Seats by score list (smallest first), then seat order."""
    return sorted(range(len(state.seats)), key=lambda i: (state.seats[i].groups, i))


def winners(state: State) -> list[int]:
    """Every seat still in the game with the smallest score list among them (co-winners)."""
    present = state.present_seats()
    if not present:
        return []
    best = min(state.seats[i].groups for i in present)
    return [i for i in standings(state) if i in present and state.seats[i].groups == best]


def next_seat(state: State, current: int) -> int | None:
    """The next seat after `current` in seat order that takes turns (may be `current`)."""
    count = len(state.seats)
    for step in range(1, count + 1):
        index = (current + step) % count
        if state.seats[index].status is SeatStatus.PLAYING:
            return index
    return None


def start_turn(ctx: Ctx, seat: int, number: int | None = None) -> None:
    """Begin a seat's turn: its allotment is its chunks now, capped by the empty cells."""
    state = ctx.state
    previous = state.round
    if number is None:
        number = previous.no + 1 if previous is not None else 1
    chunks = state.seats[seat].chunks
    balancing = seat == state.first and state.seats[seat].turns == 1
    state.round = Round(
        no=number,
        seat=seat,
        allotment=min(chunks, state.empty_cells()),
        chunks_before=chunks,
        balancing=balancing,
    )
    state.phase = Phase.TURN
    state.deadline = ctx.timer(state.settings.turn_s)
    ctx.emit(
        TurnStarted(
            round_no=number,
            seat=seat,
            allotment=state.round.allotment,
            deadline=state.deadline,
            balancing=balancing,
        )
    )


def end_game(ctx: Ctx, reason: EndReason) -> None:
    """The play is over: show the end until the reveal's deadline, then finish."""
    state = ctx.state
    state.phase = Phase.REVEAL
    state.end_reason = reason
    state.deadline = ctx.presentation(state.settings.reveal_s)
    if state.round is not None:
        state.round.pending = []
    ctx.emit(GameEnded(reason=reason, scores=scores(state), deadline=state.deadline))


def finish(ctx: Ctx) -> None:
    """End the game and name the winners."""
    state = ctx.state
    state.phase = Phase.FINISHED
    state.deadline = None
    reason: EndReason = "board_full" if state.end_reason == "board_full" else "all_passed"
    ctx.emit(
        GameFinished(
            reason=reason, winners=winners(state), standings=standings(state), scores=scores(state)
        )
    )


def abandon(ctx: Ctx, reason: str) -> None:
    """End the game without a winner; a turn being built is dropped."""
    if ctx.state.round is not None:
        ctx.state.round.pending = []
    common.abandon(ctx, reason, Phase.ABANDONED, standings)


def abandon_if_too_few(ctx: Ctx) -> bool:
    """Abandon a game still being played with fewer than two seats in play, or with no
    human seat in play (AI players alone do not play on); return True if it did. During the
    reveal the play is over: the game finishes."""
    if common.too_few(ctx.state, (Phase.TURN,), MIN_SEATS):
        abandon(ctx, "too_few_players")
        return True
    return False
