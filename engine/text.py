"""Text as people see it: what shows nothing, and what reads the same.

- `DEFAULT_IGNORABLE`: the code points Unicode says to draw as nothing when a font has no glyph
  for them (the derived property Default_Ignorable_Code_Point, DerivedCoreProperties.txt of
  Unicode 15.0: joiners, bidirectional controls, variation selectors, tags, fillers…).
- `shows_nothing()`: text made only of what shows nothing — whitespace, controls and format
  characters, combining marks without a base, default-ignorable code points — whatever code
  points make it. A hint, a clue or a cue like that is empty.
- `skeleton()`: the confusable skeleton of Unicode Technical Standard #39: NFD, the
  default-ignorable code points removed, each code point replaced by its prototype (the
  table `confusables.txt` beside this module, generated from Unicode's confusables.txt by
  tests/unicode_tables.py), NFD again. Two strings with the same skeleton read the same:
  "rеd" with a Cyrillic е and "red", a Greek Η and a Latin H, "b1ue" and "blue".

Pure: the table is package data, read once.
"""

from __future__ import annotations

import bisect
import unicodedata
from functools import cache
from importlib import resources

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    # Default_Ignorable_Code_Point (DerivedCoreProperties-15.0.0.txt), adjacent ranges joined;
    # tests/unicode_tables.py checks these against the data file.
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ..AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
    (0x2060, 0x206F),  # WORD JOINER..NOMINAL DIGIT SHAPES (isolates, invisible operators)
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP..UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
)
_STARTS = [low for low, _ in DEFAULT_IGNORABLE]

# Symbols and letters that draw nothing although Unicode gives them no property saying so.
_BLANK = frozenset("\u2800")  # BRAILLE PATTERN BLANK


def is_default_ignorable(char: str) -> bool:
    """Whether a code point is Default_Ignorable_Code_Point."""
    point = ord(char)
    at = bisect.bisect_right(_STARTS, point) - 1
    return at >= 0 and point <= DEFAULT_IGNORABLE[at][1]


def without_ignorable(text: str) -> str:
    """The text without its default-ignorable code points."""
    return "".join(char for char in text if not is_default_ignorable(char))


def _shows(char: str) -> bool:
    if is_default_ignorable(char) or char in _BLANK or char.isspace():
        return False
    category = unicodedata.category(char)
    if category in ("Mn", "Me"):
        return False  # a combining mark shows only on a base
    # Unassigned (Cn) in this Python's Unicode database may be a newer character (an emoji of a
    # later version), and a private-use one (Co) has a glyph of its own: both show; controls,
    # format characters, surrogates and separators do not.
    return category[0] not in "ZC" or (category in ("Cn", "Co") and not _noncharacter(char))


def _noncharacter(char: str) -> bool:
    point = ord(char)
    return 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE


def shows_nothing(text: str) -> bool:
    """Whether the text, drawn, shows nothing at all (so it is empty, whatever its code
    points): only whitespace, controls, format characters, combining marks, variation
    selectors and other default-ignorable code points."""
    return not any(_shows(char) for char in text)


@cache
def _prototypes() -> dict[str, str]:
    table = resources.files(__package__).joinpath("confusables.txt").read_text(encoding="utf-8")
    prototypes: dict[str, str] = {}
    for line in table.splitlines():
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            prototypes[chr(int(source, 16))] = "".join(chr(int(p, 16)) for p in target.split())
    return prototypes


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of a text: texts that read the same have the same skeleton.
    Case matters (a Cyrillic н reads as a small capital, its capital Н as H)."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(char, char) for char in decomposed
                     if not is_default_ignorable(char))  # fmt: skip
    return unicodedata.normalize("NFD", mapped)
