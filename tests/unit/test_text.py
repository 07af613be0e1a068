"""engine.text: what shows nothing, the default-ignorable code points and the TR39 skeleton."""

from __future__ import annotations

import unicodedata

import pytest

from engine.text import (
    DEFAULT_IGNORABLE,
    is_default_ignorable,
    shows_nothing,
    skeleton,
    without_ignorable,
)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t",
        "\u034f\u034f\u034f",  # COMBINING GRAPHEME JOINER
        "\ufe0f",  # VARIATION SELECTOR-16
        "\u034f\ufe0f \u034f",
        "\u0301\u0308",  # combining marks without a base (Mn)
        "\u20dd\u20de",  # enclosing marks without a base (Me)
        "\u200b\u200d\u2060\ufeff",  # zero widths, word joiner, BOM (Cf)
        "\u202e\u2066\u2069",  # bidirectional controls
        "\u00ad",  # SOFT HYPHEN
        "\u3164\u115f\u1160\uffa0",  # Hangul fillers
        "\u2800",  # BRAILLE PATTERN BLANK
        "\U000e0041\U000e007f",  # tags
        "\U000e0100",  # VARIATION SELECTOR-17
        "\u3000\u2028",  # ideographic space, line separator
    ],
)
def test_text_that_shows_nothing_is_empty(text):
    assert shows_nothing(text)


@pytest.mark.parametrize(
    "text",
    ["a", "\u034fa", "e\u0301", "🌙", "❤\ufe0f", "日", "٣", "\u0915\u093e", ".", "\ue000",
     "\U0001fae8"],  # a private-use glyph; an emoji newer than some Python's Unicode data
)  # fmt: skip
def test_text_with_anything_that_shows_is_not_empty(text):
    assert not shows_nothing(text)


def test_the_default_ignorable_ranges_are_sorted_and_disjoint():
    for (_, high), (low, _) in zip(DEFAULT_IGNORABLE, DEFAULT_IGNORABLE[1:], strict=False):
        assert high + 1 < low
    for low, high in DEFAULT_IGNORABLE:
        assert low <= high


@pytest.mark.parametrize(
    "point",
    [
        0x00AD,
        0x034F,
        0x180B,
        0x200B,
        0x200F,
        0x2064,
        0x2065,
        0x206F,
        0x3164,
        0xFE00,
        0xFE0F,
        0xFEFF,
        0xE0001,
        0xE0FFF,
    ],
)
def test_default_ignorable_code_points(point):
    assert is_default_ignorable(chr(point))


@pytest.mark.parametrize("char", ["a", " ", "\u0301", "\u00ac", "\u2070", "\ufe10", "\U000e1000",
                                  "\u200a", "\u2800"])  # fmt: skip
def test_other_code_points_are_not_default_ignorable(char):
    assert not is_default_ignorable(char)


def test_every_format_character_is_either_ignorable_or_shows_nothing():
    for point in range(0x110000):
        char = chr(point)
        if unicodedata.category(char) in ("Cf", "Mn", "Me"):
            assert shows_nothing(char), hex(point)


def test_without_ignorable_drops_only_them():
    assert without_ignorable("re\u034fd\ufe0f\u200b!") == "red!"


@pytest.mark.parametrize(
    ("looks", "plain"),
    [
        ("r\u0435d", "red"),  # Cyrillic е
        ("re\u034fd", "red"),  # COMBINING GRAPHEME JOINER
        ("red\ufe0f", "red"),
        ("\u0397", "H"),  # Greek capital eta
        ("\u041d", "H"),  # Cyrillic capital en
        ("b1ue", "blue"),
        ("bIue", "blue"),
        ("rn", "m"),
        ("\u0441\u0435\u0440\u044b\u0439", "ce\u0440\u044b\u0439"),  # серый, with Latin c and e
    ],
)
def test_look_alikes_have_the_same_skeleton(looks, plain):
    assert skeleton(looks) == skeleton(plain)


@pytest.mark.parametrize(("one", "other"), [("red", "rod"), ("\u043d", "h"), ("BIUE", "BLUE"),
                                            ("r\u00e9d", "red")])  # fmt: skip
def test_texts_that_look_different_have_different_skeletons(one, other):
    assert skeleton(one) != skeleton(other)
