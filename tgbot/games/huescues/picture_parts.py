"""The parts Hues and Cues' pictures are drawn from: the palette, a region of the board's
cells with its grid and labels, the outlines, and the cones.

A cone is a disc carrying its seat number, legible on any colour: a first cone is white with a
dark outline and a dark number; a second cone (placed after the second cue) is dark with a
white ring and a white number. Several cones on one cell are set side by side, smaller.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict

from engine.games.huescues import board
from tgbot.pictures.draw import Color, text_font


class Cone(BaseModel):
    """A player's cone on Hues and Cues' board."""

    model_config = ConfigDict(frozen=True)

    cell: int
    seat: int
    """The seat number printed on the disc (1-based seat order)."""
    second: bool = False
    """Placed after the second cue (drawn distinguishably)."""

BACKGROUND: Color = (243, 240, 232)
INK: Color = (34, 34, 40)
LINE: Color = (96, 96, 100)
HEAVY: Color = (24, 24, 28)
WHITE: Color = (255, 255, 255)
DARK: Color = (20, 20, 24)

PHONE = 390  # a phone's width in portrait (SPEC 13)
LEGIBLE = 11  # the least height of a label or number at that width
SUPERSAMPLE = 4  # cones are drawn this many times larger, then reduced (smooth edges)


def grid(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, first_row: int,
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


def labels(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, first_row: int,
           first_column: int, rows: int, columns: int, margin: int, font_size: int,
           all_edges: bool = True) -> None:  # fmt: skip
    """Column numbers above (and below), row letters to the left (and right)."""
    font = text_font(font_size, bold=True)
    right, bottom = left + columns * size, top + rows * size
    for index in range(columns):
        x = left + index * size + size // 2
        label = str(first_column + index + 1)
        draw.text((x, top - margin // 2), label, font=font, fill=INK, anchor="mm")
        if all_edges:
            draw.text((x, bottom + margin // 2), label, font=font, fill=INK, anchor="mm")
    for index in range(rows):
        y = top + index * size + size // 2
        label = board.ROWS[first_row + index]
        draw.text((left - margin // 2, y), label, font=font, fill=INK, anchor="mm")
        if all_edges:
            draw.text((right + margin // 2, y), label, font=font, fill=INK, anchor="mm")


def paint(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, first: tuple[int, int],
          span: tuple[int, int]) -> dict[int, tuple[int, int]]:  # fmt: skip
    """Paint `span` (rows, columns) cells of the board from `first` (row, column), `size`
    pixels each, from (left, top); return each cell's top-left pixel."""
    corner: dict[int, tuple[int, int]] = {}
    for row in range(first[0], first[0] + span[0]):
        for column in range(first[1], first[1] + span[1]):
            cell = board.at(row, column)
            x, y = left + (column - first[1]) * size, top + (row - first[0]) * size
            corner[cell] = (x, y)
            draw.rectangle((x, y, x + size - 1, y + size - 1), fill=board.colour(cell))
    return corner


def box_of(corner: dict[int, tuple[int, int]], cells: list[int],
           size: int) -> tuple[int, int, int, int]:  # fmt: skip
    """The pixels (left, top, right, bottom; right and bottom excluded) around `cells`."""
    xs = [corner[c][0] for c in cells]
    ys = [corner[c][1] for c in cells]
    return min(xs), min(ys), max(xs) + size, max(ys) + size


def number_size(radius: int, label: str) -> int:
    """The font size of a cone's number: as large as the disc holds it."""
    return round(radius * (1.2 if len(label) == 1 else 1.05))


@lru_cache(maxsize=64)
def legible_radius(width: int) -> int:
    """The least cone radius whose numbers (up to "10") are LEGIBLE px high once a picture
    `width` pixels wide is shown PHONE pixels wide."""
    radius = 4
    while True:
        heights = []
        for label in ("1", "10"):
            left, top, right, bottom = text_font(number_size(radius, label), bold=True).getbbox(
                label, anchor="mm")  # fmt: skip
            heights.append(bottom - top)
        if (min(heights) - 2) * PHONE / width >= LEGIBLE:  # 2 px lost to smoothing
            return radius
        radius += 1


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
    size = number_size(radius, label) * scale
    draw.text((big / 2, big / 2), label, font=text_font(size, bold=True), fill=ink, anchor="mm")
    return image.resize((2 * radius, 2 * radius), Image.Resampling.BOX)  # no ringing: smaller


