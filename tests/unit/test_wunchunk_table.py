"""Wunchunk at the table (with a line-up of its own until its Telegram side is registered): a
lobby of two to four, its own settings, a whole game run by `engine.rules.apply` with its
figures, text typed in private read as stones, the shared commands."""

from __future__ import annotations

import json
from typing import Any

import fakeredis
import pytest

from engine.commands import (
    AddAI,
    ChangeSettings,
    GiveHint,
    Join,
    Leave,
    OpenLobby,
    StartGame,
    Timeout,
)
from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent
from engine.games.wunchunk import board
from engine.games.wunchunk import commands as wc
from engine.games.wunchunk.model import Phase as OwnPhase
from engine.games.wunchunk.model import Settings, State
from engine.games.wunchunk.table import GAME
from engine.model import OVER_PHASES, Phase, Room
from engine.rules import apply as apply_at
from engine.store import Store, stats
from tests.wunchunk_builders import TABLE
from tgbot.table.render.community import top

CHAT = -1009


def apply(room: Room | None, command: Any, now: float) -> tuple[Room, list[AnyEvent]]:
    return apply_at(room, command, now, TABLE)


def lobby(players: int = 2, **game_settings: object) -> Room:
    opened = OpenLobby(chat_id=-5, user_id=1, name="P1", seed=11, game="wunchunk",
                       game_settings=game_settings)  # fmt: skip
    room, _ = apply(None, opened, 0.0)
    for user in range(2, players + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), 0.0)
    return room


def test_the_game_names_its_own_bounds_and_figures() -> None:
    assert (GAME.min_seats, GAME.max_seats) == (2, 4)
    assert GAME.figures == ("games", "wins", "fewest")
    assert GAME.timed_events == frozenset({"turn_started", "game_ended"})
    assert TABLE["hintrigue"].min_seats == 3  # the other games keep the table's three


def test_two_players_start_and_a_fifth_cannot_join() -> None:
    room = lobby(players=1)
    with pytest.raises(RuleError) as refused:
        apply(room, StartGame(user_id=1), 1.0)
    assert refused.value.code is ErrorCode.NOT_ENOUGH_PLAYERS
    room = lobby(players=4)
    with pytest.raises(RuleError) as refused:
        apply(room, Join(user_id=5, name="P5"), 1.0)
    assert refused.value.code is ErrorCode.ROOM_FULL
    with pytest.raises(RuleError) as refused:
        apply(room, AddAI(user_id=1), 1.0)
    assert refused.value.code is ErrorCode.ROOM_FULL
    room = lobby(players=2)
    room, events = apply(room, StartGame(user_id=1), 1.0)
    assert room.phase is Phase.PLAYING and isinstance(room.play, State)
    assert room.play.size == 6 and [e.kind for e in events][:2] == ["game_started", "turn_started"]


def test_a_lobby_keeps_its_own_settings() -> None:
    room = lobby(players=3, size=5)
    assert isinstance(room.game_settings, Settings) and room.game_settings.size == 5
    room, _ = apply(room, ChangeSettings(user_id=1, changes={"size": 7, "turn_s": 60}), 1)
    with pytest.raises(RuleError) as refused:
        apply(room, ChangeSettings(user_id=1, changes={"size": 4}), 1)
    assert refused.value.code is ErrorCode.BAD_SETTING
    room, _ = apply(room, StartGame(user_id=1), 2.0)
    assert isinstance(room.play, State) and room.play.size == 7
    assert room.deadline == 2.0 + 60


def test_a_whole_game_at_the_table_ends_with_its_standings_and_figures() -> None:
    room = lobby(players=3, size=5)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    now = 1.0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, State) and state.round is not None
        assert GAME.timer(room) == (state.round.no, state.phase.value)
        moment = GAME.moment(room)
        assert moment is not None and moment.waiting == state.waiting_for()
        uid = state.seats[state.round.seat].user_id
        if state.phase is OwnPhase.REVEAL:
            now = state.deadline or now
            command: Any = Timeout(round_no=state.round.no, phase="reveal")
        elif state.round.no < 12:
            empty = [i for i, c in enumerate(state.board) if c == "."]
            names = " ".join(f"{state.round.no % 3 + 1}:" + _name(state, i)
                             for i in empty[: state.round.allotment])  # fmt: skip
            command = GiveHint(user_id=uid, text=names)  # typed in private
            room, _ = apply(TABLE.parse_room(room.model_dump_json()), command, now)
            command = wc.EndTurn(user_id=uid)
        else:
            command = wc.Pass(user_id=uid)
        room, _ = apply(TABLE.parse_room(room.model_dump_json()), command, now)
        now += 1
    state = room.play
    assert isinstance(state, State) and room.phase is Phase.FINISHED
    assert [s.score for s in room.seats] == [s.score for s in state.seats]
    won = set(GAME.winners(room))
    assert won and all(state.seats[i].score == max(s.score for s in state.seats) for i in won)
    ops = dict(stats.increments(room, GAME, 100.0))
    per_user = {key: json.loads(op) for key, op in ops.items() if ":stats:user:" in key}
    for seat in state.seats:
        op = next(v for k, v in per_user.items() if k.endswith(f":{seat.user_id}"))
        assert op["incr"] == {"wunchunk:games": 1, "wunchunk:wins": int(seat.user_id in
                              {state.seats[i].user_id for i in won})}  # fmt: skip
        assert op["min"] == {"wunchunk:fewest": seat.chunks}
    figures = stats.player_figures({"wunchunk:games": 2, "wunchunk:fewest": 3}, "hintrigue")
    assert figures == {"wunchunk": {"games": 2, "fewest": 3}}


