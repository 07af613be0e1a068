"""Reading a turn typed in private: cells like `g5 g6`, a colour before a cell for a stone of
another colour (`b:f7`, `2:f7`, `2f7`), tolerant of case, spaces and commas."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.board import Cell

COLOURS = ("red", "blue", "green", "yellow")
"""The stones' colours by seat index, as the pictures draw them (English names)."""
LETTERS: dict[str, int] = {name[0]: index for index, name in enumerate(COLOURS)}
"""A colour's letter in a typed turn (`b:f7`), in English."""

_STONE = re.compile(r"(?:([1-4])\s*:?\s*|([^\W\d_])\s*:\s*)?([^\W\d_])\s*(\d{1,2})")
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_stones(
    text: str, n: int, colour: int, letters: Mapping[str, int] = LETTERS
) -> list[tuple[Cell, int]] | None:
    """The stones a typed turn names, in order: (cell, colour), `colour` when none is given;
    None when any part of the text is not a stone on this board (a colour given as `1`–`4`
    is the seat's number, or by its letter in `letters`)."""
    stones: list[tuple[Cell, int]] = []
    rest = text.strip().lower()
    position = 0
    while position < len(rest):
        separator = _SEPARATORS.match(rest, position)
        if separator is not None:
            position = separator.end()
            continue
        match = _STONE.match(rest, position)
        if match is None:
            return None
        digit, letter, row, place = match.groups()
        if digit is not None:
            chosen = int(digit) - 1
        elif letter is not None:
            if letter not in letters:
                return None
            chosen = letters[letter]
        else:
            chosen = colour
        cell = hexes.parse_cell(f"{row}{place}", n)
        if cell is None:
            return None
        stones.append((cell, chosen))
        position = match.end()
    return stones or None
