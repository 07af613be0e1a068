"""The icons of Guess What!, shipped as data: one emoji and its English name per line."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import NamedTuple

MIN_ICONS = 110


class Icon(NamedTuple):
    """One icon: how it looks (a single emoji) and an English name (data, not a catalog text)."""

    emoji: str
    name: str


def _single_emoji(text: str) -> bool:
    """One code point that shows as an emoji: no sequences (flags, skin tones, joined
    people), which some phones draw as several pictures."""
    return len(text) == 1 and ord(text) >= 0x2300


def _load() -> tuple[Icon, ...]:
    text = resources.files(__package__).joinpath("icons.txt").read_text(encoding="utf-8")
    loaded = []
    for number, line in enumerate(text.splitlines(), start=1):
        emoji, _, name = line.partition(" ")
        if not _single_emoji(emoji) or not name.strip():
            raise ValueError(f"icons line {number}: one emoji, a space and its name")
        loaded.append(Icon(emoji, name.strip()))
    if len({i.emoji for i in loaded}) != len(loaded) or len({i.name for i in loaded}) != len(
        loaded
    ):
        raise ValueError("icons: each emoji and each name appears once")
    if len(loaded) < MIN_ICONS:
        raise ValueError(f"icons: at least {MIN_ICONS}, not {len(loaded)}")
    return tuple(loaded)


@cache
def icons() -> tuple[Icon, ...]:
    """Return every icon; an icon's number is its index here."""
    return _load()


def icon(number: int) -> Icon:
    """Return the icon with this number: the same emoji on its button, the board and the
    reveal."""
    return icons()[number]
