"""Hunch!'s pictures (SPEC 11.4, 13): the matrix of 12 target cards (a card gone with a guessed
secret shows as an empty place) and the reveal: each secret with the clues that lay before it
and the round's hunches on it.

Readable on a phone: both are drawn PICTURE_WIDTH px wide, and every word, number and line of
text is drawn at a size whose capital letters are at least 11 px high once the picture is shown
390 px wide. The matrix is two columns of six cards, so that the longest word of every
language fits its card at that size.
"""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict

from engine.games.hunch.model import REMOVED, State
from tgbot.games.hunch import words
from tgbot.pictures.draw import Color, draw_text, fit, width
from tgbot.pictures.model import Picture

PHONE = 390
LEGIBLE = 11
PICTURE_WIDTH = 880
MARGIN = 20
COLUMNS = 2
WORD = 38  # a word's font size: its capitals' ink is 27 px, 12 px on a phone
NUMBER = 36
NUMBER_COLUMN = 64  # room for "12" before a card's words
LINE = 50
TEXT = 38  # the reveal's text: capitals of 27 px ink, 12 px on a phone
TEXT_LINE = 50
TITLE = 40

BACKGROUND: Color = (246, 242, 233)
CARD: Color = (255, 253, 247)
EDGE: Color = (190, 178, 150)
INK: Color = (34, 34, 40)
FAINT: Color = (140, 132, 118)
RIGHT: Color = (24, 128, 56)
WRONG: Color = (192, 40, 40)
GOLD: Color = (176, 120, 0)


def shown(word: str) -> str:
    """A word as the pictures show it: its first letter a capital."""
    return word[:1].upper() + word[1:]


class MatrixPicture(Picture):
    """The matrix: each place's card as its three words (None: a card gone)."""

    kind: Literal["hunch_matrix"] = "hunch_matrix"
    cards: list[list[str] | None]

    @classmethod
    def of(cls, state: State) -> MatrixPicture:
        return cls(cards=[list(words.card_words(state, card)) if card != REMOVED else None
                          for card in state.matrix])  # fmt: skip

    def draw(self) -> Image.Image:
        return draw_matrix(self)


class MatrixLayout:
    """Where each card of a matrix of `count` places is drawn."""

    def __init__(self, count: int) -> None:
        self.card_width = (PICTURE_WIDTH - (COLUMNS + 1) * MARGIN) // COLUMNS
        self.card_height = 3 * LINE + 2 * MARGIN
        self.rows = (count + COLUMNS - 1) // COLUMNS
        self.height = MARGIN + self.rows * (self.card_height + MARGIN)

    def card(self, place: int) -> tuple[int, int, int, int]:
        """A place's card: left, top, right, bottom (places run across, then down)."""
        row, column = divmod(place, COLUMNS)
        left = MARGIN + column * (self.card_width + MARGIN)
        top = MARGIN + row * (self.card_height + MARGIN)
        return left, top, left + self.card_width, top + self.card_height

    def word(self, place: int, position: int) -> tuple[int, int]:
        """Where a word of a card is drawn (its top-left)."""
        left, top, _, _ = self.card(place)
        return left + MARGIN // 2 + NUMBER_COLUMN, top + MARGIN + position * LINE


