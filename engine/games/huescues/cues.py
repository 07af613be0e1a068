"""Cues: what a word is, and which cues are refused (SPEC 11.3).

A word is a run of letters or digits, joined by hyphens or apostrophes inside it. A cue is
refused when a word of it is a form of a basic colour word of the room's language or of
English (`colours/<language>.txt`, compared after NFKC, case-folding and ё→е; a word joined
by hyphens or apostrophes is refused when one of its parts is such a form), when a word is a
single letter A–P, a number 1–30 or a cell name, and when the whole cue equals an earlier cue
of the game.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

from engine.errors import ErrorCode, RuleError
from engine.games.huescues import board

CUE_MAX = 60
"""Characters in a cue at most, after trimming (a long word is still one word)."""
JOINERS = frozenset("-\u2010\u2011'\u2019\u02bc")
"""Hyphens and apostrophes that may join the runs of letters or digits of a word."""
_SPLIT = str.maketrans(dict.fromkeys(JOINERS, " "))
_PLAIN = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2010": "-", "\u2011": "-"})


def fold(text: str) -> str:
    """A text as cues are compared: NFKC, case-folded, ё as е, apostrophes and hyphens as
    plain ones."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return folded.translate(_PLAIN)


@cache
def colour_words(language: str) -> frozenset[str]:
    """The forms of the basic colour words of one language (none for a language not shipped)."""
    try:
        text = (
            resources.files(__package__)
            .joinpath("colours", f"{language}.txt")
            .read_text(encoding="utf-8")
        )
    except FileNotFoundError:
        return frozenset()
    return frozenset(
        fold(line.strip())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )


def languages() -> list[str]:
    """The languages whose colour words ship with the game."""
    folder = resources.files(__package__).joinpath("colours")
    return sorted(item.name.removesuffix(".txt") for item in folder.iterdir()
                  if item.name.endswith(".txt"))  # fmt: skip


def _runs_char(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LN" or category[0] == "M"


def is_word(token: str) -> bool:
    """A run of letters or digits, joined by single hyphens or apostrophes inside it."""
    token = unicodedata.normalize("NFKC", token)
    if not token or token[0] in JOINERS or token[-1] in JOINERS:
        return False
    if unicodedata.category(token[0])[0] not in "LN":
        return False
    previous_joiner = False
    for char in token:
        if char in JOINERS:
            if previous_joiner:
                return False
            previous_joiner = True
        elif _runs_char(char):
            previous_joiner = False
        else:
            return False
    return True


def is_coordinate(word: str) -> bool:
    """A single letter A–P, a number 1–30 or a cell name (`H15`, `15H`, `h-15`)."""
    folded = fold(word)
    if folded.isdecimal():
        return 1 <= int(folded) <= board.COLUMNS
    if len(folded) == 1:
        return board.parse(folded + "1") is not None  # the letter of a row, look-alikes too
    return board.parse(folded) is not None


def is_colour_word(word: str, language: str) -> bool:
    """A form of a basic colour word of the language or of English, or a word joined by
    hyphens or apostrophes with such a form as one of its parts."""
    forms = colour_words(language) | colour_words("en")
    folded = fold(word)
    return folded in forms or any(part in forms for part in folded.translate(_SPLIT).split())


def check_cue(text: str, language: str, second: bool, earlier: list[str]) -> str:
    """The cue as it will be shown (trimmed, spaces collapsed), or a refusal saying why.

    Raises:
        RuleError: `cue_empty`, `cue_too_long`, `cue_not_words`, `cue_one_word` (a first cue
            of more than one word), `cue_two_words` (a second cue of more than two),
            `cue_colour_word`, `cue_coordinate` (the word as `detail`), `cue_repeated`.
    """
    words = text.split()
    cue = " ".join(words)
    if not words:
        raise RuleError(ErrorCode.CUE_EMPTY)
    if len(cue) > CUE_MAX:
        raise RuleError(ErrorCode.CUE_TOO_LONG, f"{len(cue)} > {CUE_MAX}")
    for word in words:
        if not is_word(word):
            raise RuleError(ErrorCode.CUE_NOT_WORDS, word)
    if len(words) > (2 if second else 1):
        raise RuleError(ErrorCode.CUE_TWO_WORDS if second else ErrorCode.CUE_ONE_WORD)
    for word in words:
        if is_colour_word(word, language):
            raise RuleError(ErrorCode.CUE_COLOUR_WORD, word)
        if is_coordinate(word):
            raise RuleError(ErrorCode.CUE_COORDINATE, word)
    if fold(cue) in earlier:
        raise RuleError(ErrorCode.CUE_REPEATED, cue)
    return cue
