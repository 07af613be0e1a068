"""Rooms survive a Redis restart when append-only persistence is on."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import redis

from engine.commands import Join
from engine.games.hintrigue.commands import Vote
from engine.games.registry import GAMES
from engine.model import Phase as TablePhase
from engine.model import Room
from engine.store import Retention, Store, keys
from tests.unit.test_store import (
    NOW,
    finished_game,
    in_hint,
    in_voting,
    loaded,
    open_lobby,
    play_to_end,
    players,
    room_round,
)

LOBBIES, RUNNING, VOTING, FINISHED = range(0, 20), range(20, 40), range(40, 60), range(60, 75)


def chat_of(index: int) -> int:
    return -4_000_000 - index


def fill(store: Store) -> dict[int, Room]:
    """Rooms in every stage, each with an update already applied; return them as stored."""
    for i in LOBBIES:
        chat = chat_of(i)
        open_lobby(store, chat, players(chat, 2), title=f"Lobby {i}")
        store.execute(chat, Join(user_id=abs(chat) * 100 + 50, name="Late"), update_id=i, now=NOW)
    for i in RUNNING:
        in_hint(store, chat_of(i), players(chat_of(i), 3 + i % 3))
    for i in VOTING:
        chat = chat_of(i)
        room = in_voting(store, chat, players(chat, 4), title=f"Voting {i}")
        rnd = room_round(room)
        voter = next(s for s in rnd.participants if s != rnd.storyteller)
        card = rnd.plays[rnd.storyteller]
        store.execute(chat, Vote(user_id=room.seats[voter].user_id, card=card), update_id=i)
    for i in FINISHED:
        finished_game(store, chat_of(i), 3)
    return {chat_of(i): loaded(store, chat_of(i)) for i in range(75)}


def contents(client: redis.Redis) -> dict[bytes, Any]:
    """Every key with its value and whether it expires."""
    found: dict[bytes, Any] = {}
    for key in client.scan_iter(count=1000):
        kind = client.type(key)
        readers = {
            b"hash": client.hgetall,
            b"set": client.smembers,
            b"list": lambda k: client.lrange(k, 0, -1),
            b"zset": lambda k: client.zrange(k, 0, -1, withscores=True),
        }
        value = readers.get(kind, client.get)(key)
        found[key] = (kind, value, client.ttl(key) > 0)
    return found


def restart(server: Any, client: redis.Redis, how: str) -> redis.Redis:
    """Stop the server (killed outright, or shut down) and start it again on the same files."""
    if how == "killed":
        server.kill()
    else:
        with contextlib.suppress(redis.ConnectionError):  # the server hangs up as it stops
            client.shutdown()
        server.process.wait(10)
        server.process = None
    client.close()
    server.start()
    return redis.Redis.from_url(server.url)


@pytest.mark.parametrize(
    ("how", "fsync"), [("killed", "always"), ("shut down", "everysec")], ids=["kill", "shutdown"]
)
def test_every_room_is_there_after_a_redis_restart_with_append_only_persistence(
    redis_server_factory: Any, how: str, fsync: str
) -> None:
    server = redis_server_factory("--appendonly", "yes", "--appendfsync", fsync)
    server.start()
    client = redis.Redis.from_url(server.url)
    rooms = fill(Store(client, GAMES))
    before = contents(client)
    assert len(before) > 300

    client = restart(server, client, how)
    store = Store(client, GAMES)

    assert contents(client) == before
    assert {chat: store.load(chat) for chat in rooms} == rooms
    for i in LOBBIES:
        chat = chat_of(i)
        again = Join(user_id=abs(chat) * 100 + 50, name="Late")
        assert store.execute(chat, again, update_id=i, now=NOW).duplicate
        assert 0 < client.ttl(keys.room(chat)) <= Retention().lobby
    for i in VOTING[:4]:
        assert play_to_end(store, chat_of(i)).phase is TablePhase.FINISHED
    for i in FINISHED:
        assert store.group_stats(chat_of(i))["games"] == 1
    client.close()
