"""Pictures: the results picture is a valid image under 300 KB in every language, draws emoji in
colour from the fonts in the repository, never fails on a name, and has a stable digest; the
engine counts whom each seat's decoys fooled; the final carries the picture unless turned off."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.model import Phase, Room
from engine.settings import LANGUAGES, apply_changes, parse_changes
from tests.builders import Game, a_room
from tgbot import pictures
from tgbot.outgoing import MAX_CAPTION, caption_length
from tgbot.pictures import ResultRow, ResultsPicture, Tally
from tgbot.pictures.draw import FONTS, draw_text, emoji_font, runs, text_font
from tgbot.render import Look, final
from tgbot.render.group import results_picture

LOOK = Look(bot_username="hintrigue_bot", key=b"k")
NAMES = [
    "Ann 🐋🎻", "Борис", "שרה כהן", "<b>&amp;</b> \"x\"", "A name far longer than any row can " * 3,
    "محمد", "Zoë 👩‍👩‍👧 🇮🇹", "😀" * 40, "Pedro ❤️", "\u202etab\tnew\nline\x00",
]  # fmt: skip


def a_picture(names: list[str] = NAMES) -> ResultsPicture:
    rows = [
        ResultRow(
            rank=i + 1, name=name, points=30 - i, finds=i, stolen=2 * i, winner=i == 0,
            status="left" if i == 3 else "playing",
            fooled=[Tally(name=names[(i + 1) % len(names)], times=2)],
            fooled_by=[Tally(name=names[(i + 2) % len(names)], times=1)] if i % 2 else [],
        )  # fmt: skip
        for i, name in enumerate(names)
    ]
    return ResultsPicture(rows=rows)


def decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def coloured(image: Image.Image) -> int:
    """How many pixels are clearly coloured (not grey)."""
    rgb = image.convert("RGB")
    return sum(1 for r, g, b in rgb.get_flattened_data() if max(r, g, b) - min(r, g, b) > 40)


def test_every_language_gives_a_valid_png_under_300_kb():
    for language in LANGUAGES:
        data = pictures.render(a_picture(), language)
        image = decoded(data)
        assert image.format == "PNG"
        assert image.width >= 800 and image.width + image.height <= 10_000
        assert len(data) < pictures.MAX_BYTES


def test_emoji_are_drawn_in_colour_from_the_shipped_font():
    assert emoji_font().path == str(FONTS / "NotoColorEmoji.ttf")
    assert text_font(20).path == str(FONTS / "DejaVuSans.ttf")
    white = (255, 255, 255)
    with_emoji = Image.new("RGB", (200, 80), white)
    draw_text(with_emoji, (4, 4), "🐋", 48, (0, 0, 0))
    plain = Image.new("RGB", (200, 80), white)
    draw_text(plain, (4, 4), "W", 48, (0, 0, 0))
    assert coloured(with_emoji) > 300  # a blue whale, not a black outline
    assert coloured(plain) == 0
    assert runs("Ann 🐋") == ((False, "Ann "), (True, "🐋"))


def test_right_to_left_names_are_put_in_visual_order():
    assert runs("שרה ×3") == ((False, "הרש ×3"),)
    assert runs("Bob") == ((False, "Bob"),)


def test_the_digest_is_stable_for_a_fixed_input():
    first = pictures.render(a_picture(), "en")
    assert pictures.digest(first) == pictures.digest(pictures.render(a_picture(), "en"))
    other = pictures.render(a_picture(NAMES[:3]), "en")
    assert pictures.digest(other) != pictures.digest(first)
    assert pictures.digest(pictures.render(a_picture(), "ru")) != pictures.digest(first)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(max_size=80), min_size=1, max_size=3))
def test_any_name_renders(names: list[str]):
    data = pictures.render(a_picture(names), "en")
    assert decoded(data).width > 0


def played(seed: int = 3, players: int = 4, **changes: int | bool | str) -> Game:
    """A whole game where each round every other voter falls for the next seat's decoy."""
    game = a_room().with_players(players).with_seed(seed).with_settings(rotations=1, **changes)
    game = game.in_hint()
    while game.room.phase is not Phase.FINISHED:
        game.give_hint().play_decoys()
        teller, others = game.storyteller(), game.others()
        for n, seat in enumerate(others):
            target = teller if n % 2 else others[(n + 1) % len(others)]
            game.vote(seat, target)
        game.time_out()  # the reveal
    return game


def test_the_engine_counts_whom_each_seats_decoys_fooled():
    game = a_room().with_players(4).in_voting()
    teller, others = game.storyteller(), game.others()
    game.vote(others[0], others[1]).vote(others[1], others[0]).vote(others[2], others[1])
    seats = game.room.seats
    assert seats[others[1]].fooled == {others[0]: 1, others[2]: 1}
    assert seats[others[0]].fooled == {others[1]: 1}
    assert seats[teller].fooled == {}
    assert sum(sum(s.fooled.values()) for s in seats) == sum(s.stolen for s in seats)


def test_a_room_stored_before_fooled_was_kept_still_loads():
    room = a_room().in_voting().room
    raw = room.model_dump(mode="json")
    for seat in raw["seats"]:
        del seat["fooled"]
    del raw["settings"]["pictures"]
    loaded = Room.model_validate(raw)
    assert all(s.fooled == {} for s in loaded.seats) and loaded.settings.pictures


def test_the_final_carries_the_results_picture_and_its_facts_as_text():
    game = played()
    room = game.room
    (message,) = final(room, LOOK)
    picture = message.picture
    assert picture is not None and picture == results_picture(room)
    assert [r.points for r in picture.rows] == sorted((s.score for s in room.seats), reverse=True)
    assert any(r.winner for r in picture.rows)
    for row in picture.rows:
        seat = room.seats[next(i for i, s in enumerate(room.seats) if s.name == row.name)]
        assert sum(t.times for t in row.fooled) == seat.stolen
        if row.fooled:
            shown = ", ".join(
                t.name if t.times == 1 else f"{t.name} ×{t.times}" for t in row.fooled
            )
            assert f"{row.name} fooled {shown}." in message.text
    fooled_total = sum(t.times for r in picture.rows for t in r.fooled_by)
    assert fooled_total == sum(s.stolen for s in room.seats) > 0
    assert "Standings" in message.text


def test_pictures_off_sends_the_final_as_text_only():
    assert apply_changes(played().room.settings, parse_changes("pictures=off")).pictures is False
    (message,) = final(played(pictures=False).room, LOOK)
    assert message.picture is None
    assert "fooled" not in message.text


def test_a_final_too_long_for_a_caption_comes_below_its_picture():
    room = played(players=8, max_seats=10).room
    for seat in room.seats:
        seat.name = seat.name + " Longname-Nachname"
    picture, text = final(room, LOOK)
    assert picture.key == "results" and picture.picture is not None and not picture.buttons
    assert caption_length(picture.text) <= MAX_CAPTION < caption_length(text.text)
    assert text.key == "final" and text.picture is None and text.buttons
    assert "Fooled by decoys" in text.text and "Standings" in text.text
    assert picture.thread_id == text.thread_id and picture.chat_id == text.chat_id
