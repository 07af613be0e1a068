"""The lobby: seats, settings, creator hand-over and starting."""

import pytest

from engine.commands import ChangeSettings, Join, Leave, OpenLobby, StartGame
from engine.errors import ErrorCode, RuleError
from engine.events import CreatorChanged, LobbyClosed
from engine.games.hintrigue.errors import Refusal
from engine.games.hintrigue.model import Phase, Settings, own_seats, phase_of
from engine.games.hintrigue.settings import settings_of
from engine.model import Phase as TablePhase
from tests.builders import CHAT, a_room, card_locations, user
from tests.table import apply, parse_changes


def refused(game, command, code):
    before = game.room.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.room, command, game.now)
    assert caught.value.code is code
    assert game.room.model_dump_json() == before


def test_opening_a_lobby_seats_its_creator():
    room, events = apply(None, OpenLobby(chat_id=CHAT, user_id=5, name="Ann", seed=1), 0.0)
    assert room.phase is TablePhase.LOBBY and room.creator == 5
    assert [s.user_id for s in room.seats] == [5]
    assert events[0].kind == "lobby_opened"


def test_a_second_lobby_in_the_same_group_is_refused():
    game = a_room().in_lobby()
    refused(game, OpenLobby(chat_id=CHAT, user_id=9, name="X", seed=1), ErrorCode.GAME_EXISTS)


def test_joining_twice_is_refused():
    game = a_room().with_players(3).in_lobby()
    refused(game, Join(user_id=user(1), name="P1"), ErrorCode.ALREADY_JOINED)


def test_a_full_room_refuses_another_player():
    game = a_room().with_players(3).with_settings(max_seats=3).in_lobby()
    refused(game, Join(user_id=999, name="Late"), ErrorCode.ROOM_FULL)


def test_starting_with_fewer_than_three_players_is_refused():
    game = a_room().with_players(2).in_lobby()
    refused(game, StartGame(user_id=user(0)), ErrorCode.NOT_ENOUGH_PLAYERS)


