"""The Redis store on the real Redis: the commit script, real expiry, and races between
processes and threads."""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from typing import Any

import pytest
import redis

from engine.commands import Join, Leave
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.model import Phase, phase_of
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import DAY, CorruptRoom, Retention, Store, keys
from tests.conftest import test_redis_url as redis_url
from tests.unit.test_store import (
    NOW,
    finished_game,
    in_hint,
    loaded,
    open_lobby,
    players,
)

CHAT, OTHER = -1001, -1002


def wait_until(condition: Any, timeout: float = 5.0) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass; return whether it held."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def test_a_whole_game_runs_through_the_commit_script_on_the_real_redis(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES)
    room = finished_game(store, CHAT, 4, title="Real")
    assert store.group_stats(CHAT)["games"] == 1
    assert store.group_stats(CHAT)["points"] == sum(s.score for s in room.seats) > 0
    assert [store.user_stats(s.user_id)["hintrigue"]["points"] for s in room.seats] == [
        s.score for s in room.seats
    ]
    assert [store.room_of_player(s.user_id) for s in room.seats] == [None] * 4
    assert 7 * DAY - 5 <= real_redis.ttl(keys.room(CHAT)) <= 7 * DAY
    assert loaded(store, CHAT) == room


def test_an_update_delivered_twice_is_applied_once_on_the_real_redis(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES)
    open_lobby(store, CHAT, players(CHAT, 2))
    outcomes = [store.execute(CHAT, Join(user_id=77, name="E"), update_id=9) for _ in range(3)]
    assert [o.duplicate for o in outcomes] == [False, True, True]
    assert [s.user_id for s in loaded(store, CHAT).seats].count(77) == 1
    assert store.remembered_for(CHAT, 9) >= DAY - 5


def test_a_lobby_and_its_player_index_really_expire(real_redis: redis.Redis) -> None:
    store = Store(real_redis, GAMES, retention=Retention(lobby=1))
    users = players(CHAT, 2)
    open_lobby(store, CHAT, users)
    assert store.load(CHAT) is not None and store.room_of_player(users[1]) == RoomId(CHAT)
    assert wait_until(lambda: store.load(CHAT) is None)
    assert wait_until(lambda: store.room_of_player(users[1]) is None)
    open_lobby(store, OTHER, [users[1]])
    assert store.room_of_player(users[1]) == RoomId(OTHER)


def test_a_finished_room_really_expires_but_its_lifetime_stats_stay(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES, retention=Retention(finished_room=1))
    finished_game(store, CHAT)
    assert store.load(CHAT) is not None
    assert wait_until(lambda: store.load(CHAT) is None)
    assert store.group_stats(CHAT)["games"] == 1
    assert store.user_stats(players(CHAT, 1)[0])["hintrigue"]["games"] == 1


def test_a_running_game_does_not_expire_while_a_short_lobby_would(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES, retention=Retention(lobby=1))
    in_hint(store, CHAT, players(CHAT, 3))
    time.sleep(1.3)
    assert phase_of(loaded(store, CHAT)) is Phase.HINT
    assert store.room_of_player(players(CHAT, 3)[2]) == RoomId(CHAT)


# --- a second delivery on another process while the first is still running --------------------


def _slow_delivery(url: str, update_id: int, read: Any, go: Any, results: Any) -> None:
    """Deliver a join, pausing between reading the room and committing until told to go on."""

    def clock() -> float:
        read.set()
        go.wait(10)
        return NOW

    store = Store(redis.Redis.from_url(url), GAMES, clock=clock)
    outcome = store.execute(CHAT, Join(user_id=4242, name="Echo"), update_id=update_id)
    results.put(("slow", outcome.duplicate, [e.kind for e in outcome.events], store.conflicts))


def _quick_delivery(url: str, update_id: int, results: Any) -> None:
    """Deliver the same join at once."""
    store = Store(redis.Redis.from_url(url), GAMES)
    outcome = store.execute(CHAT, Join(user_id=4242, name="Echo"), update_id=update_id, now=NOW)
    results.put(("quick", outcome.duplicate, [e.kind for e in outcome.events], store.conflicts))


