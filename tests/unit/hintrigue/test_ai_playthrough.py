"""Hypothesis playthroughs mixing AI seats with random human seats: an AI's command is never
refused by the engine, whatever the humans, the timers and the leavers do."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.hintrigue.views import waiting_for
from engine.model import OVER_PHASES, Room
from engine.model import Phase as TablePhase
from tests.builders import a_room
from tests.table import apply
from tests.unit.hintrigue.test_playthrough import check_step, random_command
from workers.ai import hintrigue
from workers.ai.vocab import LANGUAGES

DECK_SIZE = 283


def play_mixed_game(
    seed: int, players: int, ais: int, language: str, timers: bool
) -> tuple[Room, int]:
    """Play one game to its end: `ais` seats decided by the AI, the others by random legal
    and illegal commands; every AI command must be accepted."""
    rnd = random.Random(seed)
    game = (
        a_room()
        .with_players(players)
        .with_seed(seed)
        .with_settings(max_seats=10, rotations=1, timers=timers, language=language)
        .in_hint()
    )
    room, now = game.room, game.now
    ai_users = {room.seats[i].user_id for i in rnd.sample(range(players), ais)}
    ai_commands = 0
    for _ in range(20_000):
        if room.phase in OVER_PHASES:
            break
        owing = [i for i in waiting_for(room) if room.seats[i].user_id in ai_users]
        if owing and rnd.random() < 0.5:
            seat = rnd.choice(owing)
            for command in hintrigue.decide(room, seat):
                new, events = apply(room, command, now)  # never refused
                check_step(room, new, events, DECK_SIZE)
                room = new
                ai_commands += 1
            continue
        command, now = random_command(room, rnd, now)
        if getattr(command, "user_id", None) in ai_users:
            continue  # an AI seat acts only through its decisions
        try:
            new, events = apply(room, command, now)
        except RuleError:
            continue  # test_playthrough checks that a refused command changes nothing
        check_step(room, new, events, DECK_SIZE)
        room = new
        now += rnd.random() * 3
    assert room.phase in (TablePhase.FINISHED, TablePhase.ABANDONED)
    return room, ai_commands


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 7),
    ais=st.integers(1, 7),
    language=st.sampled_from(LANGUAGES),
    timers=st.booleans(),
)
def test_an_ai_seat_never_makes_an_illegal_move(seed, players, ais, language, timers):
    play_mixed_game(seed, players, min(ais, players), language, timers)


def test_ai_seats_do_act_in_mixed_games():
    acted = [play_mixed_game(seed, 4, 2, "en", True)[1] for seed in range(10)]
    assert sum(a > 0 for a in acted) >= 8


def test_a_mixed_game_replays_identically():
    first, _ = play_mixed_game(99, 5, 3, "de", True)
    second, _ = play_mixed_game(99, 5, 3, "de", True)
    assert first.model_dump_json() == second.model_dump_json()
