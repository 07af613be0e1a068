"""Pictures: the results picture is a valid image under 300 KB in every language, draws emoji in
colour from the fonts in the repository, never fails on a name, and has a stable digest; the
engine counts whom each seat's decoys fooled; the final carries the picture unless turned off.
Hues and Cues' board keeps its exact colours, its frame, close-up, cones and card; Guess What!'s
board and reveal carry pictures of the facts their text says."""

from __future__ import annotations

import hashlib
import io
import math
import statistics

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from engine.games.guesswhat import icon as gw_icon
from engine.games.guesswhat.model import Phase as GwPhase
from engine.games.hintrigue.model import own_seats
from engine.games.huescues import board
from engine.games.registry import GAMES
from engine.model import Phase as TablePhase
from engine.model import Room
from engine.settings import LANGUAGES, apply_changes
from tests.builders import Game, a_room
from tests.guesswhat_builders import Game as GwGame
from tests.guesswhat_builders import a_game
from tests.ink import ink_runs
from tests.table import parse_changes
from tgbot import pictures
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.games.guesswhat import pictures as guesswhat
from tgbot.games.guesswhat import render as gw
from tgbot.games.guesswhat.pictures import GuessBoardPicture, GuessLine, GuessRevealPicture
from tgbot.games.hintrigue import pictures as results
from tgbot.games.hintrigue.pictures import ResultRow, ResultsPicture, Tally, results_picture
from tgbot.games.huescues import picture_parts as parts
from tgbot.games.huescues import pictures as huescues
from tgbot.games.huescues.picture_parts import Cone
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture
from tgbot.games.registry import LINEUP
from tgbot.pictures.draw import FONTS, draw_text, emoji_font, runs, text_font
from tgbot.table.render import Look, final

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP)
NAMES = [
    "Ann 🐋🎻", "Борис", "שרה כהן", "<b>&amp;</b> \"x\"", "A name far longer than any row can " * 3,
    "محمد", "Zoë 👩‍👩‍👧 🇮🇹", "😀" * 40, "Pedro ❤️", "\u202etab\tnew\nline\x00",
]  # fmt: skip


