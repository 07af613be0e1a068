"""Guess What!: seeded random games (legal and illegal commands, random timeouts), then driven
to their end, checking every invariant after every step."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.guesswhat import commands, icons
from engine.games.guesswhat.commands import (
    Command,
    ConfirmGuess,
    GiveClue,
    GuessIcon,
    PickIcon,
    Redraw,
    Timeout,
)
from engine.games.guesswhat.events import Event, RoundScored
from engine.games.guesswhat.model import OVER_PHASES, Phase, Settings, State
from engine.games.guesswhat.rules import apply, start
from engine.model import SeatStatus
from tests.playthrough import random_user, table_command

NEXT_PHASES = {
    Phase.CLUE: {Phase.CLUE, Phase.GUESS, Phase.REVEAL, Phase.FINISHED, Phase.ABANDONED},
    Phase.GUESS: {Phase.GUESS, Phase.REVEAL, Phase.ABANDONED},
    Phase.REVEAL: {Phase.REVEAL, Phase.CLUE, Phase.FINISHED, Phase.ABANDONED},
}
CLUES = ["Tropical party", "", "   ", "x" * 101, "🌙" * 100, "<b>&</b>", "\u200b"]
DECK = len(icons())


def random_command(state: State, rnd: random.Random, now: float) -> tuple[Command, float]:
    """A command a player or a timer might send now, legal or not; and the time it arrives."""
    turn = state.round
    assert turn is not None
    uid = random_user(state, rnd)
    icon = rnd.choice(state.board) if rnd.random() < 0.9 else rnd.randrange(DECK + 3)
    number = turn.no - (rnd.random() < 0.05)
    roll = rnd.random()
    table = table_command(state, rnd, now, commands, uid, number, roll)
    if table is not None:
        return table
    if roll < 0.18:
        chosen = rnd.sample(state.board, 3) if rnd.random() < 0.8 else [icon, icon, icon]
        return Redraw(user_id=uid, icons=tuple(chosen[: rnd.choice((2, 3, 3, 3))])), now
    if roll < 0.40:
        return PickIcon(user_id=uid, icon=icon, round_no=number), now
    if roll < 0.50:
        return GiveClue(user_id=uid, text=rnd.choice(CLUES)), now
    if roll < 0.80:
        return GuessIcon(user_id=uid, icon=icon), now
    return ConfirmGuess(user_id=uid, round_no=number), now


def drive(state: State, now: float) -> tuple[Command, float]:
    """A command that moves the game on: the active player gives its clue, guessers at even
    seats find it and the others do not; the reveal ends by its timer."""
    turn = state.round
    assert turn is not None
    if state.phase is Phase.CLUE:
        uid = state.seats[turn.active].user_id
        for column, pick in enumerate(turn.picks):
            if pick is None:
                return PickIcon(user_id=uid, icon=state.board[column * 3 + 1]), now
        return GiveClue(user_id=uid, text="Agent secret"), now
    if state.phase is Phase.GUESS:
        seat = state.waiting_for()[0]
        uid = state.seats[seat].user_id
        guess = turn.guesses.get(seat, [None, None, None])
        row = 1 if seat % 2 == 0 else 2
        for column, icon in enumerate(guess):
            if icon is None:
                return GuessIcon(user_id=uid, icon=state.board[column * 3 + row]), now
        return ConfirmGuess(user_id=uid), now
    assert state.deadline is not None
    return Timeout(round_no=turn.no, phase=state.phase), max(now, state.deadline)


def expected_points(state: State) -> dict[int, int]:
    """A scored round's points, recomputed from the state by the rules' own words."""
    turn = state.round
    assert turn is not None and None not in turn.picks
    guessers = [
        i
        for i in turn.participants
        if i != turn.active
        and state.seats[i].status is not SeatStatus.LEFT
        and i not in turn.dropped
    ]
    right = [i for i in turn.confirmed if turn.guesses.get(i) == turn.picks]
    points = {i: 0 for i in [turn.active, *guessers]}
    for seat in right:
        points[seat] = 1
    everybody = len(right) == len(guessers) > 0
    points[turn.active] = 0 if state.settings.connoisseurs and everybody else len(right)
    return points


def check_step(before: State, after: State, events: list[Event], totals: dict[int, int]) -> None:
    """Invariants that hold after every accepted command."""
    assert len(after.board) == 9 and len(set(after.board)) == 9, "nine distinct icons"
    places = after.board + after.draw + after.discard
    assert sorted(places) == list(range(DECK)), "every icon in exactly one place"
    for old, new in zip(before.seats, after.seats, strict=False):
        assert new.score >= old.score and new.correct >= old.correct, "scores never drop"
    assert after.phase in NEXT_PHASES[before.phase], (before.phase, after.phase)
    turn = after.round
    assert turn is not None
    for column, icon in enumerate(turn.picks):
        assert icon is None or after.phase is Phase.REVEAL or after.column_of(icon) == column
    if after.phase is Phase.GUESS:
        assert None not in turn.picks and turn.clue and 1 <= len(turn.clue) <= 100
        for guess in turn.guesses.values():
            assert all(i is None or after.column_of(i) == c for c, i in enumerate(guess))
        assert set(turn.confirmed) <= set(turn.guesses)
    if after.phase in (Phase.CLUE, Phase.GUESS):
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
    state, _ = start(seats, game_settings, seed=seed, now=0.0)
    now, totals = 0.0, {}
    text = state.model_dump_json()
    for step in range(budget + 2_000):
        if state.phase in OVER_PHASES:
            break
        make = random_command if step < budget else lambda s, _r, t: drive(s, t)
        command, now = make(state, rnd, now)
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
    assert state.phase in OVER_PHASES
    check_end(state)
    return state


def check_end(state: State) -> None:
    """A game ends by its target or its rotations, or is abandoned below three active seats
    (or stopped)."""
    if state.end_reason == "target":
        assert max(seat.score for seat in state.seats) >= state.settings.target
    elif state.end_reason == "rotations":
        assert state.rotations_done >= state.settings.rotations
        assert all(seat.score < state.settings.target for seat in state.seats)
    elif state.end_reason == "too_few_players":
        assert len(state.active_seats()) < 3
    else:
        assert state.end_reason == "stopped"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 10),
    rotations=st.integers(1, 3),
    target=st.integers(5, 20),
    connoisseurs=st.booleans(),
    timers=st.booleans(),
    budget=st.integers(20, 120),
)
def test_random_games_keep_every_invariant(
    seed, players, rotations, target, connoisseurs, timers, budget
):
    game_settings = Settings(
        max_seats=10, rotations=rotations, target=target, connoisseurs=connoisseurs, timers=timers
    )
    play_random_game(seed, players, game_settings, budget)


def test_a_random_game_replays_identically():
    game_settings = Settings(max_seats=10, rotations=2, target=8)
    first = play_random_game(2024, 6, game_settings, 300)
    second = play_random_game(2024, 6, game_settings, 300)
    assert first.model_dump_json() == second.model_dump_json()
