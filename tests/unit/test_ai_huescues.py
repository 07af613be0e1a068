"""AI seats in Hues and Cues: the colour table, reading cues, cones and cues."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.games.huescues import board
from workers.ai import huescues
from workers.ai.colourspace import delta_e, hex_rgb, lab
from workers.ai.vocab import LANGUAGES


def only_repeats(earlier: set[str]):
    """A stand-in for the game's check that refuses only repeated cues."""
    return lambda text: text.casefold() in earlier


def test_ciede2000_matches_the_published_reference_pairs():
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 13, 20 and 34.
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0009), 7.1792),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ]
    for first, second, expected in pairs:
        assert delta_e([first], [second])[0, 0] == pytest.approx(expected, abs=1e-4)
        assert delta_e([second], [first])[0, 0] == pytest.approx(expected, abs=1e-4)


def test_lab_of_white_black_and_a_known_colour():
    white, black, salmon = lab([(255, 255, 255), (0, 0, 0), hex_rgb("#FA8072")])
    assert white == pytest.approx([100, 0, 0], abs=1e-3)
    assert black == pytest.approx([0, 0, 0], abs=1e-3)
    assert salmon == pytest.approx([67.26, 45.22, 29.09], abs=0.05)


def test_the_table_has_enough_colours_each_with_a_word_in_almost_every_language():
    table = huescues.entries()
    assert len(table) >= 150
    for language in LANGUAGES:
        said = [e.words[language] for e in table if e.words[language]]
        assert len(said) >= len(table) - 6, language
        assert len({huescues.tokens(w)[0] for w in said}) >= len(table) - 12, language
    assert len({e.rgb for e in table}) == len(table)


def test_every_word_of_the_table_reads_as_its_own_colour_in_every_language():
    for entry in huescues.entries():
        own = lab([entry.rgb])[0]
        for forms in entry.forms.values():
            for form in forms:
                colour = huescues.read(form.upper())
                assert colour is not None, form
                assert delta_e([colour], [own])[0, 0] < 1e-6, (form, entry.words["en"])


def test_reading_forms_modifiers_compounds_and_basic_colour_words():
    def nearest(text: str) -> str:
        colour = huescues.read(text)
        assert colour is not None, text
        return board.name(int(np.argmin(huescues.cell_differences(colour))))

    salmon = huescues.read("salmon")
    light, dark = huescues.read("light salmon"), huescues.read("salmone scuro")
    assert salmon is not None and light is not None and dark is not None
    assert light[0] > salmon[0] + 10 > dark[0] + 20
    assert huescues.read("Lachs dunkel") == dark
    assert huescues.read("ciliegie") == huescues.read("cherry")  # a plural
    assert huescues.read("лимонный") == huescues.read("lemon")  # an adjective
    assert huescues.read("слоновая кость") == huescues.read("ivory")  # a phrase
    assert huescues.read("морская") == huescues.read("sea")  # another ending
    assert huescues.read("uvas") == huescues.read("grape")  # a plural of a short word
    sky, plain, both = huescues.read("sky"), huescues.read("blue"), huescues.read("skyblue")
    assert sky is not None and plain is not None and both is not None  # a compound: between
    assert delta_e([both], [sky])[0, 0] < delta_e([plain], [sky])[0, 0]
    assert delta_e([both], [plain])[0, 0] < delta_e([sky], [plain])[0, 0]
    assert huescues.read("reddish") == huescues.read("rötlich") == huescues.read("rossastro")
    hellblau, blue = huescues.read("hellblau"), huescues.read("azul")
    assert hellblau is not None and blue is not None and hellblau[0] > blue[0] + 10
    assert nearest("светло-зелёный") != nearest("тёмно-зелёный")
    assert huescues.read("") is None
    assert huescues.read("ketchup") is None
    assert huescues.read("H15 42") is None
    assert huescues.read("dark ketchup") is None  # a modifier alone names no colour
    # ...but a second cue that only says "darker" darkens the first cue
    assert huescues.read("darker", before="salmon") == huescues.read("dark salmon")
    assert huescues.read("più scuro", before="Lachs") == huescues.read("dark salmon")


def test_a_guessers_first_cone_is_near_the_cues_colour_and_depends_only_on_its_seed():
    for cue, near in (("lemon", "G6"), ("Himmel", "D17"), ("кровь", "M1")):
        cones = [huescues.place_first(cue, seed) for seed in range(40)]
        assert cones == [huescues.place_first(cue, seed) for seed in range(40)]
        distances = [board.distance(c, board.parse(near) or 0) for c in cones]
        assert np.median(distances) <= 2 and np.mean(np.array(distances) <= 3) > 0.75
        assert len(set(cones)) > 1  # some variety, as people's cones have


