"""Wunchunk's picture (SPEC 11.5, 13): the hexhex board with its stones in the seats' colours,
each row labelled at both ends with the name of its end cell (`a1` … `a6`), every empty cell
with its place number, the last turn's stones ringed and a turn being built shown as pending
stones.

Readable on a phone: the picture is drawn PICTURE_WIDTH px wide whatever the board's size, and
every label, place number and stone number is at least 11 px high once it is shown 390 px wide.
A stone carries its seat's number as well as its colour, so the colours need not be told apart.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict

from engine.games.wunchunk import board
from tgbot.pictures.draw import Color, text_font
from tgbot.pictures.model import Picture

PHONE = 390  # a phone's width in portrait (SPEC 13)
LEGIBLE = 11  # the least height of a label or number at that width
PICTURE_WIDTH = 1200
SIDE = 112  # room for the row labels on each side ("h15")
TOP = 40
LABEL = 48  # the labels' and numbers' font size: their digits' ink is at least LEGIBLE px
# high on a phone
SUPERSAMPLE = 2

BACKGROUND: Color = (243, 240, 232)
CELL: Color = (226, 220, 204)
EDGE: Color = (160, 152, 136)
INK: Color = (34, 34, 40)
FAINT: Color = (128, 122, 110)
WHITE: Color = (255, 255, 255)
COLOURS: tuple[Color, ...] = ((214, 48, 49), (37, 99, 205), (32, 145, 70), (236, 184, 20))
"""The seats' colours by seat: red, blue, green, yellow (`engine.games.wunchunk.typed.COLOURS`)."""
NUMBER_INK: tuple[Color, ...] = (WHITE, WHITE, WHITE, INK)
"""A stone's number on its colour."""


class Stone(BaseModel):
    """A stone on the picture: where, whose colour, and how it is marked."""

    model_config = ConfigDict(frozen=True)

    cell: tuple[int, int, int]
    colour: int
    mark: Literal["", "last", "pending"] = ""
    """"last": placed in the last turn (ringed); "pending": in the turn being built."""


class WunchunkBoardPicture(Picture):
    """Wunchunk's board of `size` cells per side with its stones."""

    kind: Literal["wunchunk_board"] = "wunchunk_board"
    size: int
    stones: list[Stone] = []

    def draw(self) -> Image.Image:
        """The picture (its labels are cell names: the same in every language)."""
        return draw_board(self)


class Layout:
    """Where a board of n per side is drawn: pointy-top hexagons in horizontal rows, row a at
    the bottom, places growing to the right."""

    def __init__(self, n: int) -> None:
        self.n = n
        across = 2 * n - 1
        self.width = (PICTURE_WIDTH - 2 * SIDE) / across  # a hexagon's width, flat side to side
        self.radius = self.width / math.sqrt(3)
        self.step = 1.5 * self.radius  # between rows
        self.height = round(2 * TOP + 2 * self.radius + (across - 1) * self.step)

    def centre(self, cell: tuple[int, int, int]) -> tuple[float, float]:
        """A cell's centre in the picture's pixels."""
        q, r, _ = cell
        x = PICTURE_WIDTH / 2 + self.width * (q + r / 2)
        y = self.height / 2 + self.step * r
        return x, y

    def corners(self, cell: tuple[int, int, int], inset: float = 0) -> list[tuple[float, float]]:
        """A cell's hexagon (`inset` px inside its outline)."""
        x, y = self.centre(cell)
        radius = self.radius - inset
        return [
            (x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]


@lru_cache(maxsize=4)
def plain_board(n: int) -> Image.Image:
    """The empty board of n per side with its labels (drawn once per size; copy it)."""
    layout = Layout(n)
    image = Image.new("RGB", (PICTURE_WIDTH, layout.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    label = text_font(LABEL, bold=True)
    for row in board.rows(n):
        for cell in row:
            draw.polygon(layout.corners(cell, inset=1.5), fill=CELL, outline=EDGE, width=2)
            number = squeezed(place_of(cell, n), round(layout.width * 0.84))
            x, y = layout.centre(cell)
            image.paste(FAINT, (round(x - number.width / 2), round(y - number.height / 2)), number)
        for end, side in ((row[0], -1), (row[-1], 1)):
            x, y = layout.centre(end)
            x += side * (layout.width / 2 + 8)
            anchor = "rm" if side < 0 else "lm"
            draw.text((x, y), board.cell_name(end, n), font=label, fill=INK, anchor=anchor)
    return image


@lru_cache(maxsize=256)
def squeezed(text: str, width: int) -> Image.Image:
    """A place number's mask at the labels' size, narrowed to at most `width` px (two digits
    are wider than a hexagon of the largest board): its height, what legibility is, stays."""
    font = text_font(LABEL)
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("L", (right - left + 2, bottom - top + 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, font=font, fill=255)
    if mask.width > width:
        mask = mask.resize((width, mask.height), Image.Resampling.LANCZOS)
    return mask


def place_of(cell: tuple[int, int, int], n: int) -> str:
    """The cell's place in its row ("7" of "f7")."""
    return board.cell_name(cell, n).lstrip("abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=64)
def stone_image(colour: int, pending: bool, diameter: int) -> Image.Image:
    """One stone, drawn large and reduced (smooth edges): a disc of the seat's colour with its
    number; a pending stone pale inside a ring of its colour, its number in ink."""
    big = diameter * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    fill = COLOURS[colour % len(COLOURS)]
    if pending:
        pale = (*(round(c + (255 - c) * 0.7) for c in fill),)
        draw.ellipse((0, 0, big - 1, big - 1), fill=pale, outline=fill, width=big // 8)
        ink = INK
    else:
        draw.ellipse((0, 0, big - 1, big - 1), fill=fill)
        ink = NUMBER_INK[colour % len(COLOURS)]
    font = text_font(LABEL * SUPERSAMPLE, bold=True)
    draw.text((big / 2, big / 2), str(colour + 1), font=font, fill=ink, anchor="mm")
    return image.resize((diameter, diameter), Image.Resampling.LANCZOS)


def draw_board(picture: WunchunkBoardPicture) -> Image.Image:
    """The board with its stones (RGB)."""
    n = picture.size
    layout = Layout(n)
    image = plain_board(n).copy()
    diameter = max(round(layout.width * 0.86), math.ceil(LABEL * 1.25))
    draw = ImageDraw.Draw(image)
    for stone in picture.stones:
        if stone.mark == "last":
            draw.polygon(layout.corners(stone.cell, inset=2), outline=INK, width=7)
        disc = stone_image(stone.colour, stone.mark == "pending", diameter)
        x, y = layout.centre(stone.cell)
        image.paste(disc, (round(x - diameter / 2), round(y - diameter / 2)), disc)
    return image
