"""Hues and Cues' pictures (SPEC 11.3): the board with its cones and the chosen colour's frame,
a close-up of the board around one cell, and a card's four colours.

Every colour is drawn exactly as `engine.games.huescues.board.colour` gives it, and the pictures
are sent in full colour (never reduced to a palette: 480 colours do not fit in 256). The plain
board is drawn once per process and copied for each picture.

A cone is a disc carrying its seat number, legible on any colour: a first cone is white with a
dark outline and a dark number; a second cone (placed after the second cue) is dark with a
white ring and a white number. Several cones on one cell are set side by side, smaller.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.games.huescues import board
from tgbot.pictures.draw import Color, text_font
from tgbot.pictures.model import Cone, HuesBoardPicture, HuesCardPicture, HuesCloseupPicture

BACKGROUND: Color = (243, 240, 232)
INK: Color = (34, 34, 40)
LINE: Color = (96, 96, 100)
HEAVY: Color = (24, 24, 28)
WHITE: Color = (255, 255, 255)
DARK: Color = (20, 20, 24)

CELL = 44  # the board's cells, in pixels
MARGIN = 40  # room for the labels around the board
BOARD_WIDTH = 2 * MARGIN + board.COLUMNS * CELL  # 1400
BOARD_HEIGHT = 2 * MARGIN + len(board.ROWS) * CELL  # 784

ZOOM = 120  # the close-up's cells
REACH = 2  # the close-up shows 5 x 5 cells
ZOOM_MARGIN = 56

SWATCH = 220  # the card's colours
GAP = 24
SUPERSAMPLE = 4  # cones are drawn this many times larger, then reduced (smooth edges)


def _lines(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, first_row: int,
           first_column: int, rows: int, columns: int, thin: int, heavy: int) -> None:  # fmt: skip
    """The grid over `rows` x `columns` cells of `size` pixels from (left, top): a thin line
    between cells, a heavy one every 5 rows and columns of the board and around it."""
    right, bottom = left + columns * size, top + rows * size
    for index in range(columns + 1):
        x = left + index * size
        is_heavy = (first_column + index) % 5 == 0 or index in (0, columns)
        width = heavy if is_heavy else thin
        draw.rectangle((x - width // 2, top, x + (width - 1) // 2, bottom),
                       fill=HEAVY if is_heavy else LINE)  # fmt: skip
    for index in range(rows + 1):
        y = top + index * size
        is_heavy = (first_row + index) % 5 == 0 or index in (0, rows)
        width = heavy if is_heavy else thin
        draw.rectangle((left, y - width // 2, right, y + (width - 1) // 2),
                       fill=HEAVY if is_heavy else LINE)  # fmt: skip


def _labels(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, first_row: int,
            first_column: int, rows: int, columns: int, margin: int,
            font_size: int) -> None:  # fmt: skip
    """Column numbers above and below, row letters left and right."""
    font = text_font(font_size, bold=True)
    right, bottom = left + columns * size, top + rows * size
    for index in range(columns):
        x = left + index * size + size // 2
        label = str(first_column + index + 1)
        draw.text((x, top - margin // 2), label, font=font, fill=INK, anchor="mm")
        draw.text((x, bottom + margin // 2), label, font=font, fill=INK, anchor="mm")
    for index in range(rows):
        y = top + index * size + size // 2
        label = board.ROWS[first_row + index]
        draw.text((left - margin // 2, y), label, font=font, fill=INK, anchor="mm")
        draw.text((right + margin // 2, y), label, font=font, fill=INK, anchor="mm")


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
    _lines(draw, MARGIN, MARGIN, CELL, 0, 0, rows, columns, thin=1, heavy=3)
    _labels(draw, MARGIN, MARGIN, CELL, 0, 0, rows, columns, MARGIN, 20)
    return image


@lru_cache(maxsize=256)
def cone_image(seat: int, second: bool, radius: int) -> Image.Image:
    """One cone: a disc of `radius` pixels carrying the seat number (RGBA, smooth edges)."""
    scale = SUPERSAMPLE
    big = 2 * radius * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(2, round(radius / 6)) * scale
    if second:  # dark disc, white ring, a thin dark rim so the ring shows on pale colours too
        draw.ellipse((0, 0, big - 1, big - 1), fill=DARK)
        draw.ellipse((scale, scale, big - 1 - scale, big - 1 - scale), fill=WHITE)
        inner = scale + edge
        draw.ellipse((inner, inner, big - 1 - inner, big - 1 - inner), fill=DARK)
        ink = WHITE
    else:  # white disc, dark outline
        draw.ellipse((0, 0, big - 1, big - 1), fill=DARK)
        draw.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=WHITE)
        ink = DARK
    label = str(seat)
    size = round(radius * (1.15 if len(label) == 1 else 0.95)) * scale
    draw.text((big / 2, big / 2), label, font=text_font(size, bold=True), fill=ink, anchor="mm")
    return image.resize((2 * radius, 2 * radius), Image.Resampling.LANCZOS)


def spots(count: int, size: int) -> tuple[int, list[tuple[int, int]]]:
    """Where `count` cones go on a cell `size` pixels wide: their radius and their centres'
    offsets from the cell's top-left corner. One is centred; more are set in a small grid,
    smaller, spilling a little over the neighbours when there are many."""
    if count <= 1:
        return round(size * 0.36), [(size // 2, size // 2)]
    per_row = 2 if count <= 4 else math.ceil(math.sqrt(count))
    lines = math.ceil(count / per_row)
    step = size * {2: 0.5, 3: 0.42}.get(per_row, 0.36)
    radius = round(size * {2: 0.27, 3: 0.23}.get(per_row, 0.2))
    out = []
    for index in range(count):
        line, place = divmod(index, per_row)
        in_line = min(per_row, count - line * per_row)
        x = size / 2 + (place - (in_line - 1) / 2) * step
        y = size / 2 + (line - (lines - 1) / 2) * step
        out.append((round(x), round(y)))
    return radius, out


def _cones(image: Image.Image, cones: list[Cone], corner: dict[int, tuple[int, int]],
           size: int) -> None:  # fmt: skip
    """Draw the cones that fall on cells in `corner` (a cell's top-left pixel), first cones
    before second ones, in seat order."""
    by_cell: dict[int, list[Cone]] = defaultdict(list)
    for cone in sorted(cones, key=lambda c: (c.second, c.seat)):
        if cone.cell in corner:
            by_cell[cone.cell].append(cone)
    for cell, here in by_cell.items():
        radius, centres = spots(len(here), size)
        left, top = corner[cell]
        for cone, (x, y) in zip(here, centres, strict=True):
            disc = cone_image(cone.seat, cone.second, radius)
            image.paste(disc, (left + x - radius, top + y - radius), disc)


def _outline(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], dark: int,
             light: int) -> None:  # fmt: skip
    """A double line around `box` (its outer pixels' edges): `dark` pixels of black outside,
    `light` of white inside, and a one-pixel dark rim inside that."""
    left, top, right, bottom = box
    draw.rectangle((left - dark, top - dark, right + dark - 1, bottom + dark - 1),
                   outline=HEAVY, width=dark)  # fmt: skip
    draw.rectangle((left, top, right - 1, bottom - 1), outline=WHITE, width=light)
    draw.rectangle((left + light, top + light, right - 1 - light, bottom - 1 - light),
                   outline=HEAVY, width=1)  # fmt: skip


def frame_box(cell: int) -> tuple[int, int, int, int]:
    """The board picture's pixels (left, top, right, bottom; right and bottom excluded) of
    the 3 x 3 frame around a cell, clipped at the board's edges."""
    cells = board.around(cell, 1)
    rows = [board.row_of(c) for c in cells]
    columns = [board.column_of(c) for c in cells]
    return (MARGIN + min(columns) * CELL, MARGIN + min(rows) * CELL,
            MARGIN + (max(columns) + 1) * CELL, MARGIN + (max(rows) + 1) * CELL)  # fmt: skip


def draw_board(picture: HuesBoardPicture) -> Image.Image:
    """The board with its cones, and the frame around the chosen colour (RGB)."""
    image = plain_board().copy()
    if picture.frame is not None:
        _outline(ImageDraw.Draw(image), frame_box(picture.frame), dark=4, light=3)
    corner = {
        cell: (MARGIN + board.column_of(cell) * CELL, MARGIN + board.row_of(cell) * CELL)
        for cell in range(board.CELLS)
    }
    _cones(image, picture.cones, corner, CELL)
    return image


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
    corner: dict[int, tuple[int, int]] = {}
    for row in range(first_row, first_row + span):
        for column in range(first_column, first_column + span):
            cell = board.at(row, column)
            x = ZOOM_MARGIN + (column - first_column) * ZOOM
            y = ZOOM_MARGIN + (row - first_row) * ZOOM
            corner[cell] = (x, y)
            draw.rectangle((x, y, x + ZOOM - 1, y + ZOOM - 1), fill=board.colour(cell))
    _lines(draw, ZOOM_MARGIN, ZOOM_MARGIN, ZOOM, first_row, first_column, span, span,
           thin=2, heavy=5)  # fmt: skip
    _labels(draw, ZOOM_MARGIN, ZOOM_MARGIN, ZOOM, first_row, first_column, span, span,
            ZOOM_MARGIN, 30)  # fmt: skip
    x, y = corner[picture.cell]
    _outline(draw, (x, y, x + ZOOM, y + ZOOM), dark=6, light=5)
    _cones(image, picture.cones, corner, ZOOM)
    return image


def draw_card(picture: HuesCardPicture) -> Image.Image:
    """The card's colours as large swatches, numbered from 1, each with its cell name (RGB)."""
    count = max(1, len(picture.cells))
    label = 56
    image = Image.new("RGB", (GAP + count * (SWATCH + GAP), 2 * GAP + SWATCH + label),
                      BACKGROUND)  # fmt: skip
    draw = ImageDraw.Draw(image)
    font = text_font(36, bold=True)
    for index, cell in enumerate(picture.cells):
        left = GAP + index * (SWATCH + GAP)
        draw.rounded_rectangle((left, GAP, left + SWATCH - 1, GAP + SWATCH - 1), radius=18,
                               fill=board.colour(cell), outline=HEAVY, width=3)  # fmt: skip
        disc = cone_image(index + 1, False, 30)
        image.paste(disc, (left + 14, GAP + 14), disc)
        draw.text((left + SWATCH // 2, GAP + SWATCH + label // 2 + 4), board.name(cell),
                  font=font, fill=INK, anchor="mm")  # fmt: skip
    return image
