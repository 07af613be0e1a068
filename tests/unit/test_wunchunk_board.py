"""Wunchunk's board (SPEC 11.5): cells, AbstractPlay's names, neighbours, groups, score lists,
the start chunks on every size."""

from __future__ import annotations

import pytest

from engine.games.wunchunk import board
from engine.games.wunchunk.board import (
    cell_name,
    cells,
    chunks,
    crumbs,
    groups,
    neighbours,
    parse_cell,
    rows,
    score,
    start_stones,
)

SIZES = (5, 6, 7, 8)


def _hextri_names(n: int) -> tuple[list[str], set[frozenset[str]]]:
    """AbstractPlay's `HexTriGraph(n, 2n−1)` (src/common/graphs/hextri.ts), transcribed: its
    cells row by row from the top, named by `coords2algebraic`, and its edges."""
    minwidth, maxwidth = n, 2 * n - 1
    height = (maxwidth - minwidth) * 2 + 1
    midrow, delta = height // 2, maxwidth - minwidth

    def width(row: int) -> int:
        return minwidth + (midrow - abs(delta - row))

    def name(x: int, y: int) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[height - y - 1] + str(x + 1)

    names = [name(col, row) for row in range(height) for col in range(width(row))]
    edges: set[frozenset[str]] = set()
    for row in range(height):
        for col in range(width(row)):
            here = name(col, row)
            if col > 0:
                edges.add(frozenset({here, name(col - 1, row)}))
            if row > 0:
                if col < width(row - 1):
                    edges.add(frozenset({here, name(col, row - 1)}))
                if row <= midrow and col > 0:
                    edges.add(frozenset({here, name(col - 1, row - 1)}))
                if row > midrow:
                    edges.add(frozenset({here, name(col + 1, row - 1)}))
    return names, edges


@pytest.mark.parametrize("n", SIZES)
def test_a_board_has_3n_n_minus_1_plus_1_cells_in_rows_from_the_bottom(n: int) -> None:
    all_cells = cells(n)
    assert len(all_cells) == 3 * n * (n - 1) + 1 == len(set(all_cells)) == board.size(n)
    assert all(q + r + s == 0 and board.distance(c, (0, 0, 0)) < n for c in all_cells
               for q, r, s in [c])  # fmt: skip
    listed = rows(n)
    assert [len(row) for row in listed] == [*range(n, 2 * n), *range(2 * n - 2, n - 1, -1)]
    assert [c for row in listed for c in row] == list(all_cells)  # name order
    assert all(len({c[1] for c in row}) == 1 for row in listed)  # a row is one r
    assert listed[0][0][1] == n - 1 and listed[-1][0][1] == -(n - 1)  # bottom row first
    assert all(row[i][0] < row[i + 1][0] for row in listed for i in range(len(row) - 1))


@pytest.mark.parametrize("n", SIZES)
def test_cell_names_round_trip_and_are_abstractplays(n: int) -> None:
    names = [cell_name(c, n) for c in cells(n)]
    theirs, edges = _hextri_names(n)
    assert set(names) == set(theirs) and len(names) == len(theirs)
    assert names[0] == "a1" and names[n - 1] == f"a{n}"
    for cell in cells(n):
        assert parse_cell(cell_name(cell, n), n) == cell
    ours = {frozenset({cell_name(c, n), cell_name(o, n)}) for c in cells(n)
            for o in neighbours(c, n)}  # fmt: skip
    assert ours == edges  # the same cells touch under the same names


def test_abstractplays_start_cells_are_the_specs_cube_coordinates() -> None:
    named = {n: {cell_name(c, n): k for c, k in start_stones(2).items()} for n in SIZES}
    assert named[6] == {"g5": 0, "g6": 0, "e5": 1, "e6": 1}
    assert named[5] == {"f4": 0, "f5": 0, "d4": 1, "d5": 1}
    assert named[7] == {"h6": 0, "h7": 0, "f6": 1, "f7": 1}
    assert named[8] == {"i7": 0, "i8": 0, "g7": 1, "g8": 1}
    three = {cell_name(c, 8): k for c, k in start_stones(3).items()}
    assert three == {"i7": 0, "h7": 0, "g7": 1, "g8": 1, "h9": 2, "i8": 2}
    four = {cell_name(c, 8): k for c, k in start_stones(4).items()}
    assert four == {"j8": 0, "i9": 0, "j6": 1, "i6": 1, "g6": 2, "f6": 2, "g9": 3, "f8": 3}


def test_parse_cell_is_tolerant_of_case_and_spaces_and_refuses_other_text() -> None:
    assert parse_cell(" G5 ", 6) == (0, -1, 1) == parse_cell("g 5", 6) == parse_cell("g05", 6)
    for text in ("", "g", "5", "z1", "a0", "a7", "k7", "l1", "g5g", "g-5", "55"):
        assert parse_cell(text, 6) is None, text
    assert parse_cell("a6", 5) is None and parse_cell("a6", 6) is not None
    assert parse_cell("o1", 8) is not None and parse_cell("p1", 8) is None
    with pytest.raises(ValueError):
        cell_name((9, -9, 0), 6)


