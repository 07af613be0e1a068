"""Hues and Cues' board: names, tolerant parsing, distance, frames, and the fixed colours."""

from __future__ import annotations

import hashlib

import pytest

from engine.games.huescues import board


def test_the_board_has_480_cells_in_16_rows_and_30_columns():
    assert board.CELLS == 480 and len(board.ROWS) == 16 and board.COLUMNS == 30
    assert board.name(0) == "A1" and board.name(29) == "A30" and board.name(479) == "P30"
    assert board.name(board.at(7, 14)) == "H15"
    assert [board.parse(board.name(cell)) for cell in range(480)] == list(range(480))


@pytest.mark.parametrize(
    "text", ["H15", "h15", "15H", "15h", " h 15 ", "H-15", "h.15", "Н15", "н15", "15Н", "Ｈ１５"]
)
def test_a_cell_is_typed_in_many_forms(text):
    assert board.parse(text) == board.at(7, 14)


@pytest.mark.parametrize("text", ["", "H", "15", "H0", "H31", "Q15", "H155", "HH15", "1H5", "X"])
def test_text_that_names_no_cell_is_none(text):
    assert board.parse(text) is None


def test_cyrillic_look_alikes_of_every_row_letter_that_has_one():
    pairs = {"А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "К": "K", "М": "M", "О": "O",
             "Р": "P"}  # fmt: skip
    for cyrillic, latin in pairs.items():
        assert board.parse(f"{cyrillic}3") == board.parse(f"{latin}3") is not None


def test_distance_is_chebyshev_and_does_not_wrap():
    h15 = board.at(7, 14)
    assert board.distance(h15, h15) == 0
    assert board.distance(h15, board.at(8, 15)) == 1
    assert board.distance(h15, board.at(9, 13)) == 2
    assert board.distance(board.at(0, 0), board.at(0, 29)) == 29


def test_frames_are_clipped_at_edges_and_corners():
    assert len(board.around(board.at(7, 14), 1)) == 9
    assert len(board.around(board.at(0, 14), 1)) == 6
    assert len(board.around(board.at(15, 0), 1)) == 4
    assert board.around(board.at(0, 0), 1) == [0, 1, 30, 31]
    assert len(board.around(board.at(0, 0), 2)) == 9


def test_the_colours_are_the_fixed_formula():
    colours = board.colours()
    assert len(colours) == 480 and len(set(colours)) > 470
    digest = hashlib.sha256(bytes(c for rgb in colours for c in rgb)).hexdigest()
    assert digest == "1b45712eb0a8157cf301f4fb3acc442ac4189bbf3f38fab27709747e8e6f4451"
    assert board.colour(0) == (244, 215, 215) and board.colour(479) == (71, 10, 22)
    light = sum(board.colour(board.at(0, c))[1] for c in range(30))
    dark = sum(board.colour(board.at(15, c))[1] for c in range(30))
    assert light > dark, "rows go from pale to dark"
