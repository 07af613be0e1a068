"""AI seats in Guess What!: clue and guesses, deterministic and legal in random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.guesswhat import icons
from engine.games.guesswhat.commands import ConfirmGuess, GiveClue
from engine.games.guesswhat.model import OVER_PHASES, Phase, Settings, State
from engine.games.guesswhat.rules import apply, start
from tests.unit.test_guesswhat_playthrough import check_end, check_step, random_command
from workers.ai import guesswhat, vocab
from workers.ai.mind import seed_for


def test_a_clue_is_in_the_rooms_language_names_no_icon_of_the_board_and_one_per_column():
    rnd = random.Random(5)
    for seed in range(120):
        language = vocab.LANGUAGES[seed % len(vocab.LANGUAGES)]
        board = rnd.sample(range(len(icons())), 9)
        picks, clue = guesswhat.choose_clue(board, language, seed)
        assert [guesswhat.columns(board)[c].count(p) for c, p in enumerate(picks)] == [1, 1, 1]
        assert clue in {c.texts[language] for c in vocab.concepts()}
        for number in board:
            forbidden = vocab.name_words(icons()[number].emoji, language) | set(
                vocab.words(icons()[number].name)
            )
            assert not vocab.names_any(clue, forbidden), (clue, icons()[number])
        assert (picks, clue) == guesswhat.choose_clue(board, language, seed)


def test_ai_guessers_mostly_find_an_ai_clue_but_not_always():
    rnd = random.Random(8)
    found = total = 0
    for seed in range(150):
        board = rnd.sample(range(len(icons())), 9)
        picks, clue = guesswhat.choose_clue(board, "en", seed)
        for guesser in range(3):
            total += 1
            found += guesswhat.choose_guess(board, clue, "en", seed * 7 + guesser) == picks
    assert 0.5 < found / total < 1


def play_mixed_game(seed: int, players: int, ais: int, language: str) -> tuple[State, int]:
    """A game where `ais` seats decide by the AI and the others send random commands; the
    engine must accept every AI command."""
    rnd = random.Random(seed)
    seats = [(1 + i, f"P{i}") for i in range(players)]
    state, _ = start(seats, Settings(max_seats=10, rotations=1), seed=seed, now=0.0)
    ai_users = {user for user, _ in rnd.sample(seats, ais)}
    now, totals, acted = 0.0, {}, 0
    for _ in range(20_000):
        if state.phase in OVER_PHASES:
            break
        turn = state.round
        assert turn is not None
        owing = [i for i in state.waiting_for() if state.seats[i].user_id in ai_users]
        if owing and rnd.random() < 0.5:
            seat = rnd.choice(owing)
            decision = seed_for("test", seed, turn.no, seat)
            commands = guesswhat.decide(state, seat, language, decision)
            assert commands == guesswhat.decide(state, seat, language, decision)
            assert isinstance(commands[-1], GiveClue | ConfirmGuess)
            for command in commands:
                new, events = apply(state, command, now)  # never refused
                check_step(state, new, events, totals)
                state = new
                acted += 1
            continue
        command, now = random_command(state, rnd, now)
        if getattr(command, "user_id", None) in ai_users:
            continue  # an AI seat acts only through its decisions
        try:
            new, events = apply(state, command, now)
        except RuleError:
            continue
        check_step(state, new, events, totals)
        state = new
        now += rnd.random() * 3
    assert state.phase in OVER_PHASES
    check_end(state)
    return state, acted


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 7),
    ais=st.integers(1, 7),
    language=st.sampled_from(vocab.LANGUAGES),
)
def test_an_ai_seat_never_makes_an_illegal_move_in_guess_what(seed, players, ais, language):
    play_mixed_game(seed, players, min(ais, players), language)


def test_ai_seats_act_in_mixed_guess_what_games():
    assert sum(play_mixed_game(seed, 4, 2, "it")[1] > 0 for seed in range(8)) >= 6


def test_an_ai_owes_nothing_once_its_guess_is_confirmed():
    seats = [(1 + i, f"P{i}") for i in range(3)]
    state, _ = start(seats, Settings(), seed=4, now=0.0)
    turn = state.round
    assert turn is not None and state.phase is Phase.CLUE
    for command in guesswhat.decide(state, turn.active, "en", 1):
        state, _ = apply(state, command, 0.0)
    guesser = state.waiting_for()[0]
    for command in guesswhat.decide(state, guesser, "en", 2):
        state, _ = apply(state, command, 0.0)
    assert guesswhat.decide(state, guesser, "en", 2) == []
