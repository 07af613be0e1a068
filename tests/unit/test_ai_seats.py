"""AI seats at the table: added and removed in the lobby, counted toward the minimum, never
toward figures, and a game without a human left is abandoned."""

import pytest

from engine.commands import AddAI, ChangeSettings, Leave, RemoveAI, StartGame
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.commands import PlayDecoy
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.hintrigue.settings import settings_of
from engine.games.hintrigue.views import waiting_for
from engine.games.registry import GAMES
from engine.model import AI_USER_ID, Room, SeatStatus, is_ai_user
from engine.model import Phase as TablePhase
from engine.store import Store
from engine.store.stats import counted_seats
from tests.builders import a_room, user
from tests.table import apply, parse_changes


def refused(game, command, code):
    before = game.room.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.room, command, game.now)
    assert caught.value.code is code
    assert game.room.model_dump_json() == before


def test_the_creator_adds_ai_seats_named_as_ai_with_ids_no_telegram_user_has():
    game = a_room().with_players(1).in_lobby()
    game.do(AddAI(user_id=user(0)))
    game.do(AddAI(user_id=user(0)))
    ai = game.room.seats[1:]
    assert [s.name for s in ai] == ["🤖 Iris", "🤖 Otto"]
    assert all(s.ai and is_ai_user(s.user_id) and s.user_id <= AI_USER_ID for s in ai)
    assert len({s.user_id for s in game.room.seats}) == 3
    assert not is_ai_user(user(0))