def test_an_unreadable_cue_still_gets_a_cone_anywhere_on_the_board():
    cones = {huescues.place_first("xyzzy", seed) for seed in range(30)}
    assert all(0 <= c < board.CELLS for c in cones) and len(cones) > 10


def test_a_second_cone_never_goes_on_a_first_cone():
    rnd = random.Random(4)
    words = [e.words["en"] for e in huescues.entries()]
    for seed in range(300):
        first, second = rnd.choice(words), rnd.choice([*words, "light sky", "xyzzy", ""])
        target = huescues.place_first(first, seed)
        # first cones around where the cue points, and some anywhere
        cones = [*board.around(target, rnd.randint(0, 2)), *rnd.sample(range(480), 3)]
        cones = rnd.sample(cones, min(len(cones), rnd.randint(1, 12)))
        cell = huescues.place_second(first, second, cones, seed)
        assert cell not in cones
        assert cell == huescues.place_second(first, second, cones, seed)


def test_a_second_cone_for_an_unreadable_second_cue_goes_next_to_the_first_cones():
    cones = [board.parse(c) or 0 for c in ("E7", "E8", "F7")]
    for seed in range(30):
        cell = huescues.place_second("xyzzy", "plugh", cones, seed)
        assert cell not in cones and min(board.distance(cell, c) for c in cones) <= 2


def test_a_cue_giver_chooses_a_card_colour_and_a_single_word_of_its_language():
    rnd = random.Random(6)
    for seed in range(120):
        language = LANGUAGES[seed % len(LANGUAGES)]
        card = rnd.sample(range(board.CELLS), 4)
        earlier = {"salmon", "sky", "небо"}
        cell, cue = huescues.choose_colour(card, language, only_repeats(earlier), seed)
        assert cell in card
        assert huescues.cue_words(cue) == 1
        assert cue in {e.words[language] for e in huescues.entries()}
        assert cue.casefold() not in earlier
        assert (cell, cue) == huescues.choose_colour(card, language, only_repeats(earlier), seed)


def test_a_cue_giver_varies_with_its_seed_when_its_choices_are_close():
    rnd = random.Random(2)
    varied = 0
    for _ in range(20):
        card = rnd.sample(range(board.CELLS), 4)
        refuses = only_repeats(set())
        said = {huescues.choose_colour(card, "en", refuses, seed) for seed in range(20)}
        varied += len(said) > 1
    assert 5 <= varied < 20


def test_ai_guessers_land_near_an_ai_cue_givers_colour_far_more_often_than_chance():
    rnd = random.Random(9)
    ai, chance = [], []
    for seed in range(200):
        card = rnd.sample(range(board.CELLS), 4)
        cell, cue = huescues.choose_colour(card, "fr", only_repeats(set()), seed)
        ai.append(board.distance(huescues.place_first(cue, seed + 1), cell))
        chance.append(board.distance(rnd.randrange(board.CELLS), cell))
    assert np.mean(ai) < 3 < 8 < np.mean(chance)
    assert np.mean(np.array(ai) <= 2) > 0.6
    assert np.mean(np.array(ai) == 0) < 0.95  # not a machine that always hits


def test_no_second_cue_when_every_first_cone_is_in_the_frame():
    target = board.parse("H15") or 0
    cones = [board.parse(c) or 0 for c in ("H15", "G14", "I16")]
    said = huescues.choose_second(target, "olive", cones, "en", only_repeats({"olive"}), 1)
    assert said is None


def test_a_second_cue_brings_the_second_cones_closer():
    rnd = random.Random(12)
    before, after = [], []
    for seed in range(150):
        card = rnd.sample(range(board.CELLS), 4)
        earlier: set[str] = set()
        target, cue = huescues.choose_colour(card, "de", only_repeats(earlier), seed)
        earlier.add(cue.casefold())
        cones = [huescues.place_first(cue, seed * 10 + k) for k in range(4)]
        # a table of people far off: two of the first cones anywhere
        cones[:2] = rnd.sample(range(board.CELLS), 2)
        second = huescues.choose_second(target, cue, cones, "de", only_repeats(earlier), seed)
        assert second is not None  # two far cones: always worth a second cue
        assert 1 <= huescues.cue_words(second) <= 2 and second.casefold() not in earlier
        seconds = [huescues.place_second(cue, second, cones, seed * 10 + k) for k in range(4)]
        before += [board.distance(c, target) for c in cones]
        after += [board.distance(c, target) for c in seconds]
    assert np.mean(after) < np.mean(before) - 2


def test_a_fresh_process_decides_with_the_network_blocked():
    script = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('no network')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from workers.ai import huescues\n"
        "cell, cue = huescues.choose_colour([0, 100, 200, 300], 'ru', lambda t: False, 1)\n"
        "print(cell, cue, huescues.place_first(cue, 2))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cell, cue, cone = done.stdout.split()
    assert int(cell) in (0, 100, 200, 300) and 0 <= int(cone) < board.CELLS and cue
