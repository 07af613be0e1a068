"""The languages of an update, read in one round trip (`language.read`): the group's and the
player's in a group; in private, the player's choice, their Telegram language, else the
language of the group of the game they are seated in."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Update

from engine.roomid import RoomId
from engine.store import keys
from tgbot.table.handlers.language import Speakers, read

USER = 4242
GROUP = -1007001


def update(chat: int, language_code: str | None = None) -> Update:
    user: dict[str, Any] = {"id": USER, "is_bot": False, "first_name": "Ann"}
    if language_code is not None:
        user["language_code"] = language_code
    kind = "private" if chat > 0 else "supergroup"
    return Update.de_json({"update_id": 1, "message": {
        "message_id": 5, "date": 0, "chat": {"id": chat, "type": kind}, "from": user,
        "text": "hello"}}, None)  # fmt: skip


class Trips:
    """Counts the commands sent to Redis (a pipeline or a script is one) from now on, once
    Redis knows the script (the first call of a process on a new server loads it)."""

    def __init__(self, client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        read(client, update(USER))
        self.count = 0
        original = type(client).execute_command

        def counted(this: Any, *args: Any, **options: Any) -> Any:
            self.count += 1
            return original(this, *args, **options)

        monkeypatch.setattr(type(client), "execute_command", counted)


def test_a_group_speaks_its_language_and_the_player_theirs(real_redis, monkeypatch) -> None:
    real_redis.set(keys.group_language(GROUP), "de")
    real_redis.set(keys.user_language(USER), "it")
    trips = Trips(real_redis, monkeypatch)
    assert read(real_redis, update(GROUP, "fr")) == Speakers(chat="de", user="it", own="it")
    assert trips.count == 1


def test_a_group_with_a_room_from_before_languages_speaks_english(real_redis) -> None:
    real_redis.hset(keys.room(GROUP), "state", "{}")
    assert read(real_redis, update(GROUP, "fr")) == Speakers(chat="en", user="fr", own="fr")
    real_redis.delete(keys.room(GROUP))
    assert read(real_redis, update(GROUP, "fr")) == Speakers(chat="fr", user="fr", own="fr")


def test_in_private_a_choice_goes_before_telegrams_language(real_redis) -> None:
    assert read(real_redis, update(USER, "es")) == Speakers(chat="es", user="es", own="es")
    real_redis.set(keys.user_language(USER), "ru")
    assert read(real_redis, update(USER, "es")) == Speakers(chat="ru", user="ru", own="ru")


@pytest.mark.parametrize("room", [RoomId(GROUP), RoomId(GROUP, 77)])
def test_a_seated_player_without_a_language_hears_their_games_group(real_redis, monkeypatch,
                                                                    room) -> None:  # fmt: skip
    real_redis.set(keys.player(USER), str(room))
    real_redis.set(keys.group_language(GROUP), "pt")
    trips = Trips(real_redis, monkeypatch)
    assert read(real_redis, update(USER)) == Speakers(chat="pt", user="pt", own=None)
    assert trips.count == 1
    real_redis.set(keys.user_language(USER), "xx")  # remembered wrongly: as if none
    assert read(real_redis, update(USER)) == Speakers(chat="pt", user="pt", own=None)


def test_a_player_we_know_nothing_of_hears_english(real_redis) -> None:
    assert read(real_redis, update(USER)) == Speakers(chat="en", user="en", own=None)
    real_redis.set(keys.player(USER), "not a room")
    assert read(real_redis, update(USER)) == Speakers(chat="en", user="en", own=None)