def _name(state: State, number: int) -> str:
    return board.geometry(state.size).names[number]


def test_typed_text_that_names_no_stone_is_refused_and_leaving_abandons_a_game_of_two() -> None:
    room = lobby(players=2)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    uid = state.seats[state.round.seat].user_id
    with pytest.raises(RuleError) as refused:
        apply(room, GiveHint(user_id=uid, text="hello"), 2.0)
    assert refused.value.code == "no_such_cell"
    room, _ = apply(room, Leave(user_id=uid), 2.0)
    assert room.phase is Phase.ABANDONED


def test_the_fewest_chunks_kept_are_the_smallest_of_a_players_games(
    fake_redis: fakeredis.FakeRedis,
) -> None:
    store = Store(fake_redis, TABLE)
    chunks, others = [], []
    for game in range(2):
        store.execute(CHAT, OpenLobby(chat_id=CHAT, user_id=1, name="P1", seed=game,
                                      game="wunchunk", game_settings={"size": 5}))  # fmt: skip
        store.execute(CHAT, Join(user_id=2, name="P2"))
        room = store.execute(CHAT, StartGame(user_id=1)).room
        now = 10.0
        for turn in range(40 if game == 0 else 0):  # the second game: both pass at once
            state = room.play
            assert isinstance(state, State) and state.round is not None
            if state.phase is not OwnPhase.TURN:
                break
            uid = state.seats[state.round.seat].user_id
            empty = [i for i, c in enumerate(state.board) if c == "."]
            cells = board.geometry(5).cells
            for i in empty[::7][: state.round.allotment]:
                store.execute(CHAT, wc.PlaceStone(user_id=uid, cell=cells[i],
                                                  colour=state.round.seat), now=now)  # fmt: skip
            room = store.execute(CHAT, wc.EndTurn(user_id=uid), now=now).room
            assert turn < 39
        while room.phase is Phase.PLAYING:
            state = room.play
            assert isinstance(state, State) and state.round is not None
            if state.phase is OwnPhase.REVEAL:
                end = Timeout(round_no=state.round.no, phase="reveal")
                room = store.execute(CHAT, end, now=state.deadline).room
            else:
                uid = state.seats[state.round.seat].user_id
                room = store.execute(CHAT, wc.Pass(user_id=uid), now=now).room
        assert room.phase is Phase.FINISHED
        state = room.play
        assert isinstance(state, State)
        chunks.append(state.seats[0].chunks)
        others.append(state.seats[1].chunks)
    assert chunks[0] > chunks[1] == 1
    figures = store.user_stats(1)["wunchunk"]
    assert figures["games"] == 2 and figures["fewest"] == 1
    # /top: the group's fewest chunks at an end per player, beside wins and games
    lines = {line.user_id: line for line in store.leaderboard(CHAT, "wunchunk", now)}
    assert lines[1].games == 2 and lines[1].fewest == 1
    assert lines[2].fewest == min(others)
    shown = top(GAME, list(lines.values()))
    assert "fewest chunks at an end: 1" in shown and "2 games" in shown and "point" not in shown


def test_a_lobby_of_two_starts_at_its_join_time_and_one_alone_closes() -> None:
    room = lobby(players=2)
    assert room.deadline is not None
    room, _ = apply(room, Timeout(round_no=0, phase="lobby"), room.deadline)
    assert room.phase is Phase.PLAYING and isinstance(room.play, State)
    room = lobby(players=1)
    assert room.deadline is not None
    room, _ = apply(room, Timeout(round_no=0, phase="lobby"), room.deadline)
    assert room.phase is Phase.CLOSED and room.end_reason == "too_few"
