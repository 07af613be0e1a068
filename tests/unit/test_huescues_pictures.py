"""Hues and Cues' pictures read on a phone (SPEC 13): shown 390 px wide, their labels and cone
numbers are at least 11 px high; the board, which cannot be, comes with its phone view below
it, the region of its cones and frame drawn large. Heights are measured on the ink drawn."""

from __future__ import annotations

import io

from PIL import Image

from engine.games.huescues import board
from tests.ink import ink_runs
from tgbot import pictures
from tgbot.games.huescues import picture_parts as parts
from tgbot.games.huescues import pictures as hp
from tgbot.games.huescues.picture_parts import Cone
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture

P = board.parse
REVEAL = HuesBoardPicture(
    cones=[Cone(cell=P("D16"), seat=2), Cone(cell=P("D17"), seat=3), Cone(cell=P("E15"), seat=4),
           Cone(cell=P("C16"), seat=2, second=True), Cone(cell=P("D17"), seat=4, second=True),
           Cone(cell=P("F18"), seat=10)],
    frame=P("D17"),
)  # fmt: skip


def drawn(picture: pictures.Picture) -> Image.Image:
    return Image.open(io.BytesIO(pictures.render(picture, "en"))).convert("RGB")


def at_phone(height: int, image: Image.Image) -> float:
    """How many pixels high `height` pixels of the picture are once it is 390 px wide."""
    return height * parts.PHONE / image.width


def number_height(seat: int, second: bool, radius: int) -> int:
    """The height of the number's ink inside one cone (dark on white, or white on dark)."""
    disc = parts.cone_image(seat, second, radius).convert("RGBA")
    inner = radius - max(2, round(radius / 6)) - 3
    rows = []
    for y in range(disc.height):
        for x in range(disc.width):
            if (x - radius + 0.5) ** 2 + (y - radius + 0.5) ** 2 > inner**2:
                continue
            red, green, blue, _ = disc.getpixel((x, y))
            light = (red + green + blue) / 3
            if (light > 150) if second else (light < 100):
                rows.append(y)
                break
    return max(rows) - min(rows) + 1


def test_the_board_with_cones_comes_with_a_phone_view_legible_at_390_px():
    image = drawn(REVEAL)
    assert image.width >= 1280 and image.height > hp.BOARD_HEIGHT + hp.PHONE_HEIGHT
    first_row, first_column = hp.phone_window(REVEAL) or (-1, -1)
    assert (first_row, first_column) == (board.ROWS.index("B"), 12)  # B13..F20: all six cones
    top = hp.BOARD_HEIGHT + hp.PHONE_GAP + hp.PHONE_TOP
    numbers = ink_runs(image, (hp.PHONE_LEFT, hp.BOARD_HEIGHT + hp.PHONE_GAP, image.width, top - 4),
                       horizontal=True)  # fmt: skip
    letters = ink_runs(image, (0, top, hp.PHONE_LEFT - 4, top + hp.PHONE_ROWS * hp.PHONE_CELL),
                       horizontal=False)  # fmt: skip
    assert len(letters) == hp.PHONE_ROWS
    for height in [*numbers, *letters]:
        assert at_phone(height, image) >= 11, height
    # Each cell in its place, large; the frame around D17 drawn there too.
    size, left = hp.PHONE_CELL, hp.PHONE_LEFT
    cell = board.at(first_row + 4, first_column + 1)  # F14: no cone there
    spot = (left + size + size // 2, top + 4 * size + size // 2)
    assert image.getpixel(spot) == board.colour(cell)
    frame_left = left + (board.column_of(P("D17")) - 1 - first_column) * size
    assert image.getpixel((frame_left + 2, top + 2 * size)) == parts.WHITE
    # Its cones' numbers, however many share a cell, are as legible.
    least = parts.legible_radius(image.width)
    for count in range(1, 11):
        radius, _ = parts.spots(count, size, least)
        for seat, second in ((1, False), (10, False), (8, True), (10, True)):
            assert at_phone(number_height(seat, second, radius), image) >= 11, (count, seat)


def test_the_whole_boards_labels_are_larger_and_a_plain_board_has_no_phone_view():
    plain = drawn(HuesBoardPicture())
    assert plain.size == (hp.BOARD_WIDTH, hp.BOARD_HEIGHT) and hp.phone_window(
        HuesBoardPicture()) is None  # fmt: skip
    numbers = ink_runs(plain, (hp.MARGIN, 0, plain.width - hp.MARGIN, hp.MARGIN - 4), True)
    assert at_phone(numbers[0], plain) >= 5.5  # 4 px before; the phone view carries the rest


def test_the_close_up_and_the_card_are_legible_at_390_px():
    closeup = drawn(HuesCloseupPicture(cell=P("H3"), cones=[Cone(cell=P("I4"), seat=10)]))
    margin, side = hp.ZOOM_MARGIN, closeup.width
    labels = [
        *ink_runs(closeup, (margin, 0, side - margin, margin - 4), horizontal=True),
        *ink_runs(closeup, (0, margin, margin - 4, side - margin), horizontal=False),
    ]
    for height in labels:
        assert at_phone(height, closeup) >= 11, height
    least = parts.legible_radius(side)
    for count in range(1, 11):
        radius, _ = parts.spots(count, hp.ZOOM, least)
        assert at_phone(number_height(10, False, radius), closeup) >= 11, count
    card = drawn(HuesCardPicture(cells=[5, 129, 250, 479]))
    names = ink_runs(card, (0, hp.GAP + hp.SWATCH + 4, card.width, card.height), horizontal=True)
    assert at_phone(names[0], card) >= 11
    assert at_phone(number_height(4, False, max(30, parts.legible_radius(card.width))), card) >= 11


def test_the_phone_view_keeps_the_frame_and_centres_on_what_matters():
    far_apart = HuesBoardPicture(cones=[Cone(cell=P("A1"), seat=1), Cone(cell=P("P30"), seat=2),
                                        Cone(cell=P("O29"), seat=3)], frame=P("H15"))  # fmt: skip
    row, column = hp.phone_window(far_apart) or (-1, -1)
    assert row <= board.row_of(P("H15")) - 1 and board.row_of(P("H15")) + 1 < row + hp.PHONE_ROWS
    assert column <= 13 and column + hp.PHONE_COLUMNS > 15
    cluster = HuesBoardPicture(cones=[Cone(cell=P("O29"), seat=1), Cone(cell=P("P30"), seat=2),
                                      Cone(cell=P("A1"), seat=3)])  # fmt: skip
    assert hp.phone_window(cluster) == (16 - hp.PHONE_ROWS, 30 - hp.PHONE_COLUMNS)
    crowd = HuesBoardPicture(cones=[Cone(cell=P("P30"), seat=s) for s in range(1, 10)])
    image = drawn(crowd)  # nine cones on a corner cell stay within the picture's cells
    right = hp.PHONE_LEFT + hp.PHONE_COLUMNS * hp.PHONE_CELL
    bottom = hp.BOARD_HEIGHT + hp.PHONE_GAP + hp.PHONE_TOP + hp.PHONE_ROWS * hp.PHONE_CELL
    for x in range(right + 4, image.width):
        for y in range(bottom - 3 * hp.PHONE_CELL, bottom):
            assert image.getpixel((x, y)) == parts.BACKGROUND, (x, y)
    assert image.getpixel((right - 10, bottom + 4)) == parts.BACKGROUND
