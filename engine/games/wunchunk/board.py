"""Wunchunk's board (SPEC 11.5): a hexhex board of n cells per side, 3n(n−1)+1 cells.

A cell is a cube coordinate (q, r, s) with q + r + s = 0, r growing downwards and the centre
at (0, 0, 0); pointy-top hexagons, so a row is a constant r and q grows to the right. Cells are
named by row and place, as AbstractPlay names them: rows a, b, c… from the bottom row up (the
bottom row has the largest r), places 1, 2, 3… from the left of each row; `g5` on a board of six
is (0, −1, 1).

Everything about one size is computed once (`geometry(n)`): the cells in name order, their
numbers (a cell's index in that order), the neighbour table by number. The rules and the AI
work on these numbers where speed matters; the public functions take and give cells.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

Cell = tuple[int, int, int]

SIZES = (5, 6, 7, 8)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIRECTIONS: tuple[Cell, ...] = (
    (1, 0, -1),
    (1, -1, 0),
    (0, -1, 1),
    (-1, 0, 1),
    (-1, 1, 0),
    (0, 1, -1),
)

# The start chunks of SPEC 11.5 by number of seats, colour index = seat index (0-based).
STARTS: dict[int, tuple[tuple[Cell, Cell], ...]] = {
    2: (((0, -1, 1), (1, -1, 0)), ((-1, 1, 0), (0, 1, -1))),
    3: (((0, -1, 1), (-1, 0, 1)), ((-1, 1, 0), (0, 1, -1)), ((1, 0, -1), (1, -1, 0))),
    4: (
        ((2, -2, 0), (2, -1, -1)),
        ((0, -2, 2), (-1, -1, 2)),
        ((-2, 1, 1), (-2, 2, 0)),
        ((1, 1, -2), (0, 2, -2)),
    ),
}

_NAME = re.compile(r"([a-z])\s*(\d{1,2})")


@dataclass(frozen=True)
class Geometry:
    """One board size, computed once: cells in name order, numbers, names and neighbours."""

    n: int
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    names: tuple[str, ...]
    by_name: dict[str, int]
    rows: tuple[tuple[int, ...], ...]  # numbers, bottom row (a) first, each left to right
    adjacent: tuple[tuple[int, ...], ...]  # neighbour numbers of each number

    @property
    def size(self) -> int:
        return len(self.cells)


def _row_cells(r: int, n: int) -> list[Cell]:
    m = n - 1
    return [(q, r, -q - r) for q in range(max(-m, -m - r), min(m, m - r) + 1)]


@cache
def geometry(n: int) -> Geometry:
    """The board of n cells per side (n ≥ 2)."""
    if n < 2 or n > 13:
        raise ValueError(f"no hexhex board of {n} per side here")
    m = n - 1
    cells: list[Cell] = []
    names: list[str] = []
    row_numbers: list[tuple[int, ...]] = []
    for letter_no, r in enumerate(range(m, -m - 1, -1)):  # bottom row (largest r) first
        row = _row_cells(r, n)
        row_numbers.append(tuple(range(len(cells), len(cells) + len(row))))
        for place, cell in enumerate(row, start=1):
            cells.append(cell)
            names.append(f"{LETTERS[letter_no]}{place}")
    index = {cell: i for i, cell in enumerate(cells)}
    adjacent = tuple(
        tuple(
            index[(q + dq, r + dr, s + ds)]
            for dq, dr, ds in DIRECTIONS
            if (q + dq, r + dr, s + ds) in index
        )
        for q, r, s in cells
    )
    return Geometry(
        n=n,
        cells=tuple(cells),
        index=index,
        names=tuple(names),
        by_name={name: i for i, name in enumerate(names)},
        rows=tuple(row_numbers),
        adjacent=adjacent,
    )


def size(n: int) -> int:
    """How many cells a board of n per side has: 3n(n−1)+1."""
    return 3 * n * (n - 1) + 1


def cells(n: int) -> tuple[Cell, ...]:
    """Every cell of the board, in name order (row a first, place 1 first)."""
    return geometry(n).cells


def on_board(cell: Cell, n: int) -> bool:
    return cell in geometry(n).index


def cell_name(cell: Cell, n: int) -> str:
    """The cell's name, `a1` … (ValueError when it is not on the board)."""
    g = geometry(n)
    try:
        return g.names[g.index[cell]]
    except KeyError:
        raise ValueError(f"no cell {cell} on a board of {n}") from None


