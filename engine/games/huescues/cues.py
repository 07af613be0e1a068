"""Cues: what a word is, and which cues are refused (SPEC 11.3).

A word is a run of letters or digits, joined by hyphens or apostrophes inside it. A cue is
refused when a word of it is a form of a basic colour word of the room's language or of
English (`colours/<language>.txt`, compared after NFKC, case-folding and ё→е; a word joined
by hyphens or apostrophes is refused when one of its parts is such a form), when a word is a
single letter A–P, a number 1–30 or a cell name, and when the whole cue equals an earlier cue
of the game.

Each comparison is made by what the text reads as, not only by its code points: the
default-ignorable code points (joiners, variation selectors…) are dropped, and a word whose
confusable skeleton (Unicode TR39, `engine.text.skeleton`) is a forbidden form's is that form:
"rеd" with a Cyrillic е, "red" with a combining grapheme joiner (U+034F) inside, "сeрый"
with Latin letters, a Greek Η for the row H. Skeletons keep case (a Latin H reads as a
Cyrillic Н, not as н), so a word is compared with each form written in the word's own case
pattern too. For rows and cells, letters are never read as digits.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from engine.errors import RuleError
from engine.games.huescues import board
from engine.games.huescues.errors import Refusal
from engine.text import shows_nothing, skeleton, without_ignorable

CUE_MAX = 60
"""Characters in a cue at most, after trimming (a long word is still one word)."""
JOINERS = frozenset("-\u2010\u2011'\u2019\u02bc")
"""Hyphens and apostrophes that may join the runs of letters or digits of a word."""
_SPLIT = str.maketrans(dict.fromkeys(JOINERS, " "))
_PLAIN = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2010": "-", "\u2011": "-"})


def fold(text: str) -> str:
    """A text as cues are compared: NFKC, default-ignorable code points dropped, case-folded,
    ё as е, apostrophes and hyphens as plain ones."""
    return _typed(text).casefold()


def _typed(text: str) -> str:
    """A text as typed, for reading it: NFKC, default-ignorable code points dropped, ё as е
    (and Ё as Е), apostrophes and hyphens as plain ones; its case kept."""
    typed = without_ignorable(unicodedata.normalize("NFKC", text))
    return typed.replace("ё", "е").replace("Ё", "Е").translate(_PLAIN)


@dataclass(frozen=True)
class Forms:
    """Words to refuse, ready to compare: folded, their skeletons, and by length."""

    folded: frozenset[str]
    skeletons: frozenset[str]
    by_length: dict[int, tuple[str, ...]]


def forms_of(words: Iterable[str]) -> Forms:
    folded = frozenset(fold(word) for word in words)
    by_length: dict[int, list[str]] = {}
    for form in sorted(folded):
        by_length.setdefault(len(form), []).append(form)
    return Forms(folded, frozenset(skeleton(form) for form in folded),
                 {length: tuple(forms) for length, forms in by_length.items()})  # fmt: skip


@lru_cache(maxsize=256)
def _earlier_forms(earlier: tuple[str, ...]) -> Forms:
    """`forms_of` the game's earlier cues, kept while the same cues are checked again (an AI
    cue giver checks every phrase it may say against them)."""
    return forms_of(earlier)


@lru_cache(maxsize=16_384)
def _readings(text: str) -> tuple[str, str, str, str]:
    """A text folded, as typed, the skeleton of each: what `reads_as` compares, kept for the
    texts checked again and again (the AI's phrases, in every check of a cue)."""
    folded, typed = fold(text), _typed(text)
    return folded, typed, skeleton(typed), skeleton(folded)


def reads_as(text: str, forms: Forms) -> bool:
    """Whether the text is one of the forms or reads as one: the same once folded, the same
    skeleton as typed ("bIue" with a capital I) or once folded ("rЕD"), or the skeleton of a
    form written in the text's case pattern (a Latin H for a Cyrillic Н, a Greek Α for a
    Latin A)."""
    folded, typed, shown, folded_shown = _readings(text)
    if folded in forms.folded or shown in forms.skeletons or folded_shown in forms.skeletons:
        return True
    if not any(char.isupper() for char in typed):
        return False
    for form in forms.by_length.get(len(typed), ()):
        cased = "".join(f.upper() if t.isupper() else f for t, f in zip(typed, form, strict=True))
        if skeleton(cased) == shown:
            return True
    return False


@cache
def _colour_forms(language: str) -> Forms:
    return forms_of(colour_words(language) | colour_words("en"))


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


@lru_cache(maxsize=16_384)  # the AI's phrases are checked again at each cue it gives
def is_coordinate(word: str) -> bool:
    """A single letter A–P, a number 1–30 or a cell name (`H15`, `15H`, `h-15`), also with
    letters that read as those of a row (a Cyrillic Н, a Greek Η)."""
    return _coordinate(fold(word)) or _coordinate(fold(_as_latin_letters(_typed(word))))


def _coordinate(folded: str) -> bool:
    if folded.isdecimal():
        return 1 <= int(folded) <= board.COLUMNS
    if len(folded) == 1:
        return board.parse(folded + "1") is not None  # the letter of a row, look-alikes too
    return board.parse(folded) is not None


def _as_latin_letters(text: str) -> str:
    """Each letter whose skeleton is one Latin letter as that letter (a Greek Η as H); digits
    stay digits and a letter never becomes a digit, so "el", "il" or a Russian "об" do not read
    as E1, I1 or O6."""
    letters = []
    for char in text:
        read = skeleton(char) if not char.isdecimal() else char
        letters.append(read if len(read) == 1 and read.isascii() and read.isalpha() else char)
    return "".join(letters)


@lru_cache(maxsize=16_384)
def is_colour_word(word: str, language: str) -> bool:
    """A form of a basic colour word of the language or of English, or a word joined by
    hyphens or apostrophes with such a form as one of its parts; or a word that reads as one
    (look-alike letters, invisible marks)."""
    forms = _colour_forms(language)
    parts = word.translate(_SPLIT).split()
    return reads_as(word, forms) or (len(parts) > 1 and any(reads_as(p, forms) for p in parts))


def check_cue(text: str, language: str, second: bool, earlier: list[str]) -> str:
    """The cue as it will be shown (trimmed, spaces collapsed), or a refusal saying why.

    Raises:
        RuleError: `cue_empty`, `cue_too_long`, `cue_not_words`, `cue_one_word` (a first cue
            of more than one word), `cue_two_words` (a second cue of more than two),
            `cue_colour_word`, `cue_coordinate` (the word as `detail`), `cue_repeated`.
    """
    words = text.split()
    cue = " ".join(words)
    if not words or shows_nothing(cue):
        raise RuleError(Refusal.CUE_EMPTY)
    if len(cue) > CUE_MAX:
        raise RuleError(Refusal.CUE_TOO_LONG, f"{len(cue)} > {CUE_MAX}")
    for word in words:
        if not is_word(word):
            raise RuleError(Refusal.CUE_NOT_WORDS, word)
    if len(words) > (2 if second else 1):
        raise RuleError(Refusal.CUE_TWO_WORDS if second else Refusal.CUE_ONE_WORD)
    for word in words:
        if is_colour_word(word, language):
            raise RuleError(Refusal.CUE_COLOUR_WORD, word)
        if is_coordinate(word):
            raise RuleError(Refusal.CUE_COORDINATE, word)
    if earlier and reads_as(cue, _earlier_forms(tuple(earlier))):
        raise RuleError(Refusal.CUE_REPEATED, cue)
    return cue