def a_picture(names: list[str] = NAMES) -> ResultsPicture:
    rows = [
        ResultRow(
            rank=i + 1,
            name=name,
            points=30 - i,
            finds=i,
            stolen=2 * i,
            winner=i == 0,
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
        # Wide enough to hold a row, within the Bot API's size (legible on a phone: see below).
        assert image.width >= 640 and image.width + image.height <= 10_000
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
    while game.room.phase is not TablePhase.FINISHED:
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
    seats = own_seats(game.room)
    assert seats[others[1]].fooled == {others[0]: 1, others[2]: 1}
    assert seats[others[0]].fooled == {others[1]: 1}
    assert seats[teller].fooled == {}
    assert sum(sum(s.fooled.values()) for s in seats) == sum(s.stolen for s in seats)


def test_a_room_stored_before_fooled_was_kept_still_loads():
    room = a_room().in_voting().room
    raw = room.model_dump(mode="json")
    for seat in raw["play"]["seats"]:
        del seat["fooled"]
    del raw["settings"]["pictures"]
    loaded = GAMES.load_room(raw)
    assert all(s.fooled == {} for s in own_seats(loaded)) and loaded.settings.pictures


def test_the_final_carries_the_results_picture_and_its_facts_as_text():
    game = played()
    room = game.room
    (message,) = final(room, LOOK)
    picture = message.picture
    assert picture is not None and picture == results_picture(room)
    assert [r.points for r in picture.rows] == sorted((s.score for s in room.seats), reverse=True)
    assert any(r.winner for r in picture.rows)
    for row in picture.rows:
        seat = own_seats(room)[next(i for i, s in enumerate(room.seats) if s.name == row.name)]
        assert sum(t.times for t in row.fooled) == seat.stolen
        if row.fooled:
            shown = ", ".join(
                t.name if t.times == 1 else f"{t.name} ×{t.times}" for t in row.fooled
            )
            assert f"{row.name} fooled {shown}." in message.text
    fooled_total = sum(t.times for r in picture.rows for t in r.fooled_by)
    assert fooled_total == sum(s.stolen for s in own_seats(room)) > 0
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


# Hues and Cues' pictures (SPEC 11.3)

BOARD_DIGEST = "9e47aa1f94e20376e7d9d5676d8da610c772c7d56a808da13494b5ec12709cc1"


def hues_pictures() -> list[pictures.Picture]:
    many = [Cone(cell=board.at(7, 14), seat=s, second=s > 10) for s in range(1, 21)]
    return [
        HuesBoardPicture(),
        HuesBoardPicture(cones=many, frame=board.at(7, 14)),
        HuesBoardPicture(
            cones=[
                Cone(cell=c, seat=1 + c % 10, second=c % 2 == 0) for c in range(0, board.CELLS, 23)
            ],
            frame=0,
        ),  # fmt: skip
        HuesCloseupPicture(cell=0, cones=[Cone(cell=0, seat=3), Cone(cell=1, seat=10)]),
        HuesCloseupPicture(cell=board.CELLS - 1),
        HuesCloseupPicture(cell=board.at(7, 0), cones=many),
        HuesCardPicture(cells=[0, 129, 250, 479]),
    ]


def rgb(data: bytes) -> Image.Image:
    return decoded(data).convert("RGB")


def test_the_plain_board_keeps_its_pixels():
    image = huescues.plain_board()
    assert image.size == (huescues.BOARD_WIDTH, huescues.BOARD_HEIGHT)
    assert image.width >= 1280
    margin = huescues.MARGIN
    area = image.crop((margin - 2, margin - 2, image.width - margin + 2, image.height - margin + 2))
    assert hashlib.sha256(area.tobytes()).hexdigest() == BOARD_DIGEST


def test_the_board_is_sent_with_every_colour_exact():
    image = rgb(pictures.render(HuesBoardPicture(), "en"))
    assert len(set(board.colours())) == board.CELLS  # 480 colours: no 256-colour palette fits
    for cell in range(board.CELLS):
        assert image.getpixel(centre(cell)) == board.colour(cell), board.name(cell)
    top, left = huescues.MARGIN, huescues.MARGIN
    heavy = image.getpixel((left + 5 * huescues.CELL, top + 10))  # between columns 5 and 6
    thin = image.getpixel((left + 4 * huescues.CELL, top + 10))  # between columns 4 and 5
    assert heavy == parts.HEAVY and thin == parts.LINE
    assert image.getpixel((left + 5 * huescues.CELL + 1, top + 10)) == parts.HEAVY
    assert image.getpixel((left + 4 * huescues.CELL + 1, top + 10)) == board.colour(4)


def centre(cell: int) -> tuple[int, int]:
    half = huescues.CELL // 2
    return (huescues.MARGIN + board.column_of(cell) * huescues.CELL + half,
            huescues.MARGIN + board.row_of(cell) * huescues.CELL + half)  # fmt: skip


def test_every_hues_picture_is_a_valid_png_under_300_kb():
    for picture in hues_pictures():
        for language in LANGUAGES:
            data = pictures.render(picture, language)
            image = decoded(data)
            assert image.format == "PNG" and image.mode == "RGB", picture.kind
            assert len(data) < pictures.MAX_BYTES, picture.kind
            assert image.width >= 700, picture.kind


def test_the_frame_is_outlined_black_and_white_and_clipped_at_a_corner():
    cell_size, margin = huescues.CELL, huescues.MARGIN
    image = rgb(pictures.render(HuesBoardPicture(frame=0), "en"))  # A1: a 2 x 2 frame
    assert huescues.frame_box(0) == (margin, margin, margin + 2 * cell_size, margin + 2 * cell_size)
    middle = margin + cell_size // 2  # halfway down row A
    assert image.getpixel((margin - 2, middle)) == parts.HEAVY  # black outside the board
    assert image.getpixel((margin + 1, middle)) == parts.WHITE  # white inside it
    right = margin + 2 * cell_size
    assert image.getpixel((right - 2, middle)) == parts.WHITE
    assert image.getpixel((right + 1, middle)) == parts.HEAVY
    assert image.getpixel((right + cell_size // 2, middle)) == board.colour(board.at(0, 2))
    assert image.getpixel(centre(board.at(2, 0))) == board.colour(board.at(2, 0))
    plain = rgb(pictures.render(HuesBoardPicture(), "en"))
    assert image.getpixel((right + 1, middle)) != plain.getpixel((right + 1, middle))


def test_the_frame_is_clipped_at_an_edge():
    cell_size, margin = huescues.CELL, huescues.MARGIN
    chosen = board.at(7, 29)  # H30: columns 29 and 30, rows G to I
    left, top, right, bottom = huescues.frame_box(chosen)
    assert (left, right) == (margin + 28 * cell_size, margin + 30 * cell_size)
    assert (top, bottom) == (margin + 6 * cell_size, margin + 9 * cell_size)
    image = rgb(pictures.render(HuesBoardPicture(frame=chosen), "en"))
    assert image.getpixel((left - 2, top + cell_size)) == parts.HEAVY
    assert image.getpixel((left + 1, top + cell_size)) == parts.WHITE
    assert image.getpixel((left + 30, top + 1)) == parts.WHITE
    assert image.getpixel((left + 30, bottom - 2)) == parts.WHITE
    assert image.getpixel((right - 2, top + cell_size)) == parts.WHITE
    assert image.getpixel(centre(chosen)) == board.colour(chosen)
    assert image.getpixel(centre(chosen - 2)) == board.colour(chosen - 2)  # outside the frame


def test_the_close_up_stays_on_the_board_and_outlines_the_chosen_cell():
    zoom, margin = huescues.ZOOM, huescues.ZOOM_MARGIN
    cases = {
        "A1": ((0, 0), (0, 0)), "P30": ((11, 25), (4, 4)), "H1": ((5, 0), (2, 0)),
        "A15": ((0, 12), (0, 2)), "H15": ((5, 12), (2, 2)), "O29": ((11, 25), (3, 3)),
    }  # fmt: skip
    for name, (first, place) in cases.items():
        cell = board.parse(name)
        assert cell is not None
        assert huescues.window(cell) == first, name
        image = rgb(pictures.render(HuesCloseupPicture(cell=cell), "en"))
        assert image.size == (2 * margin + 5 * zoom, 2 * margin + 5 * zoom)
        x, y = margin + place[1] * zoom, margin + place[0] * zoom
        assert image.getpixel((x + zoom // 2, y + zoom // 2)) == board.colour(cell), name
        assert image.getpixel((x + 2, y + zoom // 2)) == parts.WHITE, name
        assert image.getpixel((x - 4, y + zoom // 2)) == parts.HEAVY, name
        for row in range(5):  # every cell of the window in its place
            for column in range(5):
                shown = board.at(first[0] + row, first[1] + column)
                if (row, column) != place:
                    spot = (margin + column * zoom + zoom // 2, margin + row * zoom + zoom // 2)
                    assert image.getpixel(spot) == board.colour(shown), (name, row, column)


def test_many_cones_on_one_cell_stay_apart_and_near_it():
    for count in range(1, 21):
        radius, centres = parts.spots(count, huescues.CELL)
        assert len(set(centres)) == count and radius >= 8
        for a in centres:
            for b in centres:
                if a != b:  # each number is visible: no cone hides more than a rim of another
                    assert math.dist(a, b) >= 1.6 * radius
    chosen = board.at(7, 14)
    plain = rgb(pictures.render(HuesBoardPicture(), "en"))
    for count in (2, 9, 20):
        cones = [Cone(cell=chosen, seat=s, second=s > 10) for s in range(1, count + 1)]
        image = rgb(pictures.render(HuesBoardPicture(cones=cones), "en"))
        changed = ImageChops.difference(image, plain).getbbox()
        assert changed is not None
        x, y = centre(chosen)
        reach = huescues.CELL * 3 // 2  # within the neighbouring cells
        assert changed[0] >= x - reach and changed[2] <= x + reach, count
        assert changed[1] >= y - reach and changed[3] <= y + reach, count
    nine = [Cone(cell=chosen, seat=s) for s in range(1, 10)]
    ten = rgb(pictures.render(HuesBoardPicture(cones=[*nine, Cone(cell=chosen, seat=10)]), "en"))
    assert ten.tobytes() != rgb(pictures.render(HuesBoardPicture(cones=nine), "en")).tobytes()


def test_second_cones_look_unlike_first_ones():
    def lightness(second: bool) -> float:  # of the disc's opaque pixels
        disc = parts.cone_image(4, second, 30)
        alpha = disc.getchannel("A").get_flattened_data()
        grey = disc.convert("L").get_flattened_data()
        return statistics.mean(g for g, a in zip(grey, alpha, strict=True) if a == 255)

    assert lightness(False) > 150 > 120 > lightness(True)  # white, and mostly dark
    image = rgb(pictures.render(HuesBoardPicture(cones=[Cone(cell=0, seat=1)]), "en"))
    assert image.getpixel((huescues.MARGIN + 10, centre(0)[1])) == parts.WHITE


def test_the_card_shows_its_four_colours_numbered():
    cells = [5, 129, 250, 479]
    image = rgb(pictures.render(HuesCardPicture(cells=cells), "en"))
    gap, swatch = huescues.GAP, huescues.SWATCH
    for index, cell in enumerate(cells):
        spot = (gap + index * (swatch + gap) + swatch // 2, gap + swatch // 2)
        assert image.getpixel(spot) == board.colour(cell)
    other = rgb(pictures.render(HuesCardPicture(cells=[5, 129, 250, 478]), "en"))
    assert other.tobytes() != image.tobytes()


def test_a_message_keeps_its_picture_kind_through_json():
    for picture in hues_pictures():
        message = Outgoing(chat_id=1, text="x", picture=picture)
        again = Outgoing.parse(message.model_dump_json(), LINEUP.pictures)
        assert again.picture == picture and type(again.picture) is type(picture)


# Guess What!'s pictures (SPEC 11.2, 13)

ICONS = list("🐋🎻🌙🍕🚲🏰🎩🌵🦊")


def gw_room(players: int = 4, pictures_on: bool = True) -> tuple[Room, GwGame]:
    """A room of Guess What! in its first clue phase."""
    game = a_game().with_players(players).with_settings(rotations=1).in_clue()
    room = a_room().with_players(players).with_settings(max_seats=10).in_lobby().room
    room.game, room.play = "guesswhat", game.state
    room.settings = room.settings.model_copy(update={"pictures": pictures_on})
    return room, game


def revealed(room: Room, game: GwGame) -> GwGame:
    """The turn's clue, the first guesser right, the second wrong in column B, then the
    reveal."""
    game.clue(rows=(0, 1, 2))
    first, second, *_ = game.guessers()
    game.guess(first, (0, 1, 2)).guess(second, (0, 0, 2)).time_out()
    room.play = game.state
    return game


def test_guess_whats_board_message_carries_the_board_as_a_picture():
    room, game = gw_room()
    message = gw.board_message(room, LOOK)
    picture = message.picture
    assert isinstance(picture, GuessBoardPicture)
    assert picture.icons == [gw_icon(n).emoji for n in game.state.board]
    for column, name in enumerate("ABC"):  # the caption lists the same board
        three = "  ".join(picture.icons[column * 3 : column * 3 + 3])
        assert f"<b>{name}</b>  {three}" in message.text
    game.clue()
    room.play = game.state
    clued = gw.board_message(room, LOOK)
    assert clued.picture == picture and clued.text != message.text  # only the caption changes
    off, _game = gw_room(pictures_on=False)
    assert gw.board_message(off, LOOK).picture is None


def test_guess_whats_reveal_carries_the_answer_and_every_guess_as_a_picture():
    room, game = gw_room()
    game = revealed(room, game)
    rnd = game.round
    (message,) = gw.reveal(room, LOOK)
    picture = message.picture
    assert isinstance(picture, GuessRevealPicture)
    assert picture.answer == [gw_icon(n).emoji for n in rnd.picks]
    assert picture.clue == rnd.clue and picture.active == room.seats[rnd.active].name
    assert [g.name for g in picture.guesses] == [room.seats[s].name for s in sorted(rnd.guesses)]
    for line, (seat, guess) in zip(picture.guesses, sorted(rnd.guesses.items()), strict=True):
        assert line.icons == [gw_icon(n).emoji for n in guess]
        mark = "✅" if seat in rnd.correct else "❌"
        assert f"{mark} {line.name}: A {line.icons[0]} · B {line.icons[1]}" in message.text
    room.settings = room.settings.model_copy(update={"pictures": False})
    (text,) = gw.reveal(room, LOOK)
    assert text.picture is None and text.text == message.text


def test_a_reveal_too_long_for_a_caption_comes_below_its_picture():
    room, game = gw_room(players=10)
    for seat in room.seats:
        seat.name = f"{seat.name} Longname-Nachname-Zweiter"
    game.clue(text="x" * 100, rows=(0, 1, 2))
    for seat in game.guessers():
        game.guess(seat, (0, 1, seat % 3))
    room.play = game.state  # every guesser confirmed: the reveal
    picture, text = gw.reveal(room, LOOK)
    assert caption_length(text.text) > MAX_CAPTION - gw.COUNTDOWN_ROOM
    assert isinstance(picture.picture, GuessRevealPicture) and text.picture is None
    assert picture.key == "reveal-picture:1" and text.key == "reveal:1"
    assert "message below" in picture.text and caption_length(picture.text) < MAX_CAPTION
    assert "Longname" in text.text and "Standings" in text.text
    (settled,) = gw.reveal(room, LOOK, settled=True)
    assert settled.key == "reveal:1" and settled.picture is None


def test_guess_what_pictures_are_valid_pngs_with_their_icons_in_colour():
    board = GuessBoardPicture(icons=ICONS)
    for language in LANGUAGES:
        data = pictures.render(board, language)
        assert decoded(data).format == "PNG" and len(data) < pictures.MAX_BYTES
    image = rgb(pictures.render(board, "en"))
    assert image.size == (guesswhat.WIDTH, 2 * guesswhat.PAD + guesswhat.board_height())
    for position in range(9):
        left, top = card_corner(position, guesswhat.PAD)
        assert coloured(image.crop((left, top, left + guesswhat.CELL, top + guesswhat.CELL))) > 800
    other = rgb(pictures.render(GuessBoardPicture(icons=[*ICONS[:8], "🐸"]), "en"))
    assert other.tobytes() != image.tobytes()


def near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    """The same colour, give or take the palette's rounding (these pictures use 256 colours)."""
    return max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= 6


def card_corner(position: int, top: int) -> tuple[int, int]:
    column, row = divmod(position, 3)
    return (guesswhat.PAD + column * (guesswhat.CELL + guesswhat.GAP),
            top + guesswhat.HEAD + row * (guesswhat.CELL + guesswhat.GAP))  # fmt: skip


def test_the_reveal_picture_marks_the_answer_and_each_guessed_icon():
    answer = ["🎻", "🚲", "🦊"]  # row 2 of A, row 2 of B, row 3 of C
    guesses = [GuessLine(name="Борис 🐻", icons=answer),
               GuessLine(name="שרה כהן", icons=["🐋", "🚲", "🌵"])]  # fmt: skip
    picture = GuessRevealPicture(icons=ICONS, answer=answer, active="Ann", clue="music ride",
                                 guesses=guesses)  # fmt: skip
    data = pictures.render(picture, "en")
    assert len(data) < pictures.MAX_BYTES
    image = rgb(data)
    board_top = guesswhat.PAD + guesswhat.TITLE
    for position in range(9):
        left, top = card_corner(position, board_top)
        edge = image.getpixel((left + 3, top + guesswhat.CELL // 2))
        picked = ICONS[position] in answer and answer.index(ICONS[position]) == position // 3
        assert near(edge, guesswhat.RIGHT) == picked, ICONS[position]
    top = board_top + guesswhat.board_height() + guesswhat.GAP
    for guess in guesses:
        middle = top + guesswhat.LINE // 2
        icons_left = guesswhat.WIDTH - guesswhat.PAD - 12 - 3 * guesswhat.SLOT
        for column, icon in enumerate(guess.icons):
            x = icons_left + column * guesswhat.SLOT + guesswhat.SMALL + 8
            y = middle + guesswhat.SMALL // 2 - 10 - 8  # inside the mark, off its tick or cross
            hit = icon == answer[column]
            assert near(image.getpixel((x, y)), guesswhat.RIGHT if hit else guesswhat.WRONG)
        whole = image.getpixel((guesswhat.PAD + 30, middle - 13))
        assert near(whole, guesswhat.RIGHT if guess.icons == answer else guesswhat.WRONG)
        top += guesswhat.LINE
    bare = GuessRevealPicture(icons=ICONS, answer=answer, active="Ann", clue="x")
    assert rgb(pictures.render(bare, "en")).height < image.height


def test_every_picture_of_a_whole_game_of_guess_what_is_valid_and_small():
    room, game = gw_room(players=10)
    for seat in room.seats:
        seat.name = "Ludwig van Beethoven the Second 🎹 שרה"[: 20 + seat.user_id % 12]
    seen: set[str] = set()
    number = 0
    while game.state.phase not in (GwPhase.FINISHED, GwPhase.ABANDONED):
        room.play = game.state
        shots = [gw.board_message(room, LOOK)]
        game.clue(text="a very long clue " * 5, rows=(number % 3, 1, 2))
        for k, seat in enumerate(game.guessers()):
            game.guess(seat, (number % 3, k % 3, 2))
        room.play = game.state
        shots += [gw.board_message(room, LOOK), *gw.reveal(room, LOOK)]
        for shot in shots:
            if shot.picture is None:  # a reveal too long for a caption, below its picture
                assert shot.key == f"reveal:{number + 1}" and "reveal-picture" in shots[-2].key
                continue
            data = pictures.render(shot.picture, LANGUAGES[number % len(LANGUAGES)])
            assert decoded(data).format == "PNG" and len(data) < pictures.MAX_BYTES
            seen.add(pictures.digest(data))
        game.time_out()
        number += 1
    assert number == 10 and len(seen) >= 20  # a board and a reveal per turn at least


def test_guess_whats_points_line_lists_the_most_points_first():
    room, game = gw_room()
    game = revealed(room, game)
    rnd = game.state.round
    seats = sorted(rnd.points)
    rnd.points = {seats[0]: 1, seats[1]: 3, seats[2]: 2}
    room.play = game.state
    (message,) = gw.reveal(room, LOOK)
    names = [room.seats[s].name for s in seats]
    assert f"Points: {names[1]} +3, {names[2]} +2, {names[0]} +1" in message.text


def test_the_results_picture_reads_on_a_phone_every_line_11_px_high_at_390_px():
    # SPEC 13: shown 390 px wide, text at least 11 px high; measured on the ink of each line
    # of a row's text column (a name, the figures, whom it fooled, who fooled it).
    picture = ResultsPicture(rows=[
        ResultRow(rank=1, name="Jay", points=9, winner=True, finds=2, stolen=3,
                  fooled=[Tally(name="Bo", times=2)], fooled_by=[Tally(name="Cy", times=1)]),
        ResultRow(rank=2, name="Bo", points=4),
    ])  # fmt: skip
    image = Image.open(io.BytesIO(pictures.render(picture, "en"))).convert("RGB")
    left, right = results.PAD + 84, results.WIDTH - results.PAD - 200
    top, bottom = results.HEAD + 4, results.HEAD + results.ROW - 4
    lines = ink_runs(image, (left, top, right, bottom), horizontal=False)
    assert len(lines) == 4, lines
    assert min(lines) * 390 / image.width >= 11, [round(h * 390 / image.width, 1) for h in lines]
