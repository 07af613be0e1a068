"""Forum topics as rooms: how a room is named and found, and a deleted topic's game."""

import json

import pytest

from engine.commands import TopicGone
from engine.errors import ErrorCode, RuleError
from engine.events import LobbyClosed
from engine.games.hintrigue.events import GameAbandoned
from engine.model import Phase as TablePhase
from engine.roomid import RoomId
from engine.store import keys
from tests.builders import a_room
from tests.table import apply
from tgbot.games.registry import LINEUP
from tgbot.ingress.inbox import route

CHAT = -1001234567890


def test_a_chats_own_room_is_written_as_the_chat_id_as_before_topics():
    assert str(RoomId(CHAT)) == str(CHAT) and RoomId(CHAT).thread_id is None
    assert str(RoomId(CHAT, 77)) == f"{CHAT}_77" and RoomId(CHAT, 77).thread_id == 77
    assert keys.room(RoomId(CHAT)) == keys.room(CHAT)  # rooms stored before load unchanged
    assert keys.room(RoomId(CHAT, 77)) != keys.room(CHAT)
    for room in (RoomId(CHAT), RoomId(CHAT, 77), RoomId(42)):
        assert RoomId.parse(str(room)) == room == RoomId.parse(str(room).encode())
    assert RoomId.parse(CHAT) == RoomId(CHAT)


@pytest.mark.parametrize("written", ["", "x", "-100_", "-100_0", "-100_-5", "1_2_3", " -100"])
def test_what_is_not_a_room_is_refused(written):
    with pytest.raises(ValueError):
        RoomId.parse(written)


def test_the_topic_comes_from_the_thread_id_only_in_a_topic_message():
    assert RoomId.of_message(CHAT, 77, True) == RoomId(CHAT, 77)
    # A reply thread of an ordinary supergroup carries a thread id, but is no topic.
    assert RoomId.of_message(CHAT, 77, None) == RoomId(CHAT)
    assert RoomId.of_message(CHAT, 77, False) == RoomId(CHAT)
    assert RoomId.of_message(CHAT, None, None) == RoomId(CHAT)  # a forum's General topic


def message(thread: int | None = None, topic: bool | None = None, chat: int = CHAT) -> dict:
    body = {
        "message_id": 5,
        "date": 0,
        "chat": {"id": chat, "type": "supergroup"},
        "from": {"id": 7, "is_bot": False, "first_name": "Ann"},
        "text": "/newgame",
    }
    if thread is not None:
        body["message_thread_id"] = thread
    if topic is not None:
        body["is_topic_message"] = topic
    return body


def test_the_webhook_routes_an_update_to_its_topics_room():
    assert route({"update_id": 1, "message": message(77, True)}) == (RoomId(CHAT, 77), 7)
    assert route({"update_id": 1, "message": message(77)}) == (RoomId(CHAT), 7)
    assert route({"update_id": 1, "message": message()}) == (RoomId(CHAT), 7)
    press = {
        "id": "1",
        "from": {"id": 8, "is_bot": False, "first_name": "Bo"},
        "chat_instance": "1",
        "data": "x",
        "message": message(77, True),
    }
    assert route({"update_id": 2, "callback_query": press}) == (RoomId(CHAT, 77), 8)
    private = message(chat=7)
    assert route(json.loads(json.dumps({"update_id": 3, "message": private}))) == (RoomId(7), 7)


def test_a_private_button_names_a_topics_room_and_still_fits_in_64_bytes():
    key = b"k" * 32
    data = LINEUP.codec.encode(key, "decoy", CHAT, 12, 199, 1_073_741_823, 2_147_483_647)
    assert len(data.encode()) <= 64
    assert LINEUP.codec.decode(key, data).args == (CHAT, 12, 199, 1_073_741_823, 2_147_483_647)
    with pytest.raises(ValueError):
        LINEUP.codec.encode(key, "vote", 1, 2, 3, 4)  # a group button's room is its message's


def test_a_deleted_topic_abandons_its_running_game():
    game = a_room().in_hint()
    game.do(TopicGone())
    assert game.room.phase is TablePhase.ABANDONED and game.room.end_reason == "topic_gone"
    assert any(isinstance(e, GameAbandoned) and e.reason == "topic_gone" for e in game.events)
    with pytest.raises(RuleError) as caught:
        apply(game.room, TopicGone(), game.now)  # reported again by a later message: nothing
    assert caught.value.code is ErrorCode.NO_GAME


def test_a_deleted_topic_closes_its_lobby():
    game = a_room().in_lobby()
    game.do(TopicGone())
    assert game.room.phase is TablePhase.CLOSED
    assert any(isinstance(e, LobbyClosed) and e.reason == "topic_gone" for e in game.events)
