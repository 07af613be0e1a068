"""The setup (SPEC 11.4): dealing target cards, choosing the secrets, the matrix."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.common import turns as common
from engine.games.hunch import clues, deck
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import GameStarted, MatrixShown, SecretChosen, SecretsDealt
from engine.games.hunch.model import (
    MATRIX_CARDS,
    MAX_SEATS,
    MIN_SEATS,
    Phase,
    Seat,
    Secret,
    Settings,
    State,
)
from engine.games.hunch.settings import check
from engine.games.hunch.turns import abandon_if_too_few, acted, missed, next_step
from engine.model import SeatStatus
from engine.rng import Rng


def secrets_per_seat(seats: int) -> int:
    """Target cards dealt to each seat: 3 with 3–4 seats, 2 with 5–6."""
    return 3 if seats <= 4 else 2


def new_game(
    players: Sequence[tuple[int, str]],
    settings: Settings,
    seed: int,
    now: float,
    host: int | None,
    timer_scale: float,
    language: str,
) -> Ctx:
    """Seat the players, deal the target cards, lay out the matrix (hidden until the secrets
    are chosen), draw the starting player, shuffle the clue cards."""
    common.check_players(players, MIN_SEATS)
    check(settings)
    common.check_seats(players, min(settings.max_seats, MAX_SEATS))
    rng = Rng(seed)
    language = deck.deck_language(language)
    cards = list(range(len(deck.targets(language))))
    rng.shuffle(cards)
    each = secrets_per_seat(len(players))
    dealt = [cards[i * each : (i + 1) * each] for i in range(len(players))]
    matrix = cards[:MATRIX_CARDS]  # the dealt cards, and from the deck to make 12
    rng.shuffle(matrix)
    clue_deck = list(range(len(deck.clue_cards())))
    rng.shuffle(clue_deck)
    seats = [Seat(user_id=user_id, name=name, secrets=[Secret(card=c) for c in hand])
             for (user_id, name), hand in zip(players, dealt, strict=True)]  # fmt: skip
    state = State(
        settings=settings,
        host=players[0][0] if host is None else host,
        seats=seats,
        rng=seed,
        language=language,
        starting=rng.below(len(players)),
        matrix=matrix,
        clue_deck=clue_deck,
        in_phase=list(range(len(players))),
        start_seats=len(players),
        timer_scale=timer_scale,
        phase_at=now,
    )
    ctx = Ctx(state=state, now=now, rng=rng)
    next_step(ctx, settings.secrets_s)
    ctx.emit(GameStarted(starting=state.starting, dealt=[len(h) for h in dealt],
                         deadline=state.deadline))  # fmt: skip
    for index, hand in enumerate(dealt):
        ctx.emit(SecretsDealt(seat=index, cards=hand))
    return ctx


def choose(ctx: Ctx, index: int, card: int, word: int) -> None:
    """A seat chooses (or changes) the word of one of its dealt cards."""
    state = ctx.state
    if state.phase is not Phase.SECRETS:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    if index not in state.in_phase:
        raise RuleError(Refusal.NOT_AWAITED)
    secrets = state.seats[index].secrets
    if not 0 <= card < len(secrets):
        raise RuleError(Refusal.NO_SUCH_CARD, str(card))
    if not 0 <= word < 3:
        raise RuleError(Refusal.NO_SUCH_WORD, str(word))
    secrets[card].word = word
    acted(ctx, index)
    ctx.emit(SecretChosen(seat=index, secret=card, word=secrets[card].card * 3 + word))
    if not state.waiting_for():
        close(ctx, timed_out=False)


def choose_for(ctx: Ctx, index: int) -> bool:
    """Choose at random (seeded) every secret a seat has not chosen; True if it chose none
    itself."""
    secrets = ctx.state.seats[index].secrets
    none = all(secret.word is None for secret in secrets)
    for slot, secret in enumerate(secrets):
        if secret.word is None:
            secret.word = ctx.rng.below(3)
            ctx.emit(SecretChosen(seat=index, secret=slot, word=secret.card * 3 + secret.word,
                                  auto=True))  # fmt: skip
    return none


def miss(ctx: Ctx, index: int) -> None:
    """A seat missed choosing (out of reach): its secrets are chosen for it."""
    state = ctx.state
    if choose_for(ctx, index):
        missed(ctx, index)
    state.in_phase = [i for i in state.in_phase if i != index]
    if abandon_if_too_few(ctx):
        return
    if not state.waiting_for():
        close(ctx, timed_out=False)


def close(ctx: Ctx, timed_out: bool) -> None:
    """The secrets are all chosen (any left are chosen at random): the matrix is shown and
    round 1 begins."""
    state = ctx.state
    auto = []
    for index in state.in_phase:
        if any(secret.word is None for secret in state.seats[index].secrets):
            auto.append(index)
            if choose_for(ctx, index) and timed_out:
                missed(ctx, index)
    for seat in state.seats:  # seats that left keep no secret in play
        if seat.status is SeatStatus.LEFT:
            for secret in seat.secrets:
                secret.status = "out"
    state.in_phase = []
    ctx.emit(MatrixShown(matrix=list(state.matrix), auto=auto))
    if abandon_if_too_few(ctx):
        return
    clues.start_round(ctx, 1)
