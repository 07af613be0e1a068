"""Hues and Cues: seeded random games (legal and illegal commands, random timeouts, leaves and
joins), then driven to their end, checking every invariant after every step."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.huescues import commands
from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    Command,
    ConfirmCone,
    GiveCue,
    NoSecondCue,
)
from engine.games.huescues.events import Event, RoundScored
from engine.games.huescues.model import GUESS_PHASES, OVER_PHASES, Phase, Settings, State
from engine.games.huescues.rules import apply, start
from engine.model import SeatStatus
from tests.huescues_builders import next_move
from tests.playthrough import random_user, table_command

NEXT_PHASES = {
    Phase.CUE: {Phase.CUE, Phase.GUESS, Phase.SECOND_CUE, Phase.REVEAL, Phase.FINISHED,
                Phase.ABANDONED},
    Phase.GUESS: {Phase.GUESS, Phase.SECOND_CUE, Phase.REVEAL, Phase.ABANDONED},
    Phase.SECOND_CUE: {Phase.SECOND_CUE, Phase.SECOND_GUESS, Phase.REVEAL, Phase.ABANDONED},
    Phase.SECOND_GUESS: {Phase.SECOND_GUESS, Phase.REVEAL, Phase.ABANDONED},
    Phase.REVEAL: {Phase.REVEAL, Phase.CUE, Phase.FINISHED, Phase.ABANDONED},
}  # fmt: skip
CUES = ["pig", "sea", "candy floss", "red", "H15", "15", "", "a b c", "sky!", "Pig", "ёлка",
        "x" * 61, "rosso", "deep sea", "lavender"]  # fmt: skip


def chebyshev(a: int, b: int) -> int:
    return max(abs(a // 30 - b // 30), abs(a % 30 - b % 30))


def random_command(state: State, rnd: random.Random, now: float) -> tuple[Command, float]:
    """A command a player or a timer might send now, legal or not; and the time it arrives."""
    turn = state.round
    assert turn is not None
    uid = random_user(state, rnd)
    colour = turn.colour if turn.colour is not None else rnd.randrange(480)
    cell = rnd.choice([colour, colour + 1, colour + 30, colour - 31, rnd.randrange(-2, 483)])
    cell = rnd.choice(state.card_cells()) if rnd.random() < 0.2 and turn.card else cell
    number = turn.no - (rnd.random() < 0.05)
    roll = rnd.random()
    table = table_command(state, rnd, now, commands, uid, number, roll)
    if table is not None:
        return table
    if roll < 0.25:
        return ChooseColour(user_id=uid, cell=cell, round_no=number), now
    if roll < 0.40:
        return GiveCue(user_id=uid, text=rnd.choice(CUES) + rnd.choice(["", "", str(turn.no)])), now
    if roll < 0.44:
        return NoSecondCue(user_id=uid, round_no=number), now
    if roll < 0.75:
        return ChooseCell(user_id=uid, cell=cell, round_no=number), now
    return ConfirmCone(user_id=uid, round_no=number), now


def expected_points(state: State) -> dict[int, int]:
    """A scored round's points, recomputed from the state by the rules' own words."""
    turn = state.round
    assert turn is not None and turn.colour is not None
    guessing = [i for i in turn.participants
                if i != turn.giver and state.seats[i].status is not SeatStatus.LEFT]  # fmt: skip
    points = {i: 0 for i in [turn.giver, *guessing]}
    close = 0
    for cones in (turn.cones, turn.second_cones):
        for seat, cell in cones.items():
            d = chebyshev(cell, turn.colour)
            points[seat] = points.get(seat, 0) + {0: 3, 1: 2, 2: 1}.get(d, 0)
            close += d <= 1
    if turn.giver_scores:
        points[turn.giver] += min(9, close * (2 if len(guessing) == 2 else 1))
    return points


def check_step(before: State, after: State, events: list[Event], totals: dict[int, int]) -> None:
    """Invariants that hold after every accepted command."""
    assert sorted(after.draw + after.discard) == list(range(120)), "every card in one pile"
    for old, new in zip(before.seats, after.seats, strict=False):
        assert new.score >= old.score and new.exact >= old.exact, "scores never drop"
    assert after.phase in NEXT_PHASES[before.phase], (before.phase, after.phase)
    turn = after.round
    assert turn is not None
    if turn.card is not None:
        assert turn.card in after.discard
        assert turn.colour is None or turn.colour in after.cards[turn.card]
    if after.phase is not Phase.CUE and after.phase not in OVER_PHASES:
        assert turn.colour is not None and 1 <= len(turn.cues) <= 2
    seconds = set(turn.second_cones.values())
    assert seconds.isdisjoint(turn.cones.values()), "no second cone on a first cone's cell"
    cone_owners = set(turn.cones) | set(turn.second_cones) | set(turn.choices)
    assert turn.giver not in cone_owners and cone_owners <= set(turn.participants)
    assert len(after.used_cues) == len(set(after.used_cues)), "no cue twice"
    if after.phase in GUESS_PHASES or after.phase in (Phase.CUE, Phase.SECOND_CUE):
        assert (after.deadline is not None) == after.settings.timers
    if after.phase is Phase.REVEAL:
        assert after.deadline is not None
    for event in events:
        if isinstance(event, RoundScored):
            assert event.points == expected_points(after) == turn.points
            for seat, gained in event.points.items():
                totals[seat] = totals.get(seat, 0) + gained
    assert all(seat.score == totals.get(i, 0) for i, seat in enumerate(after.seats)), (
        "every point comes from a scored round"
    )


def play_random_game(seed: int, players: int, game_settings: Settings, budget: int) -> State:
    """Play one game with random commands, then drive it to its end, checking every step."""
    rnd = random.Random(seed)
    seats = [(1 + i, f"P{i}") for i in range(players)]
    language = rnd.choice(["en", "it", "ru"])
    state, _ = start(seats, game_settings, seed=seed, now=0.0, language=language)
    now, totals = 0.0, {}
    text = state.model_dump_json()
    for step in range(budget + 3_000):
        if state.phase in OVER_PHASES:
            break
        if step < budget:
            command, now = random_command(state, rnd, now)
        else:
            command, now = next_move(state, now)
        try:
            new, events = apply(state, command, now)
        except RuleError:
            assert step < budget, f"driving the game was refused: {command}"
            assert state.model_dump_json() == text, "an illegal command changes nothing"
            continue
        assert state.model_dump_json() == text, "apply() never changes its input"
        check_step(state, new, events, totals)
        state, text = new, new.model_dump_json()
        if rnd.random() < 0.05:
            assert State.model_validate_json(text) == state
        now += rnd.random() * 3
    assert state.phase in OVER_PHASES, "every game ends"
    check_end(state)
    return state


def check_end(state: State) -> None:
    """A game ends after its rounds (and at most three tie-break rounds), or is abandoned
    below three active seats (or stopped)."""
    if state.end_reason in ("rounds", "tie_break"):
        assert state.rotations_done >= state.turns
        present = state.present_seats()
        top = max(state.seats[i].score for i in present)
        tied = [i for i in present if state.seats[i].score == top]
        assert state.extra_done <= 3
        assert len(tied) == 1 or state.extra_done == 3, "a tie stands only after three"
        assert (state.end_reason == "tie_break") == (state.extra_done > 0)
    elif state.end_reason == "too_few_players":
        assert len(state.active_seats()) < 3
    else:
        assert state.end_reason == "stopped"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 10),
    turns=st.integers(0, 2),
    free_choice=st.booleans(),
    timers=st.booleans(),
    budget=st.integers(20, 150),
)
def test_random_games_keep_every_invariant(seed, players, turns, free_choice, timers, budget):
    game_settings = Settings(max_seats=10, turns=turns, free_choice=free_choice, timers=timers)
    play_random_game(seed, players, game_settings, budget)


def test_a_random_game_replays_identically():
    game_settings = Settings(max_seats=10, turns=1)
    first = play_random_game(2024, 6, game_settings, 300)
    second = play_random_game(2024, 6, game_settings, 300)
    assert first.model_dump_json() == second.model_dump_json()
