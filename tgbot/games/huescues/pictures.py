"""Hues and Cues' pictures (SPEC 11.3): the board with its cones and the chosen colour's frame,
a close-up of the board around one cell, and a card's four colours.

Readable on a phone (SPEC 13): a picture is legible at 390 px wide, its labels and numbers at
least 11 px high there. The whole board cannot be (30 columns in 390 px), so a board with cones
or a frame comes with its phone view below it, in the same picture: the region that matters
(the cones, the frame) drawn large, labelled, with the same cones. The close-up and the card are
drawn to be legible as they are.

Every colour is drawn exactly as `engine.games.huescues.board.colour` gives it, and the pictures
are sent in full colour (never reduced to a palette: 480 colours do not fit in 256). The plain
board is drawn once per process and copied for each picture. The cells, grid, labels and cones
they are drawn from are in `huescues_parts`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import ClassVar, Literal

from PIL import Image, ImageDraw

from engine.games.huescues import board
from tgbot.games.huescues.picture_parts import (
    BACKGROUND,
    HEAVY,
    INK,
    LINE,
    Cone,
    box_of,
    cone_image,
    draw_cones,
    grid,
    labels,
    legible_radius,
    outline,
    paint,
)
from tgbot.pictures.draw import text_font
from tgbot.pictures.model import Picture


class HuesBoardPicture(Picture):
    """Hues and Cues' whole board, with the cones placed and the chosen colour's frame."""

    kind: Literal["hues_board"] = "hues_board"
    cones: list[Cone] = []
    frame: int | None = None
    """The chosen colour: its 3x3 frame is drawn (clipped at the board's edges)."""

    full_colour: ClassVar[bool] = True  # its colours must stay exact

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_board(self)


class HuesCloseupPicture(Picture):
    """A labelled 5x5 close-up of Hues and Cues' board around one cell."""

    kind: Literal["hues_closeup"] = "hues_closeup"
    cell: int
    """The chosen cell, highlighted."""
    cones: list[Cone] = []
    """Cones already visible there (the first cones, in the second guess)."""

    full_colour: ClassVar[bool] = True  # its colours must stay exact

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_closeup(self)


class HuesCardPicture(Picture):
    """A Hues and Cues card: its four colours, numbered 1-4, each with its cell name."""

    kind: Literal["hues_card"] = "hues_card"
    cells: list[int]

    full_colour: ClassVar[bool] = True  # its colours must stay exact

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_card(self)


CELL = 44  # the board's cells, in pixels
MARGIN = 48  # room for the labels around the board
LABEL = 28  # the board's labels (as large as "30" fits a column)
BOARD_WIDTH = 2 * MARGIN + board.COLUMNS * CELL  # 1416
BOARD_HEIGHT = 2 * MARGIN + len(board.ROWS) * CELL  # 800

PHONE_COLUMNS, PHONE_ROWS = 8, 5  # the phone view's window of the board
PHONE_LABEL = 58  # its labels: at least LEGIBLE px high once the picture is PHONE px wide
PHONE_TOP, PHONE_LEFT, PHONE_PAD = 76, 84, 16  # its margins: labels above and to the left
PHONE_CELL = (BOARD_WIDTH - PHONE_LEFT - PHONE_PAD) // PHONE_COLUMNS  # 164
PHONE_GAP = 28  # between the board and its phone view, a rule across its middle
PHONE_HEIGHT = PHONE_TOP + PHONE_ROWS * PHONE_CELL + PHONE_PAD

ZOOM = 120  # the close-up's cells
REACH = 2  # the close-up shows 5 x 5 cells
ZOOM_MARGIN = 60
ZOOM_LABEL = 34

SWATCH = 220  # the card's colours
GAP = 24
CARD_LABEL = 44


@lru_cache(maxsize=1)
def plain_board() -> Image.Image:
    """The board without cones: every colour, the grid, the labels on all four edges. Drawn
    once; copy it before drawing on it."""
    image = Image.new("RGB", (BOARD_WIDTH, BOARD_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for cell in range(board.CELLS):
        x = MARGIN + board.column_of(cell) * CELL
        y = MARGIN + board.row_of(cell) * CELL
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=board.colour(cell))
    rows, columns = len(board.ROWS), board.COLUMNS
    grid(draw, MARGIN, MARGIN, CELL, 0, 0, rows, columns, thin=1, heavy=3)
    labels(draw, MARGIN, MARGIN, CELL, 0, 0, rows, columns, MARGIN, LABEL)
    return image


def frame_box(cell: int) -> tuple[int, int, int, int]:
    """The board picture's pixels (left, top, right, bottom; right and bottom excluded) of
    the 3 x 3 frame around a cell, clipped at the board's edges."""
    cells = board.around(cell, 1)
    rows = [board.row_of(c) for c in cells]
    columns = [board.column_of(c) for c in cells]
    return (MARGIN + min(columns) * CELL, MARGIN + min(rows) * CELL,
            MARGIN + (max(columns) + 1) * CELL, MARGIN + (max(rows) + 1) * CELL)  # fmt: skip


def draw_board(picture: HuesBoardPicture) -> Image.Image:
    """The board with its cones and the frame around the chosen colour, and below it, when
    there are any, their phone view (RGB)."""
    image = plain_board().copy()
    if picture.frame is not None:
        outline(ImageDraw.Draw(image), frame_box(picture.frame), dark=4, light=3)
    corner = {
        cell: (MARGIN + board.column_of(cell) * CELL, MARGIN + board.row_of(cell) * CELL)
        for cell in range(board.CELLS)
    }
    draw_cones(image, picture.cones, corner, CELL)
    place = phone_window(picture)
    if place is None:
        return image
    whole = Image.new("RGB", (BOARD_WIDTH, BOARD_HEIGHT + PHONE_GAP + PHONE_HEIGHT), BACKGROUND)
    whole.paste(image, (0, 0))
    draw = ImageDraw.Draw(whole)
    rule = BOARD_HEIGHT + PHONE_GAP // 2
    draw.rectangle((MARGIN, rule - 1, BOARD_WIDTH - MARGIN - 1, rule), fill=LINE)
    top = BOARD_HEIGHT + PHONE_GAP + PHONE_TOP
    first_row, first_column = place
    corner = paint(draw, PHONE_LEFT, top, PHONE_CELL, place, (PHONE_ROWS, PHONE_COLUMNS))
    grid(draw, PHONE_LEFT, top, PHONE_CELL, first_row, first_column, PHONE_ROWS, PHONE_COLUMNS,
         thin=2, heavy=6)  # fmt: skip
    labels(draw, PHONE_LEFT, top, PHONE_CELL, first_row, first_column, PHONE_ROWS,
           PHONE_COLUMNS, PHONE_LEFT, PHONE_LABEL, all_edges=False)  # fmt: skip
    if picture.frame is not None:
        outline(draw, box_of(corner, board.around(picture.frame, 1), PHONE_CELL), dark=7, light=6)
    draw_cones(whole, picture.cones, corner, PHONE_CELL, legible_radius(whole.width))
    return whole


def phone_window(picture: HuesBoardPicture) -> tuple[int, int] | None:
    """The first row and column of the board's region its phone view draws large, or None
    when nothing on the board is more than the board (no cone, no frame): PHONE_ROWS x
    PHONE_COLUMNS cells holding the whole frame and as many cones as can be, centred on them
    as far as the board allows."""
    cells = [cone.cell for cone in picture.cones]
    needed = board.around(picture.frame, 1) if picture.frame is not None else []
    matter = cells + needed
    if not matter:
        return None
    rows = [board.row_of(c) for c in matter]
    columns = [board.column_of(c) for c in matter]
    middle = ((min(rows) + max(rows) + 1) / 2, (min(columns) + max(columns) + 1) / 2)

    def worth(place: tuple[int, int]) -> tuple[bool, int, float]:
        row, column = place

        def inside(cell: int) -> bool:
            return (row <= board.row_of(cell) < row + PHONE_ROWS
                    and column <= board.column_of(cell) < column + PHONE_COLUMNS)  # fmt: skip

        off = math.dist((row + PHONE_ROWS / 2, column + PHONE_COLUMNS / 2), middle)
        return all(inside(c) for c in needed), sum(inside(c) for c in cells), -off

    places = [(row, column) for row in range(len(board.ROWS) - PHONE_ROWS + 1)
              for column in range(board.COLUMNS - PHONE_COLUMNS + 1)]  # fmt: skip
    return max(places, key=worth)


def window(cell: int) -> tuple[int, int]:
    """The close-up's first row and column: 5 x 5 cells around `cell`, shifted to stay on the
    board at its edges."""
    row = min(max(board.row_of(cell) - REACH, 0), len(board.ROWS) - 2 * REACH - 1)
    column = min(max(board.column_of(cell) - REACH, 0), board.COLUMNS - 2 * REACH - 1)
    return row, column


def draw_closeup(picture: HuesCloseupPicture) -> Image.Image:
    """5 x 5 cells of the board around the chosen one, large, labelled, the chosen cell
    outlined, the cones there drawn (RGB)."""
    span = 2 * REACH + 1
    side = 2 * ZOOM_MARGIN + span * ZOOM
    image = Image.new("RGB", (side, side), BACKGROUND)
    draw = ImageDraw.Draw(image)
    first_row, first_column = window(picture.cell)
    corner = paint(draw, ZOOM_MARGIN, ZOOM_MARGIN, ZOOM, (first_row, first_column), (span, span))
    grid(draw, ZOOM_MARGIN, ZOOM_MARGIN, ZOOM, first_row, first_column, span, span,
         thin=2, heavy=5)  # fmt: skip
    labels(draw, ZOOM_MARGIN, ZOOM_MARGIN, ZOOM, first_row, first_column, span, span,
           ZOOM_MARGIN, ZOOM_LABEL)  # fmt: skip
    x, y = corner[picture.cell]
    outline(draw, (x, y, x + ZOOM, y + ZOOM), dark=6, light=5)
    draw_cones(image, picture.cones, corner, ZOOM, legible_radius(side))
    return image


def draw_card(picture: HuesCardPicture) -> Image.Image:
    """The card's colours as large swatches, numbered from 1, each with its cell name (RGB)."""
    count = max(1, len(picture.cells))
    label = CARD_LABEL + 20
    image = Image.new("RGB", (GAP + count * (SWATCH + GAP), 2 * GAP + SWATCH + label),
                      BACKGROUND)  # fmt: skip
    draw = ImageDraw.Draw(image)
    font = text_font(CARD_LABEL, bold=True)
    radius = max(30, legible_radius(image.width))
    for index, cell in enumerate(picture.cells):
        left = GAP + index * (SWATCH + GAP)
        draw.rounded_rectangle((left, GAP, left + SWATCH - 1, GAP + SWATCH - 1), radius=18,
                               fill=board.colour(cell), outline=HEAVY, width=3)  # fmt: skip
        disc = cone_image(index + 1, False, radius)
        image.paste(disc, (left + 14, GAP + 14), disc)
        draw.text((left + SWATCH // 2, GAP + SWATCH + label // 2 + 4), board.name(cell),
                  font=font, fill=INK, anchor="mm")  # fmt: skip
    return image