def parse_cell(text: str, n: int) -> Cell | None:
    """The cell a name like `g5` names (any case, spaces around or between); None if none."""
    match = _NAME.fullmatch(text.strip().lower())
    if match is None:
        return None
    g = geometry(n)
    number = g.by_name.get(f"{match.group(1)}{int(match.group(2))}")
    return None if number is None else g.cells[number]


def rows(n: int) -> list[list[Cell]]:
    """The rows, bottom (a) to top, each left to right."""
    g = geometry(n)
    return [[g.cells[i] for i in row] for row in g.rows]


def neighbours(cell: Cell, n: int) -> tuple[Cell, ...]:
    """The cells touching this one along an edge (2 to 6 of them)."""
    g = geometry(n)
    return tuple(g.cells[i] for i in g.adjacent[g.index[cell]])


def distance(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


# --- groups and scores, by numbers (fast) ---------------------------------------------------


def groups_of(board: list[int] | tuple[int, ...], colour: int, n: int) -> list[list[int]]:
    """The groups of `colour` on a board given as one colour per number (−1 empty)."""
    adjacent = geometry(n).adjacent
    seen = [False] * len(board)
    found: list[list[int]] = []
    for start, stone in enumerate(board):
        if stone != colour or seen[start]:
            continue
        seen[start] = True
        group = [start]
        k = 0
        while k < len(group):
            for other in adjacent[group[k]]:
                if not seen[other] and board[other] == colour:
                    seen[other] = True
                    group.append(other)
            k += 1
        found.append(group)
    return found


def sizes_of(board: list[int] | tuple[int, ...], colour: int, n: int) -> list[int]:
    """The sizes of `colour`'s groups."""
    return [len(group) for group in groups_of(board, colour, n)]


def score_of_sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    """The score list (chunks, groups of 1, groups of 2, …) of these group sizes."""
    listed = list(sizes)
    if not listed:
        return (0,)
    counts = [0] * (max(listed) + 1)
    for length in listed:
        counts[length] += 1
    chunks = sum(1 for length in listed if length >= 2)
    return (chunks, *counts[1:])


def chunk_count(board: list[int] | tuple[int, ...], colour: int, n: int) -> int:
    """How many groups of two or more stones `colour` has."""
    return sum(1 for length in sizes_of(board, colour, n) if length >= 2)


def as_numbers(stones: Mapping[Cell, int], n: int) -> list[int]:
    """One colour per number (−1 for an empty cell)."""
    g = geometry(n)
    board = [-1] * g.size
    for cell, colour in stones.items():
        board[g.index[cell]] = colour
    return board


# --- the same, by cells -----------------------------------------------------------------------


def groups(stones: Mapping[Cell, int], colour: int, n: int) -> list[frozenset[Cell]]:
    """The groups (edge-connected stones) of `colour`, in name order of their first cell."""
    g = geometry(n)
    return [
        frozenset(g.cells[i] for i in group)
        for group in groups_of(as_numbers(stones, n), colour, n)
    ]


def chunks(stones: Mapping[Cell, int], colour: int, n: int) -> int:
    """How many chunks (groups of two or more) `colour` has."""
    return chunk_count(as_numbers(stones, n), colour, n)


def crumbs(stones: Mapping[Cell, int], colour: int, n: int) -> int:
    """How many single stones `colour` has."""
    return sum(1 for length in sizes_of(as_numbers(stones, n), colour, n) if length == 1)


def score(stones: Mapping[Cell, int], colour: int, n: int) -> tuple[int, ...]:
    """The score list of SPEC 11.5: (chunks, groups of 1, groups of 2, groups of 3, …) of
    `colour`, without trailing zeros past the largest group; compared left to right (padded
    with zeros, `compare_key`), the smallest wins."""
    return score_of_sizes(sizes_of(as_numbers(stones, n), colour, n))


def compare_key(score_list: tuple[int, ...], length: int) -> tuple[int, ...]:
    """A score list padded with zeros to `length`, so lists of any length compare as the SPEC
    says (a missing size counts as no group of that size)."""
    return score_list + (0,) * (length - len(score_list))


def start_stones(seats: int, first: int = 0) -> dict[Cell, int]:
    """The start of SPEC 11.5 for 2, 3 or 4 seats: cell → colour (a seat's index). Seat 1 of
    the SPEC is the one that plays first: `first` (0 unless drawn otherwise), then the seats
    after it in order take the SPEC's seats 2, 3, 4."""
    if seats not in STARTS:
        raise ValueError(f"Wunchunk is for 2 to 4 seats, not {seats}")
    chunks = STARTS[seats]
    return {cell: colour for colour in range(seats) for cell in chunks[(colour - first) % seats]}
