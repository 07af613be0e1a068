"""Wunchunk: seeded random games (legal and illegal commands, timeouts, leaves, skips), then
driven to their end, checking every invariant after every step."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk import commands
from engine.games.wunchunk.commands import (
    Command,
    EndTurn,
    Pass,
    PlaceStone,
    PlaceStones,
    Timeout,
    Undo,
)
from engine.games.wunchunk.events import Event, GameEnded, GameFinished, TurnPlayed
from engine.games.wunchunk.model import EMPTY, OVER_PHASES, Phase, Settings, State
from engine.games.wunchunk.rules import apply, start
from engine.model import SeatStatus
from tests.playthrough import random_user, table_command
from tests.wunchunk_builders import random_turn

NEXT_PHASES = {
    Phase.TURN: {Phase.TURN, Phase.REVEAL, Phase.ABANDONED},
    Phase.REVEAL: {Phase.REVEAL, Phase.FINISHED, Phase.ABANDONED},
}


def naive_score(state: State, colour: int) -> list[int]:
    """A colour's score list by the rules' words, from cube coordinates alone."""
    stones = {c for c, k in state.stones().items() if k == colour}
    sizes: list[int] = []
    seen: set[hexes.Cell] = set()
    for cell in sorted(stones):
        if cell in seen:
            continue
        group, todo = {cell}, [cell]
        while todo:
            q, r, s = todo.pop()
            for dq, dr, ds in hexes.DIRECTIONS:
                other = (q + dq, r + dr, s + ds)
                if other in stones and other not in group:
                    group.add(other)
                    todo.append(other)
        seen |= group
        sizes.append(len(group))
    counts = [sizes.count(k) for k in range(1, max(sizes, default=0) + 1)]
    return [sum(1 for k in sizes if k >= 2), *counts]


def random_commands(state: State, rnd: random.Random, now: float) -> list[tuple[Command, float]]:
    """Commands a player or a timer might send now, legal or not, and when they arrive: a
    whole random turn of the seat on turn, or one stray command."""
    turn = state.round
    assert turn is not None
    if state.phase is Phase.TURN and rnd.random() < 0.6:
        return [(command, now) for command in random_turn(state, rnd)]
    return [random_command(state, rnd, now)]


def random_command(state: State, rnd: random.Random, now: float) -> tuple[Command, float]:
    """A command a player or a timer might send now, legal or not; and the time it arrives."""
    turn = state.round
    assert turn is not None
    uid = random_user(state, rnd)
    number = turn.no - (rnd.random() < 0.05)
    roll = rnd.random()
    table = table_command(state, rnd, now, commands, uid, number, roll)
    if table is not None:
        command, at = table
        if isinstance(command, commands.Leave | commands.StopGame) and rnd.random() < 0.7:
            return Pass(user_id=uid), now  # fewer ends by leaving: longer games
        return command, at
    cells = hexes.cells(state.size)
    cell = rnd.choice([rnd.choice(cells), (9, -9, 0), (0, 0, 0)])
    colour = rnd.randrange(-1, len(state.seats) + 1)
    if roll < 0.75:
        return PlaceStone(user_id=uid, cell=cell, colour=colour, round_no=number), now
    if roll < 0.8:
        stones = tuple((rnd.choice(cells), colour) for _ in range(rnd.randrange(1, 4)))
        return PlaceStones(user_id=uid, stones=stones), now
    if roll < 0.88:
        return Undo(user_id=uid, cell=cell if rnd.random() < 0.3 else None), now
    if roll < 0.96:
        return EndTurn(user_id=uid, round_no=number), now
    return Pass(user_id=uid), now


def finishing_move(state: State) -> tuple[Command, float]:
    """Drive a game to its end: the seat on turn passes; the reveal's timer fires."""
    turn = state.round
    assert turn is not None
    if state.phase is Phase.REVEAL:
        assert state.deadline is not None
        return Timeout(round_no=turn.no, phase=state.phase), state.deadline
    return Pass(user_id=state.seats[turn.seat].user_id), 0.0


