"""The clue phase (SPEC 11.4): each seat draws two clue cards, may replace one once per
round, and writes one clue per card; then every clue written is shown."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.hunch import trading, words
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import (
    ClueCardsDrawn,
    ClueLine,
    CluePhaseStarted,
    CluesShown,
    ClueWritten,
)
from engine.games.hunch.model import CLUE_CARDS, Clue, Phase
from engine.games.hunch.turns import (
    abandon_if_too_few,
    acted,
    draw_clue_card,
    matrix_words,
    missed,
    next_step,
)


def start_round(ctx: Ctx, number: int) -> None:
    """Round `number` begins with its clue phase: every seat in play draws its clue cards."""
    state = ctx.state
    state.game_round = number
    state.phase = Phase.CLUES
    state.revealed = []
    for seat in state.seats:
        seat.hand, seat.texts, seat.replaced = [], [], False
        seat.hunches, seat.extra = [], 0
    state.in_phase = state.in_play()
    for index in state.in_phase:
        seat = state.seats[index]
        for _ in range(CLUE_CARDS):
            card = draw_clue_card(ctx)
            if card is not None:
                seat.hand.append(card)
        seat.texts = [None] * len(seat.hand)
        ctx.emit(ClueCardsDrawn(seat=index, cards=list(seat.hand)))
    next_step(ctx, state.settings.clue_s)
    ctx.emit(CluePhaseStarted(round_no=ctx.round.no, game_round=number,
                              seats=list(state.in_phase), deadline=state.deadline))  # fmt: skip
    if not state.waiting_for():
        close(ctx, timed_out=False)


def _card_of(ctx: Ctx, index: int, card: int) -> None:
    state = ctx.state
    if state.phase is not Phase.CLUES:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    if index not in state.in_phase:
        raise RuleError(Refusal.NOT_AWAITED)
    if not 0 <= card < len(state.seats[index].hand):
        raise RuleError(Refusal.NO_SUCH_CARD, str(card))


def replace(ctx: Ctx, index: int, card: int) -> None:
    """Discard a clue card (and its clue, if written) for another, once per round."""
    _card_of(ctx, index, card)
    seat = ctx.state.seats[index]
    if seat.replaced:
        raise RuleError(Refusal.REPLACED_ALREADY)
    ctx.state.clue_discard.append(seat.hand[card])
    drawn = draw_clue_card(ctx)
    assert drawn is not None  # the card just discarded at least
    seat.hand[card] = drawn
    seat.texts[card] = None
    seat.replaced = True
    acted(ctx, index)
    ctx.emit(ClueCardsDrawn(seat=index, cards=list(seat.hand), replaced=card))


def check_clue(ctx: Ctx, text: str) -> str:
    """The clue as kept (trimmed), or a refusal: empty, too long, or naming a matrix word."""
    if words.is_empty(text):
        raise RuleError(Refusal.CLUE_EMPTY)
    if words.too_long(text):
        raise RuleError(Refusal.CLUE_TOO_LONG, str(words.CLUE_MAX))
    named = words.matrix_word_in(text, matrix_words(ctx.state).values())
    if named is not None:
        raise RuleError(Refusal.CLUE_NAMES_MATRIX_WORD, named)
    return words.clean(text)


def write(ctx: Ctx, index: int, card: int, text: str) -> None:
    """Write (or rewrite) the clue of one of a seat's clue cards."""
    _card_of(ctx, index, card)
    kept = check_clue(ctx, text)
    ctx.state.seats[index].texts[card] = kept
    acted(ctx, index)
    ctx.emit(ClueWritten(seat=index, card=card, text=kept))
    if not ctx.state.waiting_for():
        close(ctx, timed_out=False)


def miss(ctx: Ctx, index: int) -> None:
    """A seat out of reach writes no more clues: those not written are not offered."""
    state = ctx.state
    seat = state.seats[index]
    if all(text is None for text in seat.texts):
        missed(ctx, index)
    _drop_unwritten(ctx, index)
    if abandon_if_too_few(ctx):
        return
    if not state.waiting_for():
        close(ctx, timed_out=False)


def _drop_unwritten(ctx: Ctx, index: int) -> None:
    seat = ctx.state.seats[index]
    kept = [(card, text) for card, text in zip(seat.hand, seat.texts, strict=True) if text]
    ctx.state.clue_discard.extend(c for c, t in zip(seat.hand, seat.texts, strict=True) if not t)
    seat.hand = [card for card, _ in kept]
    seat.texts = [text for _, text in kept]


def close(ctx: Ctx, timed_out: bool) -> None:
    """The clue phase closes: every clue written is shown (a clue not written is not offered)
    and the trading phase begins."""
    state = ctx.state
    shown: list[ClueLine] = []
    missing: list[int] = []
    for index in state.in_phase:
        seat = state.seats[index]
        if seat.hand and all(text is None for text in seat.texts):
            missing.append(index)
        for card, text in zip(seat.hand, seat.texts, strict=True):
            if text is None:
                state.clue_discard.append(card)
                continue
            clue = Clue(id=state.next_clue, writer=index, card=card, text=text,
                        round=state.game_round)  # fmt: skip
            state.next_clue += 1
            state.clues.append(clue)
            shown.append(ClueLine(id=clue.id, writer=index, card=card, text=text))
        seat.hand, seat.texts = [], []
    state.in_phase = []
    ctx.emit(CluesShown(clues=shown, missed=missing))
    if timed_out:
        for index in missing:
            missed(ctx, index)
        if abandon_if_too_few(ctx):
            return
    trading.start(ctx)
