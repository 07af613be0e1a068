"""Hunch!'s pictures read on a phone (SPEC 11.4, 13): shown 390 px wide, every word of the
matrix (the longest of every language among them), every card's number and every line of the
reveal is at least 11 px high; a card gone leaves its place empty; both pictures stay under
300 KB. Heights are measured on the ink drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.games.hunch import deck
from tgbot import pictures
from tgbot.games.hunch import pictures as hp
from tgbot.games.hunch.pictures import (
    MatrixLayout,
    MatrixPicture,
    RevealedHunch,
    RevealedSecret,
    RevealPicture,
)

PHONE, LEGIBLE = 390, 11


def drawn(picture: pictures.Picture, language: str = "en") -> tuple[Image.Image, int]:
    data = pictures.render(picture, language)
    return Image.open(io.BytesIO(data)).convert("RGB"), len(data)


def dark(pixel: tuple[int, int, int]) -> bool:
    return sum(pixel) < 3 * 150


def ink_rows(image: Image.Image, box: tuple[int, int, int, int]) -> list[int]:
    left, top, right, bottom = box
    return [y for y in range(top, bottom)
            if any(dark(image.getpixel((x, y))) for x in range(left, right, 2))]  # fmt: skip


def at_phone(height: int, image: Image.Image) -> float:
    return height * PHONE / image.width


def longest_cards(language: str) -> list[list[str]]:
    """Twelve cards, the language's longest words first."""
    cards = sorted(deck.targets(language), key=lambda c: -max(map(len, c)))
    return [list(card) for card in cards[:12]]


@pytest.mark.parametrize("language", deck.languages())
def test_every_word_and_number_of_the_matrix_is_legible_on_a_phone(language: str) -> None:
    cards: list[list[str] | None] = list(longest_cards(language))
    cards[5] = None  # a card gone with a guessed secret
    image, size = drawn(MatrixPicture(cards=cards), language)
    layout = MatrixLayout(12)
    assert image.width == hp.PICTURE_WIDTH and size < pictures.MAX_BYTES
    for place, card in enumerate(cards):
        left, top, right, _bottom = layout.card(place)
        number = ink_rows(image, (left + 4, top + 10, left + hp.NUMBER_COLUMN, top + 2 * hp.LINE))
        assert at_phone(number[-1] - number[0] + 1, image) >= LEGIBLE, (place, "number")
        for position in range(3):
            x, y = layout.word(place, position)
            rows = ink_rows(image, (x, y, right - 4, y + hp.LINE))
            if card is None:
                assert not rows, "a card gone shows no word"
                continue
            height = rows[-1] - rows[0] + 1
            assert at_phone(height, image) >= LEGIBLE, (card[position], height)
            # the whole word is drawn: its ink ends inside the card, before the ellipsis' room
            ink = [x2 for x2 in range(x, right) if any(dark(image.getpixel((x2, yy)))
                                                      for yy in range(y, y + hp.LINE, 2))]
            assert hp.fit(hp.shown(card[position]), hp.WORD, right - x) == hp.shown(card[position])
            assert ink and ink[-1] < right - 4


def test_the_reveal_is_legible_on_a_phone_and_small() -> None:
    secrets = [
        RevealedSecret(owner=f"Player {k} 🐻", slot=k % 3 + 1, word="butterfly" if k % 2 else None,
                       easy=k == 1,
                       clues=["Is it something you could find in a kitchen at night?", "Red"],
                       hunches=[RevealedHunch(name="Ann", word="rose", correct=False),
                                RevealedHunch(name="Bob", word="butterfly", correct=True)])
        for k in range(10)
    ]  # fmt: skip
    picture = RevealPicture(heading="Round 3: the hunches", secrets=secrets)
    image, size = drawn(picture)
    assert size < pictures.MAX_BYTES
    rows = hp.reveal_rows(picture)
    top = 2 * hp.MARGIN + hp.TITLE + hp.MARGIN
    for index, (segments, _bold, _indent) in enumerate(rows):
        if not segments:
            continue
        text = "".join(part for part, _colour in segments)
        y = top + index * hp.TEXT_LINE
        ink = ink_rows(image, (hp.MARGIN, y, image.width - hp.MARGIN, y + hp.TEXT_LINE - 4))
        assert ink, text
        assert at_phone(ink[-1] - ink[0] + 1, image) >= LEGIBLE, text
    title = ink_rows(image, (hp.MARGIN, hp.MARGIN, image.width - hp.MARGIN,
                             2 * hp.MARGIN + hp.TITLE))  # fmt: skip
    assert at_phone(title[-1] - title[0] + 1, image) >= LEGIBLE


def test_a_long_clue_wraps_between_words() -> None:
    lines = hp.wrapped("Is it something you could find in a kitchen at night or in a garden?",
                       hp.TEXT, 500)  # fmt: skip
    assert len(lines) >= 2 and all(hp.width(line, hp.TEXT) <= 500 for line in lines)
    assert " ".join(lines).startswith("Is it something")
