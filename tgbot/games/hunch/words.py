"""How Hunch!'s cards read in messages: the matrix's words, clue categories, clues with their
answers, secrets by owner and place."""

from __future__ import annotations

from engine.games.hunch import deck
from engine.games.hunch.model import REMOVED, Clue, State
from tgbot.i18n import N_, Texts, _
from tgbot.table.render.common import user_text

TITLE = "Hunch!"

CATEGORIES = Texts({
    "colour": N_("Colour"),
    "shape_or_size": N_("Shape or size"),
    "place": N_("Place"),
    "feeling": N_("Feeling"),
    "sound": N_("Sound"),
    "smell_or_taste": N_("Smell or taste"),
    "title": N_("Title of a film, book or song"),
    "famous": N_("Famous person or character"),
    "animal": N_("Animal"),
    "food_or_drink": N_("Food or drink"),
    "season_or_weather": N_("Season or weather"),
    "job_or_activity": N_("Job or activity"),
    "material": N_("Material"),
    "number": N_("Number"),
    "free_choice": N_("Free choice"),
    "question": N_("Question (yes/no)"),
})
"""Each clue category's name, by its key in `decks/clues.txt`."""


def category(card: int) -> str:
    """A clue card's category, as players read it."""
    key = deck.category_of(card)
    return CATEGORIES.get(key, key)


def word(state: State, word_id: int) -> str:
    """A matrix word by its id, in the game's language."""
    return deck.word(state.language, word_id)


def card_words(state: State, card: int) -> tuple[str, str, str]:
    """A target card's three words."""
    return deck.targets(state.language)[card]


def matrix_lines(state: State) -> list[str]:
    """The matrix in words, a line per place: "3. rose · anchor · piano" (— for a card gone)."""
    lines = []
    for place, card in enumerate(state.matrix):
        shown = " · ".join(card_words(state, card)) if card != REMOVED else "—"
        lines.append(f"{place + 1}. {shown}")
    return lines


def answer_text(answer: bool | None) -> str:
    """A question clue's answer: "yes", "no", or nothing."""
    if answer is None:
        return ""
    return _("yes") if answer else _("no")


def clue_text(clue: Clue, with_category: bool = True) -> str:
    """A clue as messages show it: «red» (Colour), and a question's answer: «Alive?» → yes."""
    text = f"«{user_text(clue.text)}»"
    if with_category:
        text += f" ({category(clue.card)})"
    if clue.answer is not None:
        text += " → " + answer_text(clue.answer)
    return text


def plain_clue(clue: Clue) -> str:
    """A clue as a button or a picture shows it (nothing escaped): «red» → yes."""
    text = f"«{clue.text}»"
    if clue.answer is not None:
        text += " → " + answer_text(clue.answer)
    return text


def secret_name(who: str, slot: int) -> str:
    """A secret as the group knows it: "Ann's secret 2"."""
    return _("{name}'s secret {n}").format(name=who, n=slot + 1)


def clues_before(state: State, owner: int, slot: int) -> list[Clue]:
    """The clues lying before a secret, in the order they came."""
    return [c for c in state.clues if (c.owner, c.secret) == (owner, slot)]
