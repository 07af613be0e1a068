"""Hunch!'s AI seats: whole games of 3–6 AI seats through the rules without a refused command,
the same decisions for the same seed, decisions from the seat's view alone, truthful answers,
clues the clue check accepts, hunches that find secrets, and the mind at the table."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from engine.commands import AddAI, OpenLobby, StartGame
from engine.games.hunch import deck, words
from engine.games.hunch.commands import (
    Bid,
    ChooseSecret,
    Command,
    KeepClue,
    PassBid,
    PlaceClue,
    PlaceHunch,
    ReplaceClueCard,
    TakeCoins,
    Timeout,
    WriteClue,
)
from engine.games.hunch.model import OVER_PHASES, REMOVED, Clue, Phase, Settings, State
from engine.games.hunch.rules import apply, start
from engine.games.hunch.turns import matrix_words
from engine.games.hunch.views import seat_view
from engine.rules import apply as apply_at
from tests.hunch_builders import TABLE
from workers.ai import hunch as ai
from workers.dispatch import ai_turn

WORDS = len(deck.targets("en")) * 3


@dataclass
class Played:
    """A game played by AI seats: its end, every decision (state, seat, commands) and the
    hunches placed (correct, chance of a blind hunch)."""

    state: State
    decisions: list[tuple[State, int, list[Command]]] = field(default_factory=list)
    hunches: list[tuple[bool, float]] = field(default_factory=list)


def blind_chance(state: State, seat: int) -> float:
    """A blind hunch's chance: one matrix word not on the seat's own dealt cards."""
    own = {secret.card for secret in state.seats[seat].secrets}
    return 1 / (3 * sum(1 for card in state.matrix if card not in own and card != REMOVED))


def play(seats: int, seed: int, language: str = "en", advanced: bool = False) -> Played:
    """A game of AI seats only, to its end: every command the AI gives is applied (a refusal
    fails the test); only the reveal's presentation timer fires."""
    players = [(100 + i, f"AI {i}") for i in range(seats)]
    state, _ = start(players, Settings(advanced=advanced), seed=seed, now=0.0, language=language)
    played = Played(state)
    chance: dict[int, float] = {}
    for _ in range(2000):
        if state.phase in OVER_PHASES:
            break
        assert state.round is not None
        if state.phase is Phase.REVEAL:
            for line in state.revealed:
                played.hunches += [(right, chance[who]) for who, _, right in line.hunches]
            assert state.deadline is not None
            state, _ = apply(state, Timeout(round_no=state.round.no, phase=state.phase),
                             state.deadline)  # fmt: skip
            continue
        waiting = state.waiting_for()
        assert waiting, state.phase
        seat = waiting[0]
        if state.phase is Phase.HUNCH:
            chance[seat] = blind_chance(state, seat)
        commands = ai.decide_in(state, seat, "test", seed)
        assert commands, (state.phase, seat)  # an AI seat the game waits on always acts
        played.decisions.append((state, seat, commands))
        for command in commands:
            state, _ = apply(state, command, 1.0)  # never refused
    played.state = state
    return played


@pytest.mark.parametrize(
    ("seats", "seed", "language", "advanced"),
    [(3, 1, "en", False), (4, 2, "de", True), (5, 3, "ru", False), (6, 4, "pt", False),
     (3, 5, "fr", True), (6, 6, "it", False), (4, 7, "es", False)],
)  # fmt: skip
def test_ai_seats_play_whole_games_to_their_end(
    seats: int, seed: int, language: str, advanced: bool
) -> None:
    played = play(seats, seed, language, advanced)
    assert played.state.phase is Phase.FINISHED and played.state.end_reason is None
    assert all(seat.status.value == "playing" for seat in played.state.seats)
    kinds = {type(c) for _, _, commands in played.decisions for c in commands}
    assert {ChooseSecret, WriteClue, PlaceHunch} <= kinds
    assert kinds & {Bid, PassBid} and kinds & {KeepClue, TakeCoins}
    assert ReplaceClueCard not in kinds  # one decision a phase: it never sees a drawn card


def test_every_seat_writes_both_clues_each_round_and_places_every_hunch() -> None:
    for seed in range(3):
        played = play(4, 40 + seed)
        for state, seat, commands in played.decisions:
            if state.phase is Phase.CLUES:
                written = [c for c in commands if isinstance(c, WriteClue)]
                assert len(written) == len(state.seats[seat].hand) == 2
            if state.phase is Phase.HUNCH:
                assert len(commands) == state.allowance(seat)
                targets = {(c.owner, c.secret) for c in commands if isinstance(c, PlaceHunch)}
                assert len(targets) == len(commands)


