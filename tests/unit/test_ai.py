"""The AI players' mind: offline model, emoji names, vocabulary, Hintrigue decisions."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.commands import GiveHint
from engine.errors import RuleError
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.decks import decks, scene
from engine.games.hintrigue.model import Phase, own_seats, phase_of, state_of
from engine.settings import LANGUAGES as ROOM_LANGUAGES
from tests.builders import a_room
from tests.table import apply
from workers.ai import gloss, hintrigue, model, vocab
from workers.ai.mind import seed_for

DECK = decks()["default"]


def test_the_model_loads_and_embeds_with_the_network_blocked(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(model, "_model", None)
    model.embed.cache_clear()
    vector = model.embed("a lighthouse at dawn")
    assert vector.shape == (256,)
    assert abs(float(vector @ vector) - 1) < 1e-4


def test_the_model_is_loaded_once_per_process():
    assert model.load() is model.load()


def test_a_fresh_process_imports_and_loads_everything_with_the_network_blocked():
    script = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('no network')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from workers.ai import hintrigue\nfrom workers.games import warm_up\n"
        "warm_up()\n"
        "print(hintrigue.choose_hint([0, 1, 2], 'default', 'de', 1))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("(")


def test_threads_asking_at_once_share_one_model(monkeypatch):
    monkeypatch.setattr(model, "_model", None)
    with ThreadPoolExecutor(8) as pool:
        loaded = list(pool.map(lambda _: model.load(), range(8)))
    assert all(m is loaded[0] for m in loaded)


def test_emoji_are_named_in_the_rooms_language_else_in_english():
    assert model.emoji_name("🐋", "en") == "whale"
    assert model.emoji_name("🐋", "it") == "balena"
    assert model.emoji_name("🐋", "ru") == "кит"
    assert model.emoji_name("🐋", "xx") == "whale"
    assert model.describe("🌙🐋🎻") == "crescent moon, whale, violin"


def test_every_card_of_every_deck_is_described():
    for name, cards in decks().items():
        for card, text in enumerate(cards):
            symbols = model.emoji_list(text)
            assert "".join(symbols) == text, (name, card)
            assert all(model.emoji_name(s) for s in symbols), (name, card, text)


def test_the_vocabulary_speaks_every_language_of_the_rooms_in_three_words_at_most():
    assert set(vocab.LANGUAGES) == set(ROOM_LANGUAGES)
    assert len(vocab.concepts()) >= 300
    for language in vocab.LANGUAGES:
        texts = [vocab.normalise(c.texts[language]) for c in vocab.concepts()]
        assert len(set(texts)) == len(texts), f"{language}: each concept says something else"
        assert all(1 <= len(t.split()) <= vocab.MAX_WORDS for t in texts)


def test_a_phrase_of_the_vocabulary_is_understood_in_any_language_and_case():
    concept = vocab.lookup("Звездная  ночь")
    assert concept is not None and concept.english == "starry night"
    assert vocab.lookup("NOTTE STELLATA") == concept
    assert vocab.lookup("a lighthouse at dawn") is None


@pytest.mark.parametrize(
    ("hint", "names"),
    [
        ("moonlight", {"moon"}),
        ("лунный свет", {"луна"}),
        ("Lagerfeuer", {"feuer"}),
        ("whales", {"whale"}),
        ("a quiet morning", {"whale", "moon"}),
    ],
)
def test_the_naming_check_sees_forms_and_compounds(hint, names):
    assert vocab.names_any(hint, names) == (hint != "a quiet morning")


@pytest.mark.parametrize("language", vocab.LANGUAGES)
def test_a_storyteller_hint_is_in_the_rooms_language_and_names_none_of_its_cards_emoji(
    language,
):
    said = {c.texts[language] for c in vocab.concepts()}
    for seed in range(60):
        hand = [(seed * 7 + k * 31) % len(DECK) for k in range(6)]
        card, hint = hintrigue.choose_hint(hand, "default", language, seed)
        assert card in hand
        assert hint in said
        assert not vocab.names_any(hint, vocab.scene_words(scene("default", card), language))
        assert not vocab.names_any(hint, vocab.scene_words(scene("default", card), "en"))


def test_decisions_are_deterministic_for_a_seed_and_vary_with_it():
    hand = list(range(6))
    hints = {hintrigue.choose_hint(hand, "default", "en", seed) for seed in range(40)}
    assert len(hints) > 5
    for seed in range(10):
        assert hintrigue.choose_hint(hand, "default", "en", seed) == hintrigue.choose_hint(
            hand, "default", "en", seed
        )
        assert hintrigue.choose_vote(
            list(range(6)), 2, "default", "night music", "en", seed
        ) == hintrigue.choose_vote(list(range(6)), 2, "default", "night music", "en", seed)
    assert seed_for("room", 1) == seed_for("room", 1) != seed_for("room", 2)


def test_a_vote_is_never_for_the_seats_own_card_and_a_decoy_comes_from_its_hand():
    for seed in range(200):
        table = [(seed + 13 * k) % len(DECK) for k in range(4)]
        own = table[seed % 4]
        assert hintrigue.choose_vote(table, own, "default", "moonlight", "en", seed) != own
        hand = table[:3]
        assert hintrigue.choose_decoy(hand, "default", "moonlight", "en", seed) in hand


def test_an_ai_voter_finds_a_card_the_hint_plainly_fits():
    moon = next(i for i, s in enumerate(DECK) if "🌕" in s and "🐺" in s)
    others = [i for i, s in enumerate(DECK) if not any(m in s for m in "🌙🌕🌑🌛🌜🌝🌚")][:4]
    found = sum(
        hintrigue.choose_vote([moon, *others], None, "default", "moonlight", "en", s) == moon
        for s in range(20)
    )
    assert found >= 15


def play_ai_round(language: str, seed: int):
    """A round of four AI seats in a room speaking `language`, through the engine."""
    game = a_room().with_players(4).with_seed(seed).with_settings(language=language).in_hint()
    room = game.room
    seen = []
    while phase_of(room) in (Phase.HINT, Phase.DECOYS, Phase.VOTING):
        acted = False
        for seat in range(len(room.seats)):
            commands = hintrigue.decide(room, seat)
            assert commands == hintrigue.decide(room, seat), "asked twice, the same answer"
            for command in commands:
                room, _ = apply(room, command, game.now)
                seen.append(command)
            acted = acted or bool(commands)
        assert acted, f"nobody acts in {room.phase}"
    return room, seen


@pytest.mark.parametrize("language", vocab.LANGUAGES)
def test_ai_seats_play_a_whole_round_through_the_engine(language):
    room, seen = play_ai_round(language, 3)
    assert phase_of(room) is Phase.REVEAL
    kinds = [type(c) for c in seen]
    assert kinds.count(ChooseCard) == kinds.count(GiveHint) == 1
    assert kinds.count(PlayDecoy) == kinds.count(Vote) == 3
    hint = next(c.text for c in seen if isinstance(c, GiveHint))
    assert hint in {c.texts[language] for c in vocab.concepts()}


def test_the_same_room_gets_the_same_decisions():
    assert play_ai_round("fr", 11)[1] == play_ai_round("fr", 11)[1]


def test_a_decision_that_arrives_after_the_room_moved_on_changes_nothing():
    game = a_room().with_players(4).in_hint()
    teller = game.storyteller()
    stale = hintrigue.decide(game.room, teller)
    game.give_hint()
    with pytest.raises(RuleError):
        apply(game.room, stale[0], game.now)
    assert hintrigue.decide(game.room, teller) == []


def load_bench():
    """bench/ai.py, imported as a module (bench/ is scripts, not a package)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "ai.py"
    spec = importlib.util.spec_from_file_location("bench_ai", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_hints_typed_in_every_language_are_understood_well_above_chance():
    bench = load_bench()
    chance = 1 / (bench.DISTRACTORS + 1)
    for path, least in ((bench.HINTS, 4 * chance), (bench.HELDOUT, 2 * chance)):
        for language, (hits, total) in bench.understanding(path).items():
            assert hits / total >= least, (path.name, language, hits, total)


@pytest.mark.parametrize(
    ("text", "language", "english"),
    [
        ("огонь дракона", "ru", "fire dragon"),
        ("Le chat et la souris", "fr", "cat mouse"),
        ("balena", "it", "whale"),
        ("tres deseos", "es", "three wish"),
    ],
)
def test_a_hint_in_another_language_is_glossed_in_english(text, language, english):
    assert gloss.gloss(text, language) == english


def test_an_english_hint_or_one_of_unknown_words_has_no_gloss():
    assert gloss.gloss("fire dragon", "en") is None
    assert gloss.gloss("xyzzy", "de") is None


def test_the_common_words_table_covers_every_language():
    for language in vocab.LANGUAGES[1:]:
        whole, _ = gloss.dictionary(language)
        assert len(whole) > 500


def test_a_decision_reads_only_what_the_seat_may_see():
    game = a_room().with_players(5).with_seed(21).in_hint().give_hint("moonlight")
    room = game.room
    seat = next(i for i in game.others())
    before = hintrigue.decide(room, seat)
    hidden = room.clone()
    for index, other in enumerate(own_seats(hidden)):
        if index != seat:
            other.hand = list(reversed(other.hand))  # other hands are secret
    state_of(hidden).draw = list(reversed(state_of(hidden).draw))
    hidden.rng = room.rng + 1
    assert hintrigue.decide(hidden, seat) == before
