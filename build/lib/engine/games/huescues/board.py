"""Hues and Cues' board (SPEC 11.3): 480 colours in 16 rows A–P by 30 columns 1–30.

A cell is a number 0–479 (row × 30 + column, both from 0) and is named like `H15`. The board
is built once by a fixed formula, like the printed one: the hue turns once across the
columns; down the rows the colours go from pale through vivid to dark. It does not wrap
around: column 1 and column 30 are not neighbours.
"""

from __future__ import annotations

import colorsys
import re
import unicodedata
from functools import cache

ROWS = "ABCDEFGHIJKLMNOP"
COLUMNS = 30
CELLS = len(ROWS) * COLUMNS  # 480

Colour = tuple[int, int, int]

_LOOKALIKES = str.maketrans(
    {  # Cyrillic letters typed for the Latin ones they look like (after case-folding)
        "а": "a",
        "в": "b",
        "с": "c",
        "е": "e",
        "н": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "м": "m",
        "о": "o",
        "р": "p",
    }
)
_CELL = re.compile(r"([a-p])\s*[-.:]?\s*(\d{1,2})|(\d{1,2})\s*[-.:]?\s*([a-p])")


def row_of(cell: int) -> int:
    """The cell's row, 0 (A) to 15 (P)."""
    return cell // COLUMNS


def column_of(cell: int) -> int:
    """The cell's column, 0 (column 1) to 29 (column 30)."""
    return cell % COLUMNS


def at(row: int, column: int) -> int:
    """The cell in this row (0–15) and column (0–29)."""
    if not (0 <= row < len(ROWS) and 0 <= column < COLUMNS):
        raise ValueError(f"no cell at row {row}, column {column}")
    return row * COLUMNS + column


def name(cell: int) -> str:
    """The cell's name: `H15`."""
    return f"{ROWS[row_of(cell)]}{column_of(cell) + 1}"


def parse(text: str) -> int | None:
    """The cell a player typed (`H15`, `h15`, `15H`, `h 15`, `Н15` in Cyrillic), or None when the
    text names no cell of the board."""
    folded = unicodedata.normalize("NFKC", text).strip().casefold().translate(_LOOKALIKES)
    match = _CELL.fullmatch(folded)
    if match is None:
        return None
    letter = match.group(1) or match.group(4)
    number = int(match.group(2) or match.group(3))
    if not 1 <= number <= COLUMNS:
        return None
    return at(ROWS.lower().index(letter), number - 1)


def distance(a: int, b: int) -> int:
    """The Chebyshev distance between two cells (a frame's cells are at distance 1)."""
    return max(abs(row_of(a) - row_of(b)), abs(column_of(a) - column_of(b)))


def around(cell: int, reach: int) -> list[int]:
    """The cells at distance at most `reach` from this one, clipped at the board's edges, in
    reading order (the frame is `around(cell, 1)`)."""
    row, column = row_of(cell), column_of(cell)
    return [
        at(r, c)
        for r in range(max(0, row - reach), min(len(ROWS), row + reach + 1))
        for c in range(max(0, column - reach), min(COLUMNS, column + reach + 1))
    ]


@cache
def colours() -> tuple[Colour, ...]:
    """Every cell's colour, cell by cell.

    The formula (fixed: a test keeps a digest of it): the hue is the column's share of a full
    turn, starting at red; the lightness falls evenly from 0.90 in row A to 0.16 in row P; the
    saturation rises from 0.55 at the top to 1.0 in the middle rows and falls back to 0.75 at
    the bottom, so the pale rows stay tinted and the dark ones stay coloured.
    """
    table: list[Colour] = []
    for row in range(len(ROWS)):
        t = row / (len(ROWS) - 1)
        lightness = 0.90 - 0.74 * t
        saturation = 0.55 + 0.90 * t if t <= 0.5 else 1.0 - 0.50 * (t - 0.5)
        for column in range(COLUMNS):
            red, green, blue = colorsys.hls_to_rgb(column / COLUMNS, lightness, saturation)
            table.append((round(red * 255), round(green * 255), round(blue * 255)))
    return tuple(table)


def colour(cell: int) -> Colour:
    """The cell's colour (red, green, blue, 0–255)."""
    return colours()[cell]