def spots(count: int, size: int, least: int = 0) -> tuple[int, list[tuple[int, int]]]:
    """Where `count` cones go on a cell `size` pixels wide: their radius (at least `least`)
    and their centres' offsets from the cell's top-left corner. One is centred; more are set
    in a small grid, smaller, spilling a little over the neighbours when there are many."""
    if count <= 1:
        return max(least, round(size * 0.36)), [(size // 2, size // 2)]
    per_row = 2 if count <= 4 else math.ceil(math.sqrt(count))
    lines = math.ceil(count / per_row)
    step = size * {2: 0.5, 3: 0.42}.get(per_row, 0.36)
    radius = round(size * {2: 0.27, 3: 0.23}.get(per_row, 0.2))
    if radius < least:  # larger, as far apart as they were for their size
        step, radius = step * least / radius, least
    out = []
    for index in range(count):
        line, place = divmod(index, per_row)
        in_line = min(per_row, count - line * per_row)
        x = size / 2 + (place - (in_line - 1) / 2) * step
        y = size / 2 + (line - (lines - 1) / 2) * step
        out.append((round(x), round(y)))
    return radius, out


def draw_cones(image: Image.Image, cones: list[Cone], corner: dict[int, tuple[int, int]],
               size: int, least: int = 0) -> None:  # fmt: skip
    """Draw the cones that fall on cells in `corner` (a cell's top-left pixel), first cones
    before second ones, in seat order, at least `least` pixels in radius; cones that spill
    over their cell's neighbours stay within the cells drawn."""
    xs = [x for x, _ in corner.values()]
    ys = [y for _, y in corner.values()]
    bounds = min(xs), min(ys), max(xs) + size, max(ys) + size
    by_cell: dict[int, list[Cone]] = defaultdict(list)
    for cone in sorted(cones, key=lambda c: (c.second, c.seat)):
        if cone.cell in corner:
            by_cell[cone.cell].append(cone)
    for cell, here in by_cell.items():
        radius, centres = spots(len(here), size, least)
        left, top = _within(corner[cell], centres, radius, bounds)
        for cone, (x, y) in zip(here, centres, strict=True):
            disc = cone_image(cone.seat, cone.second, radius)
            image.paste(disc, (left + x - radius, top + y - radius), disc)


def _within(corner: tuple[int, int], centres: list[tuple[int, int]], radius: int,
            bounds: tuple[int, int, int, int]) -> tuple[int, int]:  # fmt: skip
    """The cell's corner, moved so that discs of `radius` at `centres` from it stay within
    `bounds` (left, top, right, bottom)."""
    left, top = corner
    low_x = min(x for x, _ in centres) - radius + left
    high_x = max(x for x, _ in centres) + radius + left
    low_y = min(y for _, y in centres) - radius + top
    high_y = max(y for _, y in centres) + radius + top
    left += max(0, bounds[0] - low_x) - max(0, high_x - bounds[2])
    top += max(0, bounds[1] - low_y) - max(0, high_y - bounds[3])
    return left, top


def outline(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], dark: int,
            light: int) -> None:  # fmt: skip
    """A double line around `box` (its outer pixels' edges): `dark` pixels of black outside,
    `light` of white inside, and a one-pixel dark rim inside that."""
    left, top, right, bottom = box
    draw.rectangle((left - dark, top - dark, right + dark - 1, bottom + dark - 1),
                   outline=HEAVY, width=dark)  # fmt: skip
    draw.rectangle((left, top, right - 1, bottom - 1), outline=WHITE, width=light)
    draw.rectangle((left + light, top + light, right - 1 - light, bottom - 1 - light),
                   outline=HEAVY, width=1)  # fmt: skip