@pytest.mark.parametrize("n", SIZES)
def test_neighbours_at_the_centre_edges_and_corners(n: int) -> None:
    m = n - 1
    assert len(neighbours((0, 0, 0), n)) == 6
    corners = [(m, -m, 0), (m, 0, -m), (0, m, -m), (-m, m, 0), (-m, 0, m), (0, -m, m)]
    for corner in corners:
        assert len(neighbours(corner, n)) == 3
    edge = (m, -1, 1 - m)  # between two corners on the right-hand side
    assert len(neighbours(edge, n)) == 4
    counts = sorted(len(neighbours(c, n)) for c in cells(n))
    assert counts.count(3) == 6 and counts.count(4) == 6 * (n - 2)
    assert counts.count(6) == 3 * (n - 1) * (n - 2) + 1
    for cell in cells(n):
        for other in neighbours(cell, n):
            assert cell in neighbours(other, n) and board.distance(cell, other) == 1
    a1 = parse_cell("a1", n)
    assert a1 is not None
    assert sorted(cell_name(c, n) for c in neighbours(a1, n)) == ["a2", "b1", "b2"]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("seats", (2, 3, 4))
def test_each_seat_starts_with_one_chunk_of_two_on_every_board(n: int, seats: int) -> None:
    stones = start_stones(seats)
    assert len(stones) == 2 * seats
    assert all(board.on_board(c, n) for c in stones)
    for colour in range(seats):
        mine = [c for c, k in stones.items() if k == colour]
        assert len(mine) == 2 and board.distance(*mine) == 1
        assert score(stones, colour, n) == (1, 0, 1)
    assert [c for c, k in start_stones(seats).items() if k == 0] == list(board.STARTS[seats][0])
    # the start is symmetric about the centre for two seats, a turn of it for three and four
    if seats == 2:
        assert {(-q, -r, -s) for q, r, s in board.STARTS[2][0]} == set(board.STARTS[2][1])


def test_the_first_seat_takes_seat_1s_start_and_the_others_follow_in_order() -> None:
    rotated = start_stones(3, first=2)
    assert {c for c, k in rotated.items() if k == 2} == set(board.STARTS[3][0])
    assert {c for c, k in rotated.items() if k == 0} == set(board.STARTS[3][1])
    assert {c for c, k in rotated.items() if k == 1} == set(board.STARTS[3][2])
    with pytest.raises(ValueError):
        start_stones(5)


def named(n: int, **colours: str) -> dict[board.Cell, int]:
    """A board from colour → cells (`c0="a1 a2"`)."""
    stones: dict[board.Cell, int] = {}
    for key, text in colours.items():
        for name in text.split():
            cell = parse_cell(name, n)
            assert cell is not None
            stones[cell] = int(key[1:])
    return stones


def test_groups_chunks_crumbs_and_score_lists() -> None:
    stones = named(5, c0="a1 a2 a3 c1 e5 e6 e7 e8 c5", c1="b1 b2 d3")
    assert sorted(len(g) for g in groups(stones, 0, 5)) == [1, 1, 3, 4]
    assert chunks(stones, 0, 5) == 2 and crumbs(stones, 0, 5) == 2
    assert score(stones, 0, 5) == (2, 2, 0, 1, 1)
    assert score(stones, 1, 5) == (1, 1, 1)  # b1–b2 touch, d3 alone
    assert score(stones, 2, 5) == (0,)  # no stone of that colour
    assert score(named(5, c0="a1 a3 a5"), 0, 5) == (0, 3)
    # another colour between two stones keeps them apart; a cell's six sides join
    assert score(named(5, c0="a1 a3", c1="a2"), 0, 5) == (0, 2)
    assert score(named(5, c0="a1 b2 a2"), 0, 5) == (1, 0, 0, 1)


def test_score_lists_compare_left_to_right_smallest_first() -> None:
    ranked = [(1, 0, 1), (1, 0, 2), (1, 1, 0, 1), (1, 2), (2, 0, 2), (2, 0, 1, 1)]
    # fewest chunks, then fewest crumbs, then fewest groups of two…
    assert sorted(ranked) == [(1, 0, 1), (1, 0, 2), (1, 1, 0, 1), (1, 2), (2, 0, 1, 1), (2, 0, 2)]
    assert board.score_of_sizes([2, 3]) < board.score_of_sizes([2, 2])
    assert board.compare_key((1, 0, 1), 5) == (1, 0, 1, 0, 0)


def test_the_board_is_computed_once_per_size() -> None:
    assert board.geometry(6) is board.geometry(6)
    assert board.geometry(8).size == 169 and board.geometry(5).size == 61
    with pytest.raises(ValueError):
        board.geometry(1)