def check_step(before: State, after: State, events: list[Event]) -> None:
    """Invariants that hold after every accepted command."""
    assert after.phase in NEXT_PHASES[before.phase], (before.phase, after.phase)
    assert len(after.board) == len(before.board) == hexes.size(after.size)
    added = {i: c for i, (b, c) in enumerate(zip(before.board, after.board, strict=True))
             if b != c}  # fmt: skip
    assert all(before.board[i] == EMPTY for i in added), "a stone is never lost nor moved"
    played = [e for e in events if isinstance(e, TurnPlayed)]
    if added:
        assert len(played) == 1 and before.round is not None
        assert len(added) <= before.round.allotment, "the allotment is never exceeded"
        assert 0 < len(added) <= before.seats[before.round.seat].chunks
        g = hexes.geometry(after.size)
        assert sorted(added.items()) == sorted((g.index[c], str(k)) for c, k in played[0].stones)
        assert sorted(before.round.pending) == sorted((i, int(c)) for i, c in added.items())
    else:
        assert not played
    turn = after.round
    assert turn is not None
    assert len(turn.pending) <= turn.allotment
    assert all(after.board[i] == EMPTY for i, _ in turn.pending)
    assert len({i for i, _ in turn.pending}) == len(turn.pending)
    if after.phase is Phase.TURN:
        seat = after.seats[turn.seat]
        assert seat.status is SeatStatus.PLAYING
        assert turn.allotment == min(turn.chunks_before, after.empty_cells())
        assert turn.allotment <= after.empty_cells()
        assert (after.deadline is not None) == after.settings.timers
        assert EMPTY in after.board
    for colour, seat in enumerate(after.seats):
        if added:
            assert seat.groups == naive_score(after, colour), "scores recomputed from the board"
        else:
            assert seat.groups == before.seats[colour].groups
        assert seat.chunks == seat.groups[0] >= 1  # the start chunk never goes away
    for event in events:
        if isinstance(event, GameEnded) and event.reason == "all_passed":
            assert set(after.in_play()) <= set(after.passed)
        if isinstance(event, GameFinished):
            present = after.present_seats()
            best = min(after.seats[i].groups for i in present)
            assert event.winners == [i for i in event.standings if i in present
                                     and after.seats[i].groups == best]  # fmt: skip


def play_random_game(seed: int, players: int, game_settings: Settings, budget: int) -> State:
    """Play one game with random commands, then drive it to its end, checking every step."""
    rnd = random.Random(seed)
    seats = [(1 + i, f"P{i}") for i in range(players)]
    state, _ = start(seats, game_settings, seed=seed, now=0.0)
    assert [s.groups for s in state.seats] == [naive_score(state, k) for k in range(players)]
    now = 0.0
    text = state.model_dump_json()
    queue: list[tuple[Command, float]] = []
    for step in range(budget + 50):
        if state.phase in OVER_PHASES:
            break
        if step < budget:
            if not queue:
                queue = random_commands(state, rnd, now)
            command, now = queue.pop(0)
        else:
            command, at = finishing_move(state)
            now = max(now, at)
        try:
            new, events = apply(state, command, now)
        except RuleError:
            assert step < budget, f"driving the game was refused: {command}"
            assert state.model_dump_json() == text, "a refused command changes nothing"
            continue
        assert state.model_dump_json() == text, "apply() never changes its input"
        check_step(state, new, events)
        state, text = new, new.model_dump_json()
        if rnd.random() < 0.05:
            assert State.model_validate_json(text) == state
        now += rnd.random() * 30
    assert state.phase in OVER_PHASES, "every game ends"
    check_end(state)
    return state


def check_end(state: State) -> None:
    """A game ends with a full board, with every seat in play passing one after another, or
    is abandoned (fewer than two seats in play, no person in play, or stopped)."""
    if state.end_reason == "board_full":
        assert EMPTY not in state.board
    elif state.end_reason == "all_passed":
        assert state.passed  # and every seat then in play among them (`check_step`)
    elif state.end_reason == "too_few_players":
        assert len(state.active_seats()) < 2 or all(s.user_id > 0 for s in state.seats)
    else:
        assert state.end_reason == "stopped"


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)  # fmt: skip
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 4),
    size=st.sampled_from([0, 5, 6, 7, 8]),
    timers=st.booleans(),
    budget=st.integers(5, 250),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, size: int, timers: bool, budget: int
) -> None:
    play_random_game(seed, players, Settings(size=size, timers=timers), budget)


def test_a_random_game_replays_identically() -> None:
    first = play_random_game(2026, 3, Settings(size=6), 300)
    second = play_random_game(2026, 3, Settings(size=6), 300)
    assert first.model_dump_json() == second.model_dump_json()


def test_random_games_reach_both_ends() -> None:
    reasons = {play_random_game(s, 2 + s % 3, Settings(size=5), 400).end_reason for s in range(40)}
    assert {"board_full", "all_passed"} <= reasons