def test_the_same_decisions_for_the_same_seed() -> None:
    first, second = play(5, 11), play(5, 11)
    assert [c for _, _, cs in first.decisions for c in cs] == [
        c for _, _, cs in second.decisions for c in cs
    ]
    assert first.state == second.state
    state, seat, commands = next(d for d in first.decisions if d[0].phase is Phase.CLUES)
    view = seat_view(state, seat)
    assert ai.decide(view, 1) == ai.decide(view, 1)
    seeds = {ai.view_seed(view, -5, 0, 3), ai.view_seed(view, -5, 0, 4)}
    assert len(seeds) == 2 and ai.view_seed(view, -5, 0, 3) == ai.view_seed(view, -5, 0, 3)


def _others_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same game where every other seat's hidden secrets (and its private clue cards,
    texts and hunches) are different."""
    other = state.clone()
    for index, s in enumerate(other.seats):
        if index == seat:
            continue
        for secret in s.secrets:
            if secret.status == "hidden" and secret.word is not None:
                secret.word = (secret.word + rng.randrange(1, 3)) % 3
        s.texts = [None if t is None else "zq" for t in s.texts]
        s.hand = [rng.randrange(len(deck.clue_cards())) for _ in s.hand]
        for hunch in s.hunches:
            hunch.word = rng.choice(sorted(matrix_words(other)))
    return other


def test_decisions_read_the_seats_view_alone_never_another_seats_secret() -> None:
    rng = random.Random(5)
    checked = 0
    for seats, seed in ((3, 21), (6, 22)):
        for state, seat, commands in play(seats, seed).decisions:
            changed = _others_hidden(state, seat, rng)
            if changed == state:
                continue
            assert ai.decide_in(changed, seat, "test", seed) == commands
            checked += 1
    assert checked > 50


def _question_answers(played: Played) -> Iterator[tuple[Clue, int, bool | None]]:
    for state, seat, commands in played.decisions:
        for command in commands:
            if isinstance(command, PlaceClue | KeepClue):
                clue = state.clue(command.clue)
                assert clue is not None
                word = state.seats[seat].secrets[command.secret].word_id
                assert word is not None
                yield clue, word, command.answer


def test_question_clues_are_answered_truthfully_and_bought_clues_fit() -> None:
    questions = 0
    for seed in range(6):
        for clue, word, answer in _question_answers(play(3 + seed % 4, 60 + seed)):
            if deck.is_question(clue.card):
                keys = [k for k in ai.read(clue.text) if k in ai.QUESTIONS]
                assert len(keys) == 1, clue.text
                assert answer is ai.truth(keys[0], word)
                questions += 1
            else:
                assert answer is None
                assert any(ai.fits(key, word) for key in ai.read(clue.text)), (clue.text, word)
    assert questions >= 5


def test_known_facts_are_answered_as_they_are() -> None:
    ids = {word: i * 3 + p for i, card in enumerate(deck.targets("en"))
           for p, word in enumerate(card)}  # fmt: skip
    assert ai.truth("q_water", ids["whale"]) and not ai.truth("q_water", ids["desert"])
    assert ai.truth("q_food", ids["pizza"]) and not ai.truth("q_food", ids["pig"])
    assert ai.truth("q_animal", ids["ant"]) and not ai.truth("q_animal", ids["doctor"])
    assert ai.truth("q_person", ids["doctor"]) and ai.truth("q_place", ids["castle"])
    assert ai.truth("q_big", ids["elephant"]) and not ai.truth("q_big", ids["key"])
    assert ai.truth("q_hand", ids["key"]) and not ai.truth("q_hand", ids["lighthouse"])
    assert ai.truth("q_flies", ids["eagle"]) and not ai.truth("q_flies", ids["penguin"])
    assert ai.truth("q_story", ids["dragon"]) and not ai.truth("q_story", ids["horse"])


def test_written_clues_pass_the_rules_clue_check_in_every_language() -> None:
    written = 0
    for number, language in enumerate(deck.languages()):
        played = play(3 + number % 4, 80 + number, language)
        for state, _, commands in played.decisions:
            texts = list(matrix_words(state).values())
            for command in commands:
                if isinstance(command, WriteClue):
                    assert words.matrix_word_in(command.text, texts) is None
                    assert not words.too_long(command.text) and not words.is_empty(command.text)
                    assert ai.read(command.text), command.text  # it reads what it writes
                    written += 1
    assert written > 100


def test_a_clue_naming_a_matrix_word_is_never_written() -> None:
    """In Spanish "rosa" is both pink and the rose: with the rose in the matrix, a colour card
    never gets "rosa"."""
    for seed in range(40):
        state, _ = start([(1, "A"), (2, "B"), (3, "C")], Settings(), seed=seed, now=0.0,
                         language="es")  # fmt: skip
        rose = 0  # the card "rosa ancla piano"
        if rose not in state.matrix:
            continue
        view = seat_view(state, 0)
        colour = deck.clue_cards().index("colour")
        view = view.model_copy(update={"phase": Phase.CLUES, "hand": [colour, colour],
                                       "texts": [None, None], "waiting": [0]})  # fmt: skip
        texts = [c.text for c in ai.decide(view, seed) if isinstance(c, WriteClue)]
        assert len(texts) == 2 and "rosa" not in texts
        assert ai.passes_check("rojo", ["rosa"]) and not ai.passes_check("rosas", ["rosa"])
        return
    raise AssertionError("no game with the rose in the matrix")


def test_it_reads_peoples_clues_in_any_language() -> None:
    assert ai.read("Red") == {"red"} and ai.read("ROT") == {"red"}
    assert ai.read("красный") == {"red"} and ai.read("Jaune !") == {"yellow"}
    assert ai.read("¿Es un animal?") == {"q_animal"} and ai.read("is it an ANIMAL") == {"q_animal"}
    assert ai.read("big and round") == {"big", "round"}
    assert ai.read("zq") == frozenset() and ai.read("something else") == frozenset()
    clue = Clue(id=0, writer=1, card=deck.clue_cards().index("question"), text="Is it red?",
                round=1, owner=2, secret=0, answer=True)  # fmt: skip
    apple = 9  # "apple bridge doctor"
    assert ai.consistent(clue, apple) is True and ai.consistent(clue, apple + 1) is False
    unread = clue.model_copy(update={"text": "Would you hug it?"})
    assert ai.consistent(unread, apple) is None


def test_the_word_tables_cover_the_deck_and_every_category() -> None:
    assert len(ai.concepts()) == WORDS
    rows = ai.clue_rows()
    for category in set(deck.clue_cards()) - {deck.FREE_CHOICE, deck.QUESTION}:
        assert sum(r.category == category for r in rows.values()) >= 5, category
    for row in rows.values():
        for language in ai.LANGUAGES:
            text = row.texts[language][0]
            assert text and not words.too_long(text), (row.key, language)
    used = set().union(*(c.tags for c in ai.concepts()))
    assert {k for k in rows if k not in ai.QUESTIONS} <= used  # no clue fits nothing


def test_bids_stay_within_coins_and_a_seat_without_a_fitting_clue_passes() -> None:
    played = play(4, 90)
    for state, seat, commands in played.decisions:
        for command in commands:
            if isinstance(command, Bid):
                assert command.amount <= state.seats[seat].coins
    auction = next(d for d in played.decisions if d[0].phase is Phase.AUCTION)
    state, seat, _ = auction
    assert state.auction is not None
    offered = [c for c in state.clues if c.writer == state.auction.seller and c.owner is None]
    unread = state.clone()
    for clue in unread.clues:
        if clue in offered:
            clue.text = "zq"  # a clue it cannot read is worth nothing to it
    assert [type(c) for c in ai.decide_in(unread, seat, "test", 90)] == [PassBid]


def test_ai_hunches_find_secrets_far_more_often_than_chance() -> None:
    hunches: list[tuple[bool, float]] = []
    for seed in range(8):
        hunches += play(3 + seed % 4, 120 + seed).hunches
    found = sum(right for right, _ in hunches) / len(hunches)
    chance = sum(c for _, c in hunches) / len(hunches)
    assert len(hunches) > 150 and found > 2 * chance


def test_the_mind_plays_in_a_room_at_the_table() -> None:
    room, _ = apply_at(None, OpenLobby(chat_id=-7, user_id=1, name="P1", seed=4, game="hunch"),
                       0.0, TABLE)  # fmt: skip
    for _ in range(2):
        room, _ = apply_at(room, AddAI(user_id=1), 0.0, TABLE)
    room, _ = apply_at(room, StartGame(user_id=1), 1.0, TABLE)
    state = room.play
    assert isinstance(state, State) and state.phase is Phase.SECRETS
    turn = ai_turn(room, TABLE)
    assert turn is not None and turn.waiting == [1, 2]
    for seat in turn.waiting:
        commands = ai.in_room(room, seat)
        assert commands and all(isinstance(c, ChooseSecret) for c in commands)
        for command in commands:
            room, _ = apply_at(room, command, 2.0, TABLE)
    turn = ai_turn(room, TABLE)
    assert turn is not None and turn.waiting == []  # only the person is awaited now
    assert ai.in_room(room, 1) == [] and ai.in_room(room, 2) == []  # they owe nothing
