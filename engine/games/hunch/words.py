"""The clue check (SPEC 11.4): a clue is refused when one of its words equals a matrix word,
or begins with a matrix word of four letters or more ("roses" while "rose" is in the matrix).

Words are compared folded: NFKC, case-folded, accents dropped (every combining mark removed
after canonical decomposition: é → e, ü → u, ñ → n, and in Russian ё → е, й → и), and
default-ignorable code points (joiners, variation selectors) dropped. A word is a run of
letters or digits; anything else separates words. The same folding serves every language:
German ß folds to ss, so "Strauss" is "Strauß".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from engine.text import shows_nothing, without_ignorable

CLUE_MAX = 40
"""Characters in a clue at most (Unicode code points, after trimming)."""
PREFIX_LETTERS = 4
"""A matrix word this long or longer also refuses the words that begin with it."""
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """A text as clues and matrix words are compared."""
    text = without_ignorable(unicodedata.normalize("NFKC", text)).casefold()
    stripped = "".join(c for c in unicodedata.normalize("NFD", text)
                       if not unicodedata.combining(c))  # fmt: skip
    return unicodedata.normalize("NFC", stripped)


def words_of(text: str) -> list[str]:
    """The words of a text, folded (marks joined to their letters first)."""
    return _WORD.findall(fold(text))


def clean(text: str) -> str:
    """A clue as it is kept: trimmed."""
    return text.strip()


def is_empty(text: str) -> bool:
    """Whether a clue shows nothing."""
    return not text.strip() or shows_nothing(text)


def too_long(text: str) -> bool:
    return len(clean(text)) > CLUE_MAX


def matrix_word_in(text: str, matrix_words: Iterable[str]) -> str | None:
    """The matrix word a clue names (equal, or a prefix of four letters or more of one of its
    words), as written in the matrix; None when it names none."""
    folded = {fold(word): word for word in matrix_words}
    for word in words_of(text):
        if word in folded:
            return folded[word]
        for stem, shown in folded.items():
            if len(stem) >= PREFIX_LETTERS and word.startswith(stem):
                return shown
    return None
