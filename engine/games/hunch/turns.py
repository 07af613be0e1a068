"""What every phase shares: steps and their deadlines, missed actions, the matrix's words,
drawing clue cards, standings and winners, the end, abandoning."""

from __future__ import annotations

from engine.games.common import turns as common
from engine.games.hunch import deck
from engine.games.hunch.context import Ctx
from engine.games.hunch.events import GameFinished, SeatSpectating
from engine.games.hunch.model import (
    MIN_SEATS,
    REMOVED,
    ROUNDS,
    RUNNING_PHASES,
    Phase,
    State,
    Step,
    word_id,
)
from engine.model import SeatStatus

MISSES_BEFORE_SPECTATING = 2
GROUP_RESULTS = {
    "odd": (0, 2, 4, 6, 8, 10),
    "even": (0, 2, 5, 8, 11, 12),
}
"""The seed's group result: the most secrets guessed for each result (0–5), with 3 or 5 seats
(odd) and with 4 or 6 (even)."""


def next_step(ctx: Ctx, seconds: int, seat: int | None = None, timed: bool = True) -> None:
    """Begin a new timed step (awaiting `seat`, or every seat of the phase): its deadline is
    a player-action timer, or a presentation (`timed=False`) that always runs."""
    state = ctx.state
    number = state.round.no + 1 if state.round is not None else 1
    state.round = Step(no=number, seat=seat)
    state.deadline = ctx.timer(seconds) if timed else ctx.presentation(seconds)


def acted(ctx: Ctx, index: int) -> None:
    """A seat acted: its run of missed phases is over."""
    ctx.state.seats[index].missed = 0


def missed(ctx: Ctx, index: int) -> None:
    """A seat missed a whole phase (or its turn in one); twice in a row, it sits out."""
    seat = ctx.state.seats[index]
    seat.missed += 1
    if seat.missed >= MISSES_BEFORE_SPECTATING and seat.status is SeatStatus.PLAYING:
        seat.status = SeatStatus.SPECTATING
        ctx.emit(SeatSpectating(seat=index))


def matrix_words(state: State) -> dict[int, str]:
    """The words of the matrix now, by word id."""
    return {
        word_id(card, position): deck.word(state.language, word_id(card, position))
        for card in state.matrix
        if card != REMOVED
        for position in range(3)
    }


def draw_clue_card(ctx: Ctx) -> int | None:
    """The top clue card (the discards shuffled in when the deck runs out; None: no card)."""
    state = ctx.state
    if not state.clue_deck:
        state.clue_deck = state.clue_discard
        state.clue_discard = []
        ctx.rng.shuffle(state.clue_deck)
    return state.clue_deck.pop() if state.clue_deck else None


def in_turn_from(state: State, first: int) -> list[int]:
    """Every seat index in seat order, from `first` on."""
    count = len(state.seats)
    return [(first + step) % count for step in range(count)]


def standings(state: State) -> list[int]:
    """Seats by VP, then coins (both descending), then seat order."""
    return sorted(range(len(state.seats)),
                  key=lambda i: (-state.seats[i].vp, -state.seats[i].coins, i))  # fmt: skip


def winners(state: State) -> list[int]:
    """The seats still in the game with the most VP and, among them, the most coins: still
    tied, they share the victory."""
    present = state.present_seats()
    if not present:
        return []
    best = max((state.seats[i].vp, state.seats[i].coins) for i in present)
    return [i for i in standings(state)
            if i in present and (state.seats[i].vp, state.seats[i].coins) == best]  # fmt: skip


def group_result(guessed: int, seats: int) -> int:
    """The seed's group result for the secrets guessed among all seats: 0 to 5."""
    bounds = GROUP_RESULTS["odd" if seats % 2 else "even"]
    for result, most in enumerate(bounds):
        if guessed <= most:
            return result
    return len(bounds) - 1


def finish(ctx: Ctx) -> None:
    """End the game after round 3 and name the winners."""
    state = ctx.state
    state.phase = Phase.FINISHED
    state.deadline = None
    state.in_phase = []
    ctx.emit(
        GameFinished(
            winners=winners(state),
            standings=standings(state),
            vp=[s.vp for s in state.seats],
            coins=[s.coins for s in state.seats],
            secrets=[[secret.word_id for secret in s.secrets] for s in state.seats],
            guessed=state.guessed_total,
            group_result=group_result(state.guessed_total, state.start_seats),
        )
    )


def abandon(ctx: Ctx, reason: str) -> None:
    """End the game without a winner; a round not yet scored is dropped."""
    ctx.state.in_phase = []
    ctx.state.auction = None
    common.abandon(ctx, reason, Phase.ABANDONED, standings)


def abandon_if_too_few(ctx: Ctx) -> bool:
    """Abandon a game with fewer than three active seats (or no person among them) while it
    is played (between rounds too, but not after round 3's reveal); True if it did."""
    state = ctx.state
    running = set(RUNNING_PHASES)
    if state.game_round < ROUNDS:
        running.add(Phase.REVEAL)
    if common.too_few(state, running, MIN_SEATS):
        abandon(ctx, "too_few_players")
        return True
    return False
