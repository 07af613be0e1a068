"""Wunchunk's board picture read on a phone (SPEC 11.5, 13): shown 390 px wide, its row labels,
place numbers and stone numbers are at least 11 px high on every board size; each stone is
drawn on its cell in its seat's colour, the last turn's ringed, a pending one pale. Heights are
measured on the ink drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.games.wunchunk import board
from tgbot import pictures
from tgbot.games.wunchunk import pictures as wp
from tgbot.games.wunchunk.pictures import Layout, Stone, WunchunkBoardPicture

PHONE, LEGIBLE = 390, 11


def drawn(picture: WunchunkBoardPicture) -> Image.Image:
    return Image.open(io.BytesIO(pictures.render(picture, "en"))).convert("RGB")


def ink_height(image: Image.Image, box: tuple[float, float, float, float],
               inked) -> int:  # fmt: skip
    """How many pixel rows of `box` hold a pixel that `inked` says is ink (first to last)."""
    left, top, right, bottom = (round(v) for v in box)
    rows = [y for y in range(top, bottom)
            if any(inked(image.getpixel((x, y))) for x in range(left, right))]  # fmt: skip
    assert rows, f"no ink in {box}"
    return rows[-1] - rows[0] + 1


def at_phone(height: int, image: Image.Image) -> float:
    return height * PHONE / image.width


def dark(pixel: tuple[int, int, int]) -> bool:
    return sum(pixel) < 3 * 110


def near(colour: tuple[int, int, int], tolerance: int = 40):
    return lambda pixel: sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < tolerance


@pytest.mark.parametrize("n", board.SIZES)
def test_every_label_and_place_number_is_legible_on_a_phone(n: int) -> None:
    image = drawn(WunchunkBoardPicture(size=n))
    layout = Layout(n)
    assert image.width == wp.PICTURE_WIDTH and image.height == layout.height
    rows = board.rows(n)
    assert len(rows) == 2 * n - 1
    for row in rows:
        for end, side in ((row[0], -1), (row[-1], 1)):
            x, y = layout.centre(end)
            edge = x + side * layout.width / 2
            box = (0, y - layout.radius / 2, edge, y + layout.radius / 2) if side < 0 else (
                edge, y - layout.radius / 2, image.width, y + layout.radius / 2)  # fmt: skip
            assert at_phone(ink_height(image, box, dark), image) >= LEGIBLE, (n, end)
        x, y = layout.centre(row[len(row) // 2])
        inner = (x - layout.width * 0.45, y - layout.radius * 0.6,
                 x + layout.width * 0.45, y + layout.radius * 0.6)  # fmt: skip
        height = ink_height(image, inner, near(wp.FAINT, 60))
        assert at_phone(height, image) >= LEGIBLE, (n, "place number")


@pytest.mark.parametrize("n", [5, 8])
def test_stones_sit_on_their_cells_in_their_colours_with_legible_numbers(n: int) -> None:
    cells = board.cells(n)
    stones = [Stone(cell=cells[0], colour=0), Stone(cell=cells[1], colour=1, mark="last"),
              Stone(cell=cells[-1], colour=3, mark="pending"),
              Stone(cell=cells[len(cells) // 2], colour=2)]  # fmt: skip
    image = drawn(WunchunkBoardPicture(size=n, stones=stones))
    layout = Layout(n)
    for stone in stones:
        x, y = layout.centre(stone.cell)
        # left of the number, inside the disc: the stone's own colour, or pale when pending
        spot = image.getpixel((round(x - layout.width * 0.3), round(y)))
        colour = wp.COLOURS[stone.colour]
        if stone.mark == "pending":
            assert sum(spot) > sum(colour) + 100, "a pending stone is pale"
        else:
            assert near(colour)(spot), (stone, spot)
        disc = (x - layout.width * 0.25, y - layout.radius * 0.6,
                x + layout.width * 0.25, y + layout.radius * 0.6)  # fmt: skip
        ink = (near(wp.WHITE, 120) if wp.NUMBER_INK[stone.colour] == wp.WHITE
               and stone.mark != "pending" else dark)  # fmt: skip
        assert at_phone(ink_height(image, disc, ink), image) >= LEGIBLE, stone
    # The last turn's stone is ringed in ink at its cell's edge; the others are not.
    for stone in stones[:2]:
        x, y = layout.centre(stone.cell)
        edge = image.getpixel((round(x), round(y - layout.radius + 6)))
        assert dark(edge) == (stone.mark == "last"), stone


def test_a_board_drawn_twice_is_the_same_picture_and_an_empty_one_is_not_changed() -> None:
    picture = WunchunkBoardPicture(size=6, stones=[Stone(cell=(0, 0, 0), colour=1)])
    assert pictures.render(picture, "en") == pictures.render(picture, "ru")  # names, no words
    plain = wp.plain_board(6).tobytes()
    drawn(picture)
    assert wp.plain_board(6).tobytes() == plain, "the cached empty board is copied, not drawn on"