def test_only_the_creator_or_an_admin_may_start():
    game = a_room().with_players(3).in_lobby()
    refused(game, StartGame(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(StartGame(user_id=user(2), is_admin=True))
    assert phase_of(game.room) is Phase.HINT


def test_starting_deals_every_seat_a_full_hand_and_keeps_every_card_once():
    game = a_room().with_players(5).with_settings(hand_size=7).in_hint()
    assert all(len(s.hand) == 7 for s in own_seats(game.room))
    cards = card_locations(game.room)
    assert sorted(cards) == list(range(283))


def test_the_creator_leaving_hands_the_lobby_to_the_earliest_remaining_player():
    game = a_room().with_players(3).in_lobby()
    events = game.do(Leave(user_id=user(0)))
    assert game.room.creator == user(1)
    assert any(isinstance(e, CreatorChanged) for e in events)


def test_an_empty_lobby_closes():
    game = a_room().with_players(1).in_lobby()
    events = game.do(Leave(user_id=user(0)))
    assert game.room.phase is TablePhase.CLOSED
    assert any(isinstance(e, LobbyClosed) for e in events)


def test_settings_change_within_bounds():
    game = a_room().in_lobby()
    game.do(ChangeSettings(user_id=user(0), changes={"rotations": 3, "timers": False}))
    assert settings_of(game.room).rotations == 3 and game.room.settings.timers is False


@pytest.mark.parametrize(
    "changes",
    [
        {"rotations": 0},
        {"rotations": 6},
        {"hand_size": 3},
        {"hand_size": 9},
        {"max_seats": 11},
        {"hint_s": 5},
        {"deck": "nope"},
        {"colour": 1},
        {"timers": 3},
    ],
)
def test_settings_out_of_bounds_are_refused(changes):
    game = a_room().in_lobby()
    refused(game, ChangeSettings(user_id=user(0), changes=changes), ErrorCode.BAD_SETTING)


def test_a_deck_smaller_than_max_seats_times_hand_plus_one_is_refused():
    game = a_room().in_lobby()
    refused(
        game, ChangeSettings(user_id=user(0), changes={"deck": "short"}), Refusal.DECK_TOO_SMALL
    )
    game.do(ChangeSettings(user_id=user(0), changes={"max_seats": 6, "deck": "short"}))
    assert settings_of(game.room).deck == "short"


def test_settings_belong_to_the_creator_or_an_admin():
    game = a_room().in_lobby()
    refused(game, ChangeSettings(user_id=user(1), changes={"rotations": 1}), ErrorCode.NOT_ALLOWED)


def test_settings_text_is_parsed_with_aliases():
    assert parse_changes("rotations=3 hint=60 timers=off deck=default") == {
        "rotations": 3,
        "hint_s": 60,
        "timers": False,
        "deck": "default",
    }


@pytest.mark.parametrize("text", ["", "rotations", "speed=3", "hint=soon", "timers=maybe"])
def test_bad_settings_text_is_refused(text):
    with pytest.raises(RuleError) as caught:
        parse_changes(text)
    assert caught.value.code is ErrorCode.BAD_SETTING


def test_the_first_storyteller_is_chosen_by_the_seed():
    firsts = {a_room().with_seed(seed).in_hint().storyteller() for seed in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_a_lobby_starts_from_the_groups_remembered_settings_where_still_valid():
    room, _ = apply(
        None,
        OpenLobby(chat_id=CHAT, user_id=user(0), name="Ann", seed=7, language="de",
                  settings={"rotations": 3, "timers": False, "hint_s": 5, "bogus": 1},
                  game_settings={"rotations": 3, "timers": False, "hint_s": 5, "bogus": 1}),
        1_000.0,
    )  # fmt: skip
    assert settings_of(room).rotations == 3 and room.settings.timers is False
    assert settings_of(room).hint_s == Settings().hint_s  # out of bounds now: the default
    assert room.settings.language == "de"


def test_a_player_without_a_private_chat_waits_unseated_and_is_seated_by_joining():
    from engine.commands import AwaitJoin

    game = a_room().with_players(3).in_lobby()
    events = game.do(AwaitJoin(user_id=777, name="Dee"))
    assert [e.kind for e in events] == ["joiner_waiting"]
    assert game.room.seat_of(777) is None and [w.name for w in game.room.waiting] == ["Dee"]
    refused(game, AwaitJoin(user_id=777, name="Dee"), ErrorCode.STALE)
    refused(game, AwaitJoin(user_id=user(1), name="P1"), ErrorCode.ALREADY_JOINED)
    game.do(Join(user_id=777, name="Dee"))
    assert game.room.waiting == [] and game.room.seat_of(777) == 3


def test_a_waiting_player_who_leaves_is_taken_off_the_list():
    from engine.commands import AwaitJoin

    game = a_room().with_players(3).in_lobby()
    game.do(AwaitJoin(user_id=777, name="Dee"))
    events = game.do(Leave(user_id=777))
    assert [e.kind for e in events] == ["player_left_lobby"]
    assert game.room.waiting == [] and len(game.room.seats) == 3


def test_the_start_does_not_wait_for_a_waiting_player_and_names_them():
    from engine.commands import AwaitJoin

    game = a_room().with_players(3).in_lobby()
    game.do(AwaitJoin(user_id=777, name="Dee"))
    events = game.do(StartGame(user_id=user(0)))
    assert events[0].kind == "joiner_left_out" and events[0].names == ["Dee"]
    assert phase_of(game.room) is Phase.HINT and game.room.waiting == []
    assert game.room.seat_of(777) is None


def test_the_waiting_list_is_no_longer_than_the_table():
    from engine.commands import AwaitJoin

    game = a_room().with_players(3).with_settings(max_seats=4).in_lobby()
    for k in range(4):
        game.do(AwaitJoin(user_id=700 + k, name=f"W{k}"))
    refused(game, AwaitJoin(user_id=799, name="W9"), ErrorCode.ROOM_FULL)