def draw_matrix(picture: MatrixPicture) -> Image.Image:
    layout = MatrixLayout(len(picture.cards))
    image = Image.new("RGB", (PICTURE_WIDTH, layout.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    room = layout.card_width - NUMBER_COLUMN - MARGIN
    for place, card in enumerate(picture.cards):
        box = layout.card(place)
        if card is None:
            draw.rounded_rectangle(box, radius=18, outline=EDGE, width=3)
        else:
            draw.rounded_rectangle(box, radius=18, fill=CARD, outline=EDGE, width=3)
        draw_text(image, (box[0] + MARGIN // 2 + 4, box[1] + MARGIN), str(place + 1), NUMBER,
                  FAINT, bold=True)  # fmt: skip
        for position, word in enumerate(card or []):
            draw_text(image, layout.word(place, position), shown(word), WORD, INK, room=room)
    return image


class RevealedHunch(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    word: str
    correct: bool


class RevealedSecret(BaseModel):
    """A secret at a reveal: whose, which, its word if guessed, its clues and hunches."""

    model_config = ConfigDict(frozen=True)

    owner: str
    slot: int
    word: str | None
    easy: bool = False
    clues: list[str]
    hunches: list[RevealedHunch]


class RevealPicture(Picture):
    """The reveal of a round: each secret with its clues and the hunches on it."""

    kind: Literal["hunch_reveal"] = "hunch_reveal"
    heading: str
    secrets: list[RevealedSecret]

    def draw(self) -> Image.Image:
        return draw_reveal(self)


def wrapped(text: str, size: int, room: int) -> list[str]:
    """A text in lines of at most `room` px, broken between words (a word too long is cut)."""
    lines: list[str] = []
    line = ""
    for part in text.split(" "):
        candidate = f"{line} {part}" if line else part
        if width(candidate, size) <= room or not line:
            line = candidate
        else:
            lines.append(line)
            line = part
    lines.append(line)
    return [fit(line, size, room) for line in lines]


Segment = tuple[str, Color]
Row = tuple[list[Segment], bool, int]
"""A line of the reveal: its pieces of text with their colours, its boldness, its indent."""
SEPARATOR = "  ·  "


def flowed(pieces: list[Segment], room: int) -> list[list[Segment]]:
    """Pieces of text in lines of at most `room` px, a separator between two on a line (a
    piece too long for a line is wrapped between its words)."""
    lines: list[list[Segment]] = [[]]
    used = 0
    for text, colour in pieces:
        for part in wrapped(text, TEXT, room):
            gap = width(SEPARATOR, TEXT) if lines[-1] else 0
            need = width(part, TEXT)
            if lines[-1] and used + gap + need > room:
                lines.append([])
                used, gap = 0, 0
            if gap:
                lines[-1].append((SEPARATOR, FAINT))
            lines[-1].append((part, colour))
            used += gap + need
    return [line for line in lines if line]


def reveal_rows(picture: RevealPicture) -> list[Row]:
    """Each line of the reveal: a secret's owner (and word, once guessed), its clues, then its
    hunches, marked right or wrong; a rule between two secrets."""
    room = PICTURE_WIDTH - 2 * MARGIN - TEXT
    rows: list[Row] = []
    for secret in picture.secrets:
        head = words.secret_name(secret.owner, secret.slot - 1) + (" ⭐" if secret.easy else "")
        if secret.word is not None:
            head += f": {shown(secret.word)} ✔"
        rows.append(([(head, RIGHT if secret.word is not None else INK)], True, 0))
        rows += [(line, False, 1) for line in flowed([(c, INK) for c in secret.clues], room)]
        hunches = [(f"✔ {h.name}: {shown(h.word)}", RIGHT) if h.correct
                   else (f"✘ {h.name}: {shown(h.word)}", WRONG) for h in secret.hunches]
        rows += [(line, False, 1) for line in flowed(hunches, room)]
        rows.append(([], False, 0))
    return rows  # fmt: skip


def draw_reveal(picture: RevealPicture) -> Image.Image:
    rows = reveal_rows(picture)
    height = 2 * MARGIN + TITLE + MARGIN + len(rows) * TEXT_LINE
    image = Image.new("RGB", (PICTURE_WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(image, (MARGIN, MARGIN), picture.heading, TITLE, INK, bold=True,
              room=PICTURE_WIDTH - 2 * MARGIN)  # fmt: skip
    y = 2 * MARGIN + TITLE + MARGIN
    for segments, bold, indent in rows:
        x = MARGIN + indent * TEXT
        for text, colour in segments:
            x += draw_text(image, (x, y), text, TEXT, colour, bold=bold,
                           room=PICTURE_WIDTH - x - MARGIN)  # fmt: skip
        if not segments:
            draw.line((MARGIN, y + TEXT_LINE // 2, PICTURE_WIDTH - MARGIN, y + TEXT_LINE // 2),
                      fill=EDGE, width=2)  # fmt: skip
        y += TEXT_LINE
    return image
