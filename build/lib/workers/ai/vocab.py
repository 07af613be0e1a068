"""The AI's words: a curated vocabulary of hints and clues in seven languages, and the check
that a hint names none of a card's emoji.

`hints.tsv` holds one concept a line (an evocative noun, adjective or short phrase of 1–3
words) in English, Italian, Spanish, French, German, Portuguese (Brazil) and Russian, written
as each language says it rather than word for word. The AI ranks the concepts in the model's
(English) space and says the chosen one in the room's language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from workers.ai.model import Vector, embed, emoji_list, emoji_name

LANGUAGES = ("en", "it", "es", "fr", "de", "pt", "ru")
MAX_WORDS = 3

# Little words that name nothing: an emoji name sharing one of them with a hint is no hint
# at its picture ("man with a hat" and "a quiet morning" share only "a").
_LITTLE_WORDS = {
    "en": "a an the of and with in on at by to for",
    "it": "il lo la le gli i un una uno di del della dei delle da con e al alla in su per",
    "es": "el los las un una unos unas de del con y al en por para",
    "fr": "le la les un une des de du d l au aux avec et en à pour sur",
    "de": "der die das den dem des ein eine einer einem einen mit und im am an auf von zu vom "
    "zum zur",
    "pt": "o a os as um uma de do da dos das com e em no na nos nas ao para",
    "ru": "в во на с со и у к о об от за по для из",
}
_WORD = re.compile(r"[^\W\d_]+")


class Concept(NamedTuple):
    """One entry of the vocabulary: its text in every language, English first."""

    number: int
    texts: dict[str, str]

    @property
    def english(self) -> str:
        return self.texts["en"]


@cache
def concepts() -> tuple[Concept, ...]:
    """Return the vocabulary, in the order of its data file."""
    text = resources.files(__package__).joinpath("hints.tsv").read_text(encoding="utf-8")
    lines = text.splitlines()
    header = tuple(lines[0].split("\t"))
    if header != LANGUAGES:
        raise ValueError(f"hints.tsv: the header is {header}, not {LANGUAGES}")
    loaded: list[Concept] = []
    for number, line in enumerate(lines[1:], start=2):
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) != len(LANGUAGES) or not all(cells):
            raise ValueError(f"hints.tsv line {number}: one text per language")
        if any(len(cell.split()) > MAX_WORDS for cell in cells):
            raise ValueError(f"hints.tsv line {number}: at most {MAX_WORDS} words")
        loaded.append(Concept(len(loaded), dict(zip(LANGUAGES, cells, strict=True))))
    return tuple(loaded)


@cache
def concept_matrix() -> Vector:
    """Return the English embedding of every concept, one row each (unit length)."""
    matrix = np.stack([embed(c.english) for c in concepts()])
    matrix.setflags(write=False)
    return matrix


def normalise(text: str) -> str:
    """Fold case, accents and `ё` so that words compare as a reader would."""
    folded = unicodedata.normalize("NFKD", text.casefold().replace("ё", "е"))
    return "".join(c for c in folded if not unicodedata.combining(c)).replace("й", "и")


_STOPWORDS = frozenset(normalise(w) for line in _LITTLE_WORDS.values() for w in line.split())


def words(text: str) -> list[str]:
    """The words of a text that carry meaning (normalised, without little words)."""
    return [w for w in _WORD.findall(normalise(text)) if len(w) > 1 and w not in _STOPWORDS]


@cache
def _phrases() -> dict[str, int]:
    table: dict[str, int] = {}
    for concept in concepts():
        for text in concept.texts.values():
            table.setdefault(" ".join(_WORD.findall(normalise(text))), concept.number)
    return table


def lookup(text: str) -> Concept | None:
    """Return the concept a hint says, in any of the languages (None: not one of ours)."""
    index = _phrases().get(" ".join(_WORD.findall(normalise(text))))
    return None if index is None else concepts()[index]


def _stem(word: str) -> str:
    if len(word) <= 4:
        return word[:3]
    return word[: max(4, min(len(word) - 2, 6))]


def _same_word(a: str, b: str) -> bool:
    """Whether two words may be forms of one another: equal, one the other's stem plus an
    ending, or one inside the other (German compounds)."""
    if a == b or a.startswith(_stem(b)) or b.startswith(_stem(a)):
        return True
    return (len(b) >= 4 and b in a) or (len(a) >= 4 and a in b)


@cache
def name_words(symbol: str, language: str) -> frozenset[str]:
    """The words that name one emoji, in a language and in English."""
    names = {emoji_name(symbol, language), emoji_name(symbol, "en")}
    return frozenset(w for name in names for w in words(name))


def scene_words(scene: str, language: str) -> frozenset[str]:
    """The words that name any emoji of a scene, in a language and in English."""
    return frozenset(w for symbol in emoji_list(scene) for w in name_words(symbol, language))


def names_any(text: str, forbidden: Iterable[str]) -> bool:
    """Whether a text says one of the forbidden words, in any form this check can see."""
    said = words(text)
    return any(_same_word(w, f) for w in said for f in forbidden)


@cache
def _concept_words(language: str) -> dict[str, tuple[str, frozenset[int]]]:
    """Every word the concepts say in a language or in English: its stem, and the concepts
    that say it."""
    said: dict[str, set[int]] = {}
    for concept in concepts():
        for word in words(concept.texts[language]) + words(concept.english):
            said.setdefault(word, set()).add(concept.number)
    return {word: (_stem(word), frozenset(numbers)) for word, numbers in said.items()}


@lru_cache(maxsize=65536)
def _naming(forbidden: str, language: str) -> frozenset[int]:
    """The concepts that say a form of one forbidden word (`_same_word`, unrolled: this runs
    over the whole vocabulary)."""
    stem = _stem(forbidden)
    long = len(forbidden) >= 4
    found: set[int] = set()
    for word, (word_stem, numbers) in _concept_words(language).items():
        if (
            word.startswith(stem)
            or forbidden.startswith(word_stem)
            or (long and forbidden in word)
            or (len(word) >= 4 and word in forbidden)
        ):
            found |= numbers
    return frozenset(found)


def allowed(forbidden: frozenset[str], language: str) -> np.ndarray:
    """A mask of the concepts that name none of the forbidden words, in the room's language
    or in English."""
    mask = np.ones(len(concepts()), dtype=bool)
    for word in forbidden:
        mask[list(_naming(word, language))] = False
    return mask