def test_a_second_delivery_on_another_process_while_the_first_runs_is_applied_once(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES)
    before = open_lobby(store, CHAT, players(CHAT, 2))
    context = multiprocessing.get_context("spawn")
    read, go, results = context.Event(), context.Event(), context.Queue()
    url = redis_url()
    slow = context.Process(target=_slow_delivery, args=(url, 31337, read, go, results))
    slow.start()
    try:
        assert read.wait(30), "the first delivery never read the room"
        quick = context.Process(target=_quick_delivery, args=(url, 31337, results))
        quick.start()
        quick.join(30)
        go.set()
        slow.join(30)
        got = {name: (dup, kinds) for name, dup, kinds, _ in (results.get(timeout=5) for _ in "ab")}
    finally:
        go.set()
        for process in (slow, quick):
            if process.is_alive():
                process.kill()
    assert got == {"quick": (False, ["player_joined"]), "slow": (True, [])}
    room = loaded(store, CHAT)
    assert [s.user_id for s in room.seats].count(4242) == 1
    assert room.version == before.version + 1


# --- one player, two groups, at the same moment -------------------------------------------------


def race_to_join(client: redis.Redis, player: int, chats: list[int]) -> dict[int, Any]:
    """The same player presses Join in every chat at the same moment, one thread each."""
    barrier = threading.Barrier(len(chats))
    answers: dict[int, Any] = {}

    def join(chat: int) -> None:
        store = Store(client, GAMES)
        barrier.wait()
        try:
            answers[chat] = store.execute(chat, Join(user_id=player, name="Twin"), now=NOW)
        except RuleError as error:
            answers[chat] = error

    threads = [threading.Thread(target=join, args=(chat,)) for chat in chats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a_player_joining_two_groups_at_once_is_seated_in_exactly_one(
    real_redis: redis.Redis,
) -> None:
    store = Store(real_redis, GAMES)
    titles = {CHAT: "Cats", OTHER: "Dogs"}
    for chat, title in titles.items():
        open_lobby(store, chat, players(chat, 1), title=title)
    for player in range(5000, 5030):
        answers = race_to_join(real_redis, player, list(titles))
        seated = [c for c in titles if player in [s.user_id for s in loaded(store, c).seats]]
        assert len(seated) == 1
        winner, loser = seated[0], next(c for c in titles if c != seated[0])
        assert [e.kind for e in answers[winner].events] == ["player_joined"]
        assert isinstance(answers[loser], RuleError)
        assert answers[loser].code is ErrorCode.IN_OTHER_GAME
        assert answers[loser].detail == titles[winner]
        assert store.room_of_player(player) == RoomId(winner)
        store.execute(winner, Leave(user_id=player), now=NOW)  # so the lobbies never fill up


# --- bad data -----------------------------------------------------------------------------------


def test_a_corrupt_room_is_logged_and_every_other_room_keeps_working(
    real_redis: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(real_redis, GAMES)
    chats = [-3001, -3002, -3003]
    for chat in chats:
        open_lobby(store, chat, players(chat, 2))
    real_redis.hset(keys.room(-3002), "state", b"\xff\xfe garbage")
    answers: dict[int, str] = {}
    with caplog.at_level(logging.ERROR, logger="engine.store"):
        for chat in chats:
            try:
                store.execute(chat, Join(user_id=abs(chat) + 7, name="X"), update_id=1, now=NOW)
                answers[chat] = "joined"
            except CorruptRoom as error:
                answers[chat] = f"corrupt {error.room}"
    assert answers == {-3001: "joined", -3002: "corrupt -3002", -3003: "joined"}
    assert [r.getMessage().split(",")[0] for r in caplog.records] == ["corrupt room -3002"]
    assert real_redis.hget(keys.room(-3002), "state") == b"\xff\xfe garbage"
