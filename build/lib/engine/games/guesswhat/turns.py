"""Turns: starting a game, passing the turn, rotations, the target, the end, standings."""

from __future__ import annotations

from collections.abc import Sequence

from engine import table
from engine.games.common import turns as common
from engine.games.guesswhat import board
from engine.games.guesswhat.context import Ctx
from engine.games.guesswhat.events import (
    GameFinished,
    GameStarted,
    RoundStarted,
)
from engine.games.guesswhat.model import (
    MIN_SEATS,
    RUNNING_PHASES,
    Phase,
    Round,
    Seat,
    Settings,
    State,
)
from engine.games.guesswhat.settings import check
from engine.rng import Rng

CARRIED_CLUE_S = 30
"""The clue time of a turn that goes on with the board of a turn missed, and after a redraw."""


def new_game(
    players: Sequence[tuple[int, str]],
    settings: Settings,
    seed: int,
    now: float,
    host: int | None,
    timer_scale: float,
) -> Ctx:
    """Seat the players, shuffle the deck, draw the first active player, start the first turn."""
    common.check_players(players, MIN_SEATS)
    check(settings)
    common.check_seats(players, settings.max_seats)
    state = State(
        settings=settings,
        host=players[0][0] if host is None else host,
        seats=[Seat(user_id=user_id, name=name) for user_id, name in players],
        rng=seed,
        timer_scale=timer_scale,
        phase_at=now,
    )
    ctx = Ctx(state=state, now=now, rng=Rng(seed))
    board.shuffle_deck(ctx)
    state.first_active = ctx.rng.below(len(state.seats))
    ctx.emit(GameStarted(first_active=state.first_active))
    start_round(ctx, state.first_active, new_board=True, seconds=settings.clue_s)
    return ctx


def next_active(state: State, current: int) -> tuple[int | None, int]:
    """Walk the seat order from `current`; return (next active seat or None, rotations done).

    A rotation completes each time the walk reaches the first active player's position;
    spectating and left seats are stepped over, so passing that position counts too.
    """
    return table.next_turn(
        state.seats, current, state.first_active, state.rotations_done, state.settings.rotations
    )


def start_round(ctx: Ctx, active: int, new_board: bool, seconds: int) -> None:
    """Begin an active player's turn, on a new board or on the one left by a turn missed."""
    state = ctx.state
    scored = state.round.no if state.round is not None and state.round.points is not None else None
    if new_board:
        board.lay_board(ctx)
    number = state.round.no + 1 if state.round is not None else 1
    state.round = Round(no=number, active=active, participants=state.active_seats())
    state.round.last = next_active(state, active)[0] is None
    state.phase = Phase.CLUE
    state.deadline = ctx.timer(seconds)
    ctx.emit(
        RoundStarted(
            round_no=number,
            active=active,
            board=list(state.board),
            new_board=new_board,
            deadline=state.deadline,
            after=scored,
        )
    )


def pass_turn(ctx: Ctx, new_board: bool, seconds: int) -> None:
    """After a scored or missed turn: start the next one, or finish the game."""
    state = ctx.state
    current = state.round.active if state.round is not None else state.first_active
    following, done = next_active(state, current)
    state.rotations_done = done
    if following is None:
        finish(ctx, "rotations")
    else:
        start_round(ctx, following, new_board, seconds)


def end_of_reveal(ctx: Ctx) -> None:
    """The reveal is over: the game ends if a seat reached the target, else the turn passes."""
    state = ctx.state
    if any(seat.score >= state.settings.target for seat in state.seats):
        finish(ctx, "target")
    else:
        pass_turn(ctx, new_board=True, seconds=state.settings.clue_s)


def standings(state: State) -> list[int]:
    """Seats ordered by points, then correct guesses, then seat order."""
    seats = state.seats
    return table.standings(seats, lambda i: seats[i].correct)


def winners(state: State) -> list[int]:
    """Every seat still in the game with the top total; ties stay co-winners."""
    return table.winners(state.seats, standings(state))


def finish(ctx: Ctx, reason: str) -> None:
    """End the game and name the winners."""
    state = ctx.state
    state.phase = Phase.FINISHED
    state.deadline = None
    state.end_reason = reason
    ctx.emit(
        GameFinished(
            reason="target" if reason == "target" else "rotations",
            winners=winners(state),
            standings=standings(state),
        )
    )


def abandon(ctx: Ctx, reason: str) -> None:
    """End the game without a winner; a round not yet scored is dropped."""
    common.abandon(ctx, reason, Phase.ABANDONED, standings)


def abandon_if_too_few(ctx: Ctx) -> bool:
    """Abandon a running game with fewer than three active seats, or with no active human
    seat (AI players alone do not play on); return True if it did."""
    if common.too_few(ctx.state, RUNNING_PHASES, MIN_SEATS):
        abandon(ctx, "too_few_players")
        return True
    return False
