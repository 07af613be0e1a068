"""Putting a clue face up before a secret: bought in an auction or kept in the bargain round;
a question clue with its buyer's yes or no for that secret."""

from __future__ import annotations

from engine.errors import RuleError
from engine.games.hunch import deck
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import CluePlaced, Placing
from engine.games.hunch.model import Clue


def check_answer(clue: Clue, answer: bool | None, auto: bool) -> None:
    """A question clue takes a yes or no (unless placed for a seat that missed); another
    clue takes none."""
    if deck.is_question(clue.card):
        if answer is None and not auto:
            raise RuleError(Refusal.ANSWER_NEEDED)
    elif answer is not None:
        raise RuleError(Refusal.NOT_A_QUESTION)


def place(ctx: Ctx, index: int, clue: Clue, slot: int, answer: bool | None,
          how: Placing) -> None:  # fmt: skip
    """Put `clue` before the seat's secret `slot` (still in play)."""
    if slot not in ctx.state.seats[index].in_play():
        raise RuleError(Refusal.NO_SUCH_SECRET, str(slot))
    check_answer(clue, answer, how == "auto")
    clue.owner, clue.secret, clue.answer = index, slot, answer
    ctx.emit(CluePlaced(seat=index, clue=clue.id, secret=slot, answer=answer, how=how))
