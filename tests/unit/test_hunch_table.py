"""Hunch! at the table, hosted beside the bot's games by a line-up of its own (it has no
Telegram side yet, so the bot's registry does not name it): a lobby of three to six, its own
settings, a whole game run by `engine.rules.apply`, its figures and winners."""

from __future__ import annotations

from typing import Any

import pytest

from engine.commands import ChangeSettings, GiveHint, Join, OpenLobby, StartGame, Timeout
from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent
from engine.games.hunch import commands as own
from engine.games.hunch.model import Phase as OwnPhase
from engine.games.hunch.model import Settings, State
from engine.games.hunch.table import GAME
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Phase, Room
from engine.rules import apply as apply_at
from tests.hunch_builders import TABLE, next_move


def apply(room: Room | None, command: Any, now: float) -> tuple[Room, list[AnyEvent]]:
    return apply_at(room, command, now, TABLE)


def lobby(players: int = 3, **game_settings: object) -> Room:
    opened = OpenLobby(chat_id=-5, user_id=1, name="P1", seed=11, game="hunch",
                       game_settings=game_settings)  # fmt: skip
    room, _ = apply(None, opened, 0.0)
    for user in range(2, players + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), 0.0)
    return room


def test_the_game_names_its_bounds_and_figures_and_the_bot_hosts_it() -> None:
    assert (GAME.min_seats, GAME.max_seats) == (3, 6)
    assert GAME.figures == ("games", "wins", "vp", "guessed", "exposed")
    assert GAME.switches == frozenset({"advanced"})
    assert GAMES["hunch"] is GAME and "hunch" in TABLE


def test_three_to_six_players_start_a_game() -> None:
    room = lobby(players=2)
    with pytest.raises(RuleError) as refused:
        apply(room, StartGame(user_id=1), 1.0)
    assert refused.value.code is ErrorCode.NOT_ENOUGH_PLAYERS
    room = lobby(players=6)
    with pytest.raises(RuleError) as refused:
        apply(room, Join(user_id=7, name="P7"), 1.0)
    assert refused.value.code is ErrorCode.ROOM_FULL
    room, events = apply(lobby(players=3), StartGame(user_id=1), 1.0)
    assert room.phase is Phase.PLAYING and isinstance(room.play, State)
    assert room.play.phase is OwnPhase.SECRETS and events[0].kind == "game_started"


def test_a_lobby_keeps_the_advanced_switch_and_the_timers() -> None:
    room = lobby(players=3)
    room, _ = apply(room, ChangeSettings(user_id=1, changes={"advanced": True, "bid_s": 30}), 1)
    assert isinstance(room.game_settings, Settings)
    assert room.game_settings.advanced and room.game_settings.bid_s == 30
    with pytest.raises(RuleError):
        apply(room, ChangeSettings(user_id=1, changes={"bid_s": 1}), 1)
    room, _ = apply(room, StartGame(user_id=1), 2.0)
    assert isinstance(room.play, State) and room.play.settings.advanced


def test_text_typed_in_the_clue_phase_is_a_clue() -> None:
    room, _ = apply(lobby(players=3), StartGame(user_id=1), 1.0)
    for user in (1, 2, 3):
        for card in range(3):
            room, _ = apply(room, own.ChooseSecret(user_id=user, card=card, word=0), 1.0)
    assert isinstance(room.play, State) and room.play.phase is OwnPhase.CLUES
    room, events = apply(room, GiveHint(user_id=2, text="zq"), 2.0)
    assert isinstance(room.play, State) and room.play.seats[1].texts[0] == "zq"
    assert [e.kind for e in events] == ["hunch_clue_written"]
    # The next text goes on the second card; then on the last one, or on the card it names.
    for text, expected in [("qx", ["zq", "qx"]), ("vv", ["zq", "vv"]), ("1: zz", ["zz", "vv"]),
                           (" 2 :  wq ", ["zz", "wq"]), ("2:00 am", ["zz", "2:00 am"]),
                           ("3: kk", ["zz", "3: kk"]), ("1:", ["zz", "1:"])]:  # fmt: skip
        room, _ = apply(room, GiveHint(user_id=2, text=text), 3.0)
        assert isinstance(room.play, State) and room.play.seats[1].texts == expected, text


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_whole_game_runs_at_the_table_and_counts_its_figures(players: int) -> None:
    room, _ = apply(lobby(players=players), StartGame(user_id=1), 1.0)
    now = 1.0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, State)
        command, now = next_move(state, now)
        if isinstance(command, own.Timeout):
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        room, _ = apply(room, command, now)
        room = TABLE.parse_room(room.model_dump_json())
    state = room.play
    assert isinstance(state, State) and room.phase is Phase.FINISHED
    assert [seat.score for seat in room.seats] == [seat.vp for seat in state.seats]
    winners = GAME.winners(room)
    assert winners and all(state.seats[i].vp == max(s.vp for s in state.seats) for i in winners)
    figures = GAME.seat_figures(room, 0)
    assert set(figures) == {"vp", "guessed", "exposed"} and figures["vp"] == state.seats[0].vp
    assert sum(s.exposed for s in state.seats) == state.guessed_total > 0
