"""The decks, package data: the target cards of each language (`decks/<language>.txt`, one
card a line, its three words apart by spaces; line n is the same three concepts in every
language) and the clue cards (`decks/clues.txt`, one card a line: its category's key).

Category keys are stable names (`colour`, `free_choice`, `question`…): the Telegram side
gives each its text in the players' languages.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

DEFAULT_LANGUAGE = "en"
FREE_CHOICE = "free_choice"
QUESTION = "question"


def _lines(name: str) -> list[str]:
    text = resources.files(__package__).joinpath("decks").joinpath(name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]  # fmt: skip


@cache
def languages() -> tuple[str, ...]:
    """The languages whose target cards ship with the game."""
    folder = resources.files(__package__).joinpath("decks")
    return tuple(sorted(item.name.removesuffix(".txt") for item in folder.iterdir()
                        if item.name.endswith(".txt") and item.name != "clues.txt"))  # fmt: skip


def deck_language(language: str) -> str:
    """The language whose cards a room of `language` plays with (English when not shipped)."""
    return language if language in languages() else DEFAULT_LANGUAGE


@cache
def targets(language: str) -> tuple[tuple[str, str, str], ...]:
    """The target cards in a language: three words each."""
    cards = []
    for line in _lines(f"{deck_language(language)}.txt"):
        words = line.split()
        if len(words) != 3:
            raise ValueError(f"a target card has three words: {line!r}")
        cards.append((words[0], words[1], words[2]))
    return tuple(cards)


def word(language: str, word_id: int) -> str:
    """A word by its id (`card * 3 + position`)."""
    return targets(language)[word_id // 3][word_id % 3]


@cache
def clue_cards() -> tuple[str, ...]:
    """The clue cards: each one's category key."""
    return tuple(_lines("clues.txt"))


def category_of(card: int) -> str:
    """A clue card's category key."""
    return clue_cards()[card]


def is_question(card: int) -> bool:
    """Whether a clue card asks a yes/no question (its buyer answers it)."""
    return category_of(card) == QUESTION
