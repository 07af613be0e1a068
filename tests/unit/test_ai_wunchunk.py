"""Wunchunk's AI seats: legal turns on every board and table, the same turn for the same seed,
the balancing rule kept, a pass only when it wins, paths that join its groups, and games won
against a random player."""

from __future__ import annotations

import random

import pytest

from engine.commands import AddAI, OpenLobby, StartGame
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.commands import Command, EndTurn, Pass, PlaceStone, Timeout
from engine.games.wunchunk.model import OVER_PHASES, Phase, Settings, State
from engine.games.wunchunk.rules import apply, start
from engine.games.wunchunk.turns import winners
from engine.rules import apply as apply_at
from tests.wunchunk_builders import TABLE, a_game, random_turn
from workers.ai import wunchunk as ai
from workers.games import MINDS


def play_out(
    state: State, movers: dict[int, str], seed: int, limit: int = 400, level: int = 2
) -> State:
    """Play a game (to its end, within `limit` turns): seats in `movers` by the AI ("ai") or
    at random ("random"); every AI command must be accepted."""
    rng = random.Random(seed)
    for _ in range(limit):
        if state.phase in OVER_PHASES:
            break
        rnd = state.round
        assert rnd is not None
        if state.phase is Phase.REVEAL:
            state, _ = apply(
                state, Timeout(round_no=rnd.no, phase=Phase.REVEAL), state.deadline or 0
            )
            continue
        if movers.get(rnd.seat, "ai") == "ai":
            commands = ai.decide(state, rnd.seat, seed * 1000 + rnd.no, level)
            assert commands and isinstance(commands[-1], EndTurn | Pass)
            stones = [c for c in commands if isinstance(c, PlaceStone)]
            assert len(stones) <= rnd.allotment
        else:
            commands = [c for c in random_turn(state, rng) if not isinstance(c, Timeout)]
        for command in commands:
            try:
                state, _ = apply(state, command, 0)
            except Exception:
                assert movers.get(rnd.seat, "ai") != "ai", command
                break
        else:
            continue
        if state.round is rnd or (state.round and state.round.no == rnd.no):
            state, _ = apply(state, Pass(user_id=state.seats[rnd.seat].user_id), 0)
    return state


@pytest.mark.parametrize(("seats", "level"), [(2, 3), (3, 1), (4, 2)])
def test_ai_seats_play_whole_games_with_legal_turns(seats: int, level: int) -> None:
    game = a_game().with_players(seats).first(None).with_settings(size=5).started()
    state = play_out(game.state, {}, seed=seats, level=level)
    assert state.phase in OVER_PHASES and state.end_reason in ("board_full", "all_passed")


def test_ai_seats_play_legal_turns_on_the_largest_board() -> None:
    game = a_game().with_players(4).with_settings(size=8).started()
    state = play_out(game.state, {}, seed=8, limit=12)
    assert state.round is not None and state.round.no >= 12


def test_the_same_turn_for_the_same_seed_and_nothing_owed_off_turn() -> None:
    game = a_game().with_players(3).with_settings(size=6).started()
    state = game.state
    seat = state.round.seat if state.round else 0
    first = ai.decide(state, seat, 42)
    assert first == ai.decide(state, seat, 42)
    assert ai.decide(state, (seat + 1) % 3, 42) == []
    assert ai.state_seed(state, seat, -5, 0, 3) == ai.state_seed(state, seat, -5, 0, 3)
    assert ai.state_seed(state, seat, -5, 0, 3) != ai.state_seed(state, seat, -5, 0, 4)
    ended = a_game().started().pass_turn().pass_turn()
    assert ended.state.phase is Phase.REVEAL and ai.decide(ended.state, 0, 1) == []


def test_it_keeps_the_balancing_rule_on_seat_1s_second_turn() -> None:
    for seed in range(6):
        game = a_game().with_settings(size=5).started().play("a1").play("i5")
        assert game.round.balancing
        commands = ai.decide(game.state, 0, seed, level=3)
        for command in commands:
            game.do(command)  # never refused
        assert game.state.seats[0].chunks <= 1 or game.round.seat == 0


def test_it_passes_when_its_pass_ends_a_game_it_wins_and_plays_on_when_it_would_lose() -> None:
    game = a_game().with_settings(size=5).started().play("a1", colour=1)
    game.pass_turn()  # seat 1 passed with a crumb more than seat 0
    assert [type(c) for c in ai.decide(game.state, 0, 7)] == [Pass]
    game = a_game().with_settings(size=5).started().play("a1", colour=0)
    game.pass_turn()  # seat 0 has a crumb more: passing would lose
    commands = ai.decide(game.state, 0, 7)
    assert isinstance(commands[-1], EndTurn)


def test_merge_paths_find_the_cells_that_join_two_groups() -> None:
    game = a_game().with_settings(size=5).started()
    game.with_board({"a1": 0, "a2": 0, "a5": 0, "b6": 0, "i1": 1, "i2": 1})
    position = ai.Position(5, game.state.colours(), 2)
    paths = ai.merge_paths(position, 0, 3)
    names = [sorted(hexes.geometry(5).names[c] for c in path) for path in paths]
    assert names == [["a3", "a4"]]
    assert ai.merge_paths(position, 0, 1) == []


def test_positions_count_like_the_rules() -> None:
    rng = random.Random(3)
    state, _ = start([(1, "A"), (2, "B"), (3, "C")], Settings(size=6), seed=1, now=0)
    position = ai.Position(6, state.colours(), 3)
    empty = [i for i, c in enumerate(state.board) if c == "."]
    for cell in rng.sample(empty, 60):
        colour = rng.randrange(3)
        expected = position.effect(cell, colour)
        before = (position.chunks[colour], position.crumbs[colour])
        position.place(cell, colour)
        assert (
            position.chunks[colour] - before[0],
            position.crumbs[colour] - before[1],
        ) == expected
    for colour in range(3):
        assert position.score_list(colour) == hexes.score_of_sizes(
            hexes.sizes_of(position.board, colour, 6)
        )


def test_it_beats_a_random_player() -> None:
    wins = 0
    for seed in range(6):
        game = a_game().with_settings(size=5).first(seed % 2).started()
        state = play_out(game.state, {0: "ai", 1: "random"}, seed=seed)
        assert state.phase in OVER_PHASES
        wins += winners(state) == [0]
    assert wins >= 5


def test_the_mind_plays_in_a_room_at_the_table() -> None:
    room, _ = apply_at(None, OpenLobby(chat_id=-5, user_id=1, name="P1", seed=3, game="wunchunk"),
                       0.0, TABLE)  # fmt: skip
    room, _ = apply_at(room, AddAI(user_id=1), 0.0, TABLE)
    room, _ = apply_at(room, StartGame(user_id=1), 1.0, TABLE)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    moment = TABLE["wunchunk"].moment(room)
    assert moment is not None and moment.waiting == [state.round.seat]
    seat = 1
    commands: list[Command] = MINDS["wunchunk"](room, seat)
    if state.round.seat != seat:
        assert commands == []
        human = state.seats[0].user_id
        room, _ = apply_at(room, Pass(user_id=human), 2.0, TABLE)
        commands = MINDS["wunchunk"](room, seat)
    assert commands and isinstance(commands[-1], EndTurn | Pass)
    for command in commands:
        room, _ = apply_at(room, command, 3.0, TABLE)
    assert isinstance(room.play, State) and room.play.round is not None
    assert room.play.round.seat == 0 or room.play.phase is Phase.REVEAL