def test_only_the_creator_or_an_admin_adds_or_removes_ai_seats():
    game = a_room().with_players(2).in_lobby()
    refused(game, AddAI(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(AddAI(user_id=user(1), is_admin=True))
    refused(game, RemoveAI(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(RemoveAI(user_id=user(0)))
    assert game.room.ai_seats() == []
    refused(game, RemoveAI(user_id=user(0)), ErrorCode.STALE)


def test_a_full_room_takes_no_ai_seat():
    game = a_room().with_players(3).with_settings(max_seats=3).in_lobby()
    refused(game, AddAI(user_id=user(0)), ErrorCode.ROOM_FULL)


def test_settings_ai_sets_the_number_of_ai_seats_within_the_seats_left():
    game = a_room().with_players(2).with_settings(max_seats=5).in_lobby()
    game.do(ChangeSettings(user_id=user(0), changes=parse_changes("ai=3")))
    assert len(game.room.ai_seats()) == 3
    game.do(ChangeSettings(user_id=user(0), changes={"ai": 1}))
    assert [s.name for s in game.room.seats] == ["P0", "P1", "🤖 Iris"]
    refused(game, ChangeSettings(user_id=user(0), changes={"ai": 4}), ErrorCode.BAD_SETTING)
    refused(game, ChangeSettings(user_id=user(0), changes={"ai": -1}), ErrorCode.BAD_SETTING)
    game.do(ChangeSettings(user_id=user(0), changes={"ai": 0}))
    assert game.room.ai_seats() == []


def test_removed_names_are_taken_again_and_stay_distinct():
    game = a_room().with_players(1).in_lobby()
    game.do(ChangeSettings(user_id=user(0), changes={"ai": 3}))
    game.do(ChangeSettings(user_id=user(0), changes={"ai": 2}))
    game.do(AddAI(user_id=user(0)))
    names = [s.name for s in game.room.seats]
    ids = [s.user_id for s in game.room.seats]
    assert len(set(names)) == len(names) == 4 and len(set(ids)) == 4


def test_ai_seats_count_toward_the_minimum_and_play():
    game = a_room().with_players(1).in_lobby()
    refused(game, StartGame(user_id=user(0)), ErrorCode.NOT_ENOUGH_PLAYERS)
    game.do(AddAI(user_id=user(0)))
    game.do(AddAI(user_id=user(0)))
    game.do(StartGame(user_id=user(0)))
    assert phase_of(game.room) is Phase.HINT
    assert all(len(s.hand) == settings_of(game.room).hand_size for s in own_seats(game.room))


def test_a_lobby_left_with_only_ai_seats_closes_and_the_creator_stays_human():
    game = a_room().with_players(2).in_lobby()
    game.do(AddAI(user_id=user(0)))
    game.do(Leave(user_id=user(0)))
    assert game.room.creator == user(1)
    game.do(Leave(user_id=user(1)))
    assert game.room.phase is TablePhase.CLOSED


def test_a_game_with_no_active_human_left_is_abandoned():
    game = a_room().with_players(1).in_lobby()
    for _ in range(3):
        game.do(AddAI(user_id=user(0)))
    game.do(StartGame(user_id=user(0)))
    events = game.do(Leave(user_id=user(0)))
    assert game.room.phase is TablePhase.ABANDONED
    assert any(e.kind == "game_abandoned" for e in events)


def finished(seats: list[tuple[str, bool]]) -> Room:
    game = a_room().with_players(1).in_lobby()
    room = game.room.clone()
    room.seats = []
    for i, (name, ai) in enumerate(seats):
        seat = game.room.seats[0].model_copy(
            update={"user_id": (AI_USER_ID - i) if ai else 100 + i, "name": name, "ai": ai}
        )
        room.seats.append(seat)
    room.phase = TablePhase.FINISHED
    return room


def test_figures_count_only_human_seats_and_need_two_humans():
    assert counted_seats(finished([("Ann", False), ("🤖 Iris", True), ("Bob", False)])) == [0, 2]
    assert counted_seats(finished([("Ann", False), ("🤖 Iris", True), ("🤖 Otto", True)])) == []


def test_ai_seats_stay_out_of_the_player_index():
    game = a_room().with_players(1).in_lobby()
    game.do(AddAI(user_id=user(0)))
    ops = Store._player_ops(game.room, game.events)
    assert ops == [(user(0), "set")]
    game.do(RemoveAI(user_id=user(0)))
    assert Store._player_ops(game.room, game.events) == [(user(0), "set")]


def test_the_room_waits_for_ai_seats_like_any_other():
    game = a_room().with_players(1).in_lobby()
    game.do(AddAI(user_id=user(0)))
    game.do(AddAI(user_id=user(0)))
    game.do(StartGame(user_id=user(0)))
    assert waiting_for(game.room) == [round_of(game.room).storyteller]
    assert all(s.status is SeatStatus.PLAYING for s in game.room.seats)


def test_old_rooms_load_without_the_ai_flag():
    game = a_room().with_players(3).in_lobby()
    raw = game.room.model_dump(mode="json")
    for seat in raw["seats"]:
        del seat["ai"]
    room = GAMES.load_room(raw)
    assert not any(s.ai for s in room.seats)


def test_an_ai_move_is_set_for_the_same_moment_and_id_however_often_the_room_commits():
    from workers.dispatch import ai_job_id, ai_moment, ai_turn

    for seed in range(1, 50):  # a game where a person tells first: the AI plays a decoy
        game = a_room().with_players(2).with_seed(seed).in_lobby()
        game.do(AddAI(user_id=user(0)))
        game.do(StartGame(user_id=user(0)))
        teller = round_of(game.room).storyteller
        if teller != 2:
            break
    game.give_hint()
    turn = ai_turn(game.room, GAMES)
    assert turn is not None and turn.phase == "decoys" and turn.waiting == [2]
    moment, job = ai_moment(game.room, turn, 2), ai_job_id(game.room, turn, 2)
    assert game.room.phase_at < moment <= game.room.phase_at + 5 * game.room.timer_scale
    others = [i for i in range(2) if i != teller]
    game.now += 1
    game.do(PlayDecoy(user_id=user(others[0]), card=own_seats(game.room)[others[0]].hand[0]))
    again = ai_turn(game.room, GAMES)
    assert again is not None and again.waiting == [2]
    assert (ai_moment(game.room, again, 2), ai_job_id(game.room, again, 2)) == (moment, job)
    game.do(PlayDecoy(user_id=AI_USER_ID, card=own_seats(game.room)[2].hand[0]))
    after = ai_turn(game.room, GAMES)
    assert after is not None and after.phase == "voting" and 2 in after.waiting
    assert ai_job_id(game.room, after, 2) != job


def test_no_message_is_addressed_to_an_ai_seat_and_the_lobby_offers_its_buttons():
    from tgbot.games.registry import LINEUP
    from tgbot.table.effects import outgoing_for
    from tgbot.table.render import Look, lobby

    look = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP)
    game = a_room().with_players(1).in_lobby()
    labels = [b.text for row in lobby(game.room, look).buttons for b in row]
    assert "🤖 Add AI" in labels and "Remove AI" not in labels
    game.do(AddAI(user_id=user(0)))
    labels = [b.text for row in lobby(game.room, look).buttons for b in row]
    assert "Remove AI" in labels
    game.do(AddAI(user_id=user(0)))
    events = game.do(StartGame(user_id=user(0)))
    shown = outgoing_for(game.room, events, look)
    ai = {s.user_id for s in game.room.seats if s.ai}
    assert shown and not any(o.chat_id in ai for o in shown)
    if round_of(game.room).storyteller == 0:  # the hint sends the AI seats their decoy prompts
        game.give_hint()
        shown = outgoing_for(game.room, game.events, look)
        assert any(o.chat_id == user(0) for o in shown)
        assert not any(o.chat_id in ai for o in shown)
