"""Guess What!'s pictures (SPEC 11.2, 13): the board, three columns A, B and C of three icons
in colour, and the reveal: the same board with the active player's three icons marked, then
each confirmed guess with a mark per icon (right or wrong) and one for the whole guess."""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict

from tgbot.pictures.draw import Color, draw_text, emoji_image, text_font
from tgbot.pictures.model import Picture


class GuessBoardPicture(Picture):
    """Guess What!'s board: columns A, B and C of three icons."""

    kind: Literal["guess_board"] = "guess_board"
    icons: list[str]
    """The nine icons (one emoji each), column by column: A's three, then B's, then C's."""

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_board(self)


class GuessLine(BaseModel):
    """One confirmed guess of a Guess What! turn."""

    model_config = ConfigDict(frozen=True)

    name: str
    """As the player set it (not escaped: a picture shows it as it is)."""
    icons: list[str]
    """The three icons guessed, by column."""


class GuessRevealPicture(Picture):
    """Guess What!'s reveal: the board with the active player's three icons marked, and each
    guess with a mark per icon."""

    kind: Literal["guess_reveal"] = "guess_reveal"
    icons: list[str]
    """The board's nine icons, column by column."""
    answer: list[str]
    """The active player's three icons, by column."""
    active: str
    clue: str
    guesses: list[GuessLine] = []

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_reveal(self)


COLUMNS = ("A", "B", "C")
ROWS = 3
PAD = 28
CELL = 180  # an icon's card
ICON = 120
GAP = 16
HEAD = 64  # the column letters above the board
TITLE = 92  # the reveal's two lines above the board: who gave the clue, the clue
LINE = 76  # one guess of the reveal
SMALL = 52  # an icon in a guess
SLOT = SMALL + 30  # an icon and its mark
WIDTH = 2 * PAD + 3 * CELL + 2 * GAP  # 628

BACKGROUND: Color = (243, 240, 232)
CARD: Color = (255, 255, 255)
EDGE: Color = (200, 196, 186)
INK: Color = (34, 34, 40)
SOFT: Color = (98, 98, 110)
DIM: Color = (226, 223, 216)
RIGHT: Color = (46, 160, 67)
RIGHT_FILL: Color = (214, 240, 214)
WRONG: Color = (206, 50, 50)
WHITE: Color = (255, 255, 255)


def _board(image: Image.Image, top: int, icons: list[str], answer: list[str] | None) -> None:
    """The board from `top`: the column letters, then the icons' cards; with an answer, its
    three cards marked and the others dimmed."""
    draw = ImageDraw.Draw(image)
    font = text_font(40, bold=True)
    for column, letter in enumerate(COLUMNS):
        left = PAD + column * (CELL + GAP)
        draw.text((left + CELL // 2, top + HEAD // 2), letter, font=font, fill=INK, anchor="mm")
        for row in range(ROWS):
            y = top + HEAD + row * (CELL + GAP)
            position = column * ROWS + row
            emoji = icons[position] if position < len(icons) else ""
            picked = answer is not None and column < len(answer) and answer[column] == emoji
            fill = RIGHT_FILL if picked else DIM if answer is not None else CARD
            draw.rounded_rectangle((left, y, left + CELL - 1, y + CELL - 1), radius=22, fill=fill,
                                   outline=RIGHT if picked else EDGE,
                                   width=8 if picked else 2)  # fmt: skip
            if emoji:
                _icon(image, emoji, ICON, left + CELL // 2, y + CELL // 2)


def _icon(image: Image.Image, emoji: str, size: int, x: int, y: int) -> None:
    """One icon in colour, centred on (x, y)."""
    picture = emoji_image(emoji, size)
    image.paste(picture, (x - picture.width // 2, y - picture.height // 2), picture)


def board_height() -> int:
    return HEAD + ROWS * CELL + (ROWS - 1) * GAP


def draw_board(picture: GuessBoardPicture) -> Image.Image:
    """The board as an image (RGB)."""
    image = Image.new("RGB", (WIDTH, 2 * PAD + board_height()), BACKGROUND)
    _board(image, PAD, picture.icons, None)
    return image


def mark(draw: ImageDraw.ImageDraw, x: int, y: int, right: bool, radius: int = 13) -> None:
    """A round mark centred on (x, y): a white tick on green, or a white cross on red."""
    draw.ellipse((x - radius, y - radius, x + radius, y + radius),
                 fill=RIGHT if right else WRONG)  # fmt: skip
    stroke = max(3, radius // 4)
    if right:
        points = [(x - radius * 0.5, y), (x - radius * 0.1, y + radius * 0.45),
                  (x + radius * 0.55, y - radius * 0.4)]  # fmt: skip
        draw.line(points, fill=WHITE, width=stroke, joint="curve")
    else:
        reach = radius * 0.45
        draw.line((x - reach, y - reach, x + reach, y + reach), fill=WHITE, width=stroke)
        draw.line((x - reach, y + reach, x + reach, y - reach), fill=WHITE, width=stroke)


def draw_reveal(picture: GuessRevealPicture) -> Image.Image:
    """The reveal as an image (RGB): who gave which clue, the board with the answer marked,
    then a line per confirmed guess."""
    guesses = picture.guesses
    height = PAD + TITLE + board_height() + (GAP + len(guesses) * LINE if guesses else 0) + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw_text(image, (PAD, PAD - 4), picture.active, 24, SOFT, bold=True, room=WIDTH - 2 * PAD)
    clue = f"«{picture.clue}»"
    draw_text(image, (PAD, PAD + 30), clue, 32, INK, bold=True, room=WIDTH - 2 * PAD)
    _board(image, PAD + TITLE, picture.icons, picture.answer)
    top = PAD + TITLE + board_height() + GAP
    for guess in guesses:
        _guess(image, guess, picture.answer, top)
        top += LINE
    return image


def _guess(image: Image.Image, guess: GuessLine, answer: list[str], top: int) -> None:
    """One guess: a mark for the whole guess, the guesser's name, each icon with its mark."""
    draw = ImageDraw.Draw(image)
    hits = [c < len(answer) and icon == answer[c] for c, icon in enumerate(guess.icons)]
    found = len(hits) == len(answer) and all(hits)
    draw.rounded_rectangle((PAD, top + 4, WIDTH - PAD - 1, top + LINE - 5), radius=14,
                           fill=RIGHT_FILL if found else CARD)  # fmt: skip
    middle = top + LINE // 2
    mark(draw, PAD + 30, middle, found, radius=18)
    icons_left = WIDTH - PAD - 12 - len(guess.icons) * SLOT
    name_left = PAD + 62
    size = 28
    text_top = middle - text_font(size, bold=True).getmetrics()[0] // 2 - 4
    room = icons_left - 12 - name_left
    draw_text(image, (name_left, text_top), guess.name, size, INK, bold=True, room=room)
    for column, (icon, hit) in enumerate(zip(guess.icons, hits, strict=True)):
        x = icons_left + column * SLOT + SMALL // 2
        _icon(image, icon, SMALL, x, middle)
        mark(draw, x + SMALL // 2 + 8, middle + SMALL // 2 - 10, hit, radius=12)

