"""Rounds: starting a game, dealing and drawing cards, passing the cue, the tie-break rounds,
the end, standings."""

from __future__ import annotations

from collections.abc import Sequence

from engine import table
from engine.games.common import turns as common
from engine.games.huescues.board import CELLS
from engine.games.huescues.context import Ctx
from engine.games.huescues.events import (
    CardDrawn,
    DeckReshuffled,
    GameFinished,
    GameStarted,
    RoundStarted,
    TieBreak,
)
from engine.games.huescues.model import (
    CARD_SIZE,
    EXTRA_ROUNDS,
    MIN_SEATS,
    RUNNING_PHASES,
    Phase,
    Round,
    Seat,
    Settings,
    State,
)
from engine.games.huescues.settings import check, turns_for
from engine.model import SeatStatus
from engine.rng import Rng


def new_game(
    players: Sequence[tuple[int, str]],
    settings: Settings,
    seed: int,
    now: float,
    host: int | None,
    timer_scale: float,
    language: str,
) -> Ctx:
    """Seat the players, deal the cards, draw the first cue giver, start the first round."""
    common.check_players(players, MIN_SEATS)
    check(settings)
    common.check_seats(players, settings.max_seats)
    state = State(
        settings=settings,
        language=language,
        host=players[0][0] if host is None else host,
        seats=[Seat(user_id=user_id, name=name) for user_id, name in players],
        rng=seed,
        turns=turns_for(settings, len(players)),
        timer_scale=timer_scale,
        phase_at=now,
    )
    ctx = Ctx(state=state, now=now, rng=Rng(seed))
    deal(ctx)
    state.first_giver = ctx.rng.below(len(state.seats))
    ctx.emit(GameStarted(first_giver=state.first_giver, turns=state.turns))
    start_round(ctx, state.first_giver)
    return ctx


def deal(ctx: Ctx) -> None:
    """Deal the board's 480 cells, shuffled, into 120 cards of four; shuffle the draw pile."""
    cells = list(range(CELLS))
    ctx.rng.shuffle(cells)
    ctx.state.cards = [cells[i : i + CARD_SIZE] for i in range(0, CELLS, CARD_SIZE)]
    ctx.state.draw = list(range(len(ctx.state.cards)))
    ctx.rng.shuffle(ctx.state.draw)
    ctx.state.discard = []


def draw_card(ctx: Ctx) -> int:
    """Draw a card and discard it at once (drawn cards are discarded); an empty draw pile is
    first refilled with the shuffled discards."""
    state = ctx.state
    if not state.draw:
        state.draw, state.discard = state.discard, []
        ctx.rng.shuffle(state.draw)
        ctx.emit(DeckReshuffled(cards=len(state.draw)))
    card = state.draw.pop()
    state.discard.append(card)
    return card


def next_giver(state: State, current: int) -> tuple[int | None, int]:
    """Walk the seat order from `current`; return (the next cue giver or None once every seat
    has given its cues, rotations done)."""
    return table.next_turn(state.seats, current, state.first_giver, state.rotations_done,
                           state.turns)  # fmt: skip


def start_round(ctx: Ctx, giver: int, extra: int = 0, tied: Sequence[int] = ()) -> None:
    """Begin a cue giver's round: draw its card (unless the choice is free), wait for its
    colour and first cue. A tie-break round (`extra` > 0) is played by the tied seats."""
    state = ctx.state
    previous = state.round
    scored = previous.no if previous is not None and previous.points is not None else None
    number = previous.no + 1 if previous is not None else 1
    if extra:
        playing = [i for i in tied if state.seats[i].status is SeatStatus.PLAYING and i != giver]
        rnd = Round(no=number, giver=giver, participants=sorted([giver, *playing]), last=True,
                    extra=extra, tied=list(tied), giver_scores=giver in tied)  # fmt: skip
    else:
        rnd = Round(no=number, giver=giver, participants=state.active_seats())
        rnd.last = next_giver(state, giver)[0] is None
    state.round = rnd
    state.phase = Phase.CUE
    if not state.settings.free_choice:
        rnd.card = draw_card(ctx)
    state.deadline = ctx.timer(state.settings.cue_s)
    ctx.emit(
        RoundStarted(
            round_no=number,
            giver=giver,
            deadline=state.deadline,
            extra=extra,
            guessers=state.guessers(),
            after=scored,
        )
    )
    if rnd.card is not None:
        ctx.emit(CardDrawn(round_no=number, seat=giver, cells=state.card_cells()))


def tied_seats(state: State) -> list[int]:
    """The seats still in the game with the top total, when two or more share it."""
    present = state.present_seats()
    if not present:
        return []
    top = max(state.seats[i].score for i in present)
    tied = [i for i in present if state.seats[i].score == top]
    return tied if len(tied) >= 2 else []


def extra_giver(state: State, last: int, tied: list[int]) -> int | None:
    """The cue giver of a tie-break round: the first seat still playing and not tied after the
    last cue giver in seat order; the first tied one if every seat still playing is tied."""
    count = len(state.seats)
    order = [(last + step) % count for step in range(1, count + 1)]
    playing = [i for i in order if state.seats[i].status is SeatStatus.PLAYING]
    for index in playing:
        if index not in tied:
            return index
    return playing[0] if playing else None


def after_round(ctx: Ctx) -> None:
    """A round is over (scored and shown, or void): the next round, a tie-break round, or
    the end."""
    state = ctx.state
    rnd = state.round
    assert rnd is not None
    if rnd.extra:
        state.extra_done = rnd.extra
        if state.extra_done >= EXTRA_ROUNDS:
            finish(ctx, "tie_break")
        else:
            tie_break(ctx, rnd.giver, reason="tie_break")
        return
    following, done = next_giver(state, rnd.giver)
    state.rotations_done = done
    if following is None:
        tie_break(ctx, rnd.giver, reason="rounds")
    else:
        start_round(ctx, following)


def tie_break(ctx: Ctx, last: int, reason: str) -> None:
    """Start a tie-break round when the top total is tied, else finish the game."""
    state = ctx.state
    tied = tied_seats(state)
    giver = extra_giver(state, last, tied) if tied else None
    if giver is None:
        finish(ctx, reason)
        return
    extra = state.extra_done + 1
    ctx.emit(TieBreak(extra=extra, tied=tied))
    start_round(ctx, giver, extra=extra, tied=tied)


def standings(state: State) -> list[int]:
    """Seats ordered by points, then exact hits, then seat order."""
    seats = state.seats
    return table.standings(seats, lambda i: seats[i].exact)


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
            reason="tie_break" if reason == "tie_break" else "rounds",
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
