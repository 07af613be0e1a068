"""The join timer: a lobby starts by itself when its join time runs out with enough players,
or closes; /extend gives it a minute more, up to ten minutes after it opened; without a join
timer an idle lobby closes after a day."""

from __future__ import annotations

import pytest

from engine.commands import ChangeSettings, ExtendLobby, OpenedPrivateChat, Timeout
from engine.errors import ErrorCode, RuleError
from engine.events import LobbyClosed, LobbyExtended, PlayerLeftLobby
from engine.games.hintrigue.events import GameStarted
from engine.games.hintrigue.model import Phase, phase_of, round_of
from engine.lobby import IDLE_LOBBY_S
from engine.model import Phase as TablePhase
from tests.builders import Game, a_room, user
from tests.table import apply

TIME_UP = Timeout(round_no=0, phase=TablePhase.LOBBY)


def time_up(game: Game) -> list:
    assert game.room.deadline is not None
    game.now = game.room.deadline
    return game.do(TIME_UP)


def refused(game: Game, command, code: ErrorCode) -> None:
    before = game.room
    with pytest.raises(RuleError) as error:
        apply(game.room, command, game.now)
    assert error.value.code is code
    assert game.room == before


def test_a_lobby_waits_three_minutes_by_default():
    game = a_room().with_players(3).in_lobby()
    assert game.room.deadline == game.room.opened_at + 180


def test_a_lobby_with_enough_players_starts_when_its_time_runs_out():
    game = a_room().with_players(3).in_lobby()
    refused(game.later(179), TIME_UP, ErrorCode.TOO_EARLY)
    events = time_up(game)
    assert any(isinstance(e, GameStarted) for e in events)
    assert phase_of(game.room) is Phase.HINT and round_of(game.room) is not None


def test_a_lobby_with_too_few_players_closes_when_its_time_runs_out():
    game = a_room().with_players(2).in_lobby()
    assert time_up(game)[-1] == LobbyClosed(reason="too_few")
    assert game.room.phase is TablePhase.CLOSED
    refused(game, TIME_UP, ErrorCode.NO_GAME)


def test_who_cannot_get_cards_is_left_out_and_the_others_play():
    game = a_room().with_players(4).in_lobby()
    game.room.seats[3].private_ok = False
    events = time_up(game)
    assert PlayerLeftLobby(user_id=user(3), name="P3") in events
    assert phase_of(game.room) is Phase.HINT and len(game.room.seats) == 3


def test_left_out_below_three_the_lobby_closes():
    game = a_room().with_players(3).in_lobby()
    game.room.seats[1].private_ok = False
    game.do(OpenedPrivateChat(user_id=user(1)))  # one of them opened it in time
    game.room.seats[2].private_ok = False
    assert time_up(game)[-1] == LobbyClosed(reason="too_few")


def test_extend_adds_a_minute_up_to_ten_minutes_after_the_opening():
    game = a_room().with_players(2).in_lobby()
    opened = game.room.opened_at
    assert game.do(ExtendLobby(user_id=user(1))) == [LobbyExtended(deadline=opened + 240)]
    for _ in range(6):
        game.do(ExtendLobby(user_id=user(0)))
    assert game.room.deadline == opened + 600
    refused(game, ExtendLobby(user_id=user(1)), ErrorCode.LOBBY_LONGEST)
    refused(game, ExtendLobby(user_id=999), ErrorCode.NOT_IN_GAME)


def test_a_join_time_changed_late_still_leaves_half_a_minute():
    game = a_room().with_players(3).in_lobby().later(170)
    game.do(ChangeSettings(user_id=user(0), changes={"join_s": 60}))
    assert game.room.deadline == game.now + 30
    game.do(ChangeSettings(user_id=user(0), changes={"join_s": 600}))
    assert game.room.deadline == game.room.opened_at + 600


def test_without_a_join_timer_a_lobby_closes_after_a_day_without_a_move():
    game = a_room().with_players(3).with_settings(join_s=0).in_lobby()
    game.do(ChangeSettings(user_id=user(0), changes={"join_s": 0}))
    assert game.room.deadline == game.now + IDLE_LOBBY_S
    refused(game, ExtendLobby(user_id=user(1)), ErrorCode.NO_JOIN_TIMER)
    game.later(3600).do(ChangeSettings(user_id=user(0), changes={"rotations": 3}))
    assert game.room.deadline == game.now + IDLE_LOBBY_S  # every move starts the day anew
    assert time_up(game)[-1] == LobbyClosed(reason="idle")


def test_timers_are_scaled_the_join_timer_too():
    game = a_room().with_players(3).in_lobby()
    game.room.timer_scale = 0.5
    game.do(ChangeSettings(user_id=user(0), changes={"join_s": 120}))
    assert game.room.deadline == game.room.opened_at + 60


def test_the_join_timer_names_everybody_it_started_without():
    from engine.commands import AwaitJoin

    game = a_room().with_players(4).in_lobby()
    game.room.seats[3].private_ok = False
    game.do(AwaitJoin(user_id=777, name="Dee"))
    events = time_up(game)
    left_out = [e for e in events if e.kind == "joiner_left_out"]
    assert left_out and left_out[0].names == [game.room.seats[0].name.replace("0", "3"), "Dee"]
    assert any(isinstance(e, GameStarted) for e in events)


def test_the_longest_wait_is_told_as_the_rooms_timers_run_it():
    from tgbot.table.handlers.common import error_text

    game = a_room().with_players(2).in_lobby()
    game.room.timer_scale = 0.05
    game.room.deadline = game.room.opened_at + 600 * 0.05
    with pytest.raises(RuleError) as error:
        apply(game.room, ExtendLobby(user_id=user(1)), game.now)
    assert error.value.facts == {"seconds": 30}
    assert (
        error_text(error.value)
        == "The lobby cannot wait longer: it starts at most 30 s after it opened."
    )
