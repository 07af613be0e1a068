"""Redis Sentinel: the primary is killed mid-game, a replica takes over, nothing acknowledged is
lost.

A primary, its replica, three Sentinels; two `web` and two `worker` processes that know only
the Sentinels (their REDIS_URL's host has nothing on it). The primary is killed with SIGKILL
while players press; Telegram repeats what was not answered 200, as it does.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.e2e.players import (
    all_at_once,
    give_hint,
    play_decoy,
    play_round,
    seat_players,
    start,
    table,
    vote,
)
from tests.e2e.procs import GROUP, start_stack
from tests.e2e.sentinel import SentinelRedis
from tests.harness import wait_for

NAMES = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def failover_stack(redis_server_factory, tmp_path: Path):
    sentinel_dir = tmp_path / "sentinels"
    sentinel_dir.mkdir()
    redis = SentinelRedis(redis_server_factory, sentinel_dir)
    stack = None
    try:
        stack = start_stack(redis, tmp_path, timer_scale=0.05, webs=2, workers=2)
        yield stack
    finally:
        if stack is not None:
            stack.stop()
            stack.double.stop()
        redis.kill()


def test_a_game_goes_on_with_exact_totals_when_the_primary_dies_mid_game(failover_stack):
    stack = failover_stack
    sentinels: SentinelRedis = stack.redis
    users = seat_players(stack, NAMES, "rotations=1 timers=off reveal=20")
    start(stack, users)
    expected = dict.fromkeys(users, 0)
    for user, points in play_round(stack, users, 1).items():
        expected[user] += points

    # Round 2: the primary is killed while the decoys and votes are being pressed, each on
    # its own thread and web process, every one repeated until it is answered 200.
    teller, card = give_hint(stack, users, 2)
    room = stack.room()
    others = [room.seats[i].user_id for i in room.round.participants
              if room.seats[i].user_id != teller]  # fmt: skip
    old_port = sentinels.primary.port
    killed = threading.Timer(0.3, sentinels.kill_primary)
    killed.start()
    started = time.monotonic()
    decoys = dict(zip(others, all_at_once([
        (lambda u=u, i=i: play_decoy(stack, u, 2, web=i, retry=True))
        for i, u in enumerate(others)
    ]), strict=True))  # fmt: skip
    killed.join()
    wait_for(lambda: sentinels.promoted(old_port), 30, "a Sentinel to promote the replica")
    message, scenes = table(stack, 2)
    first, *rest = others
    choices = {first: scenes[card], **{user: scenes[decoys[first]] for user in rest}}
    all_at_once([(lambda u=u, i=i: vote(stack, u, message, choices[u], web=i, retry=True))
                 for i, u in enumerate(others)])  # fmt: skip
    stack.wait_find(GROUP, r"Reveal · round 2\b")
    assert time.monotonic() - started < 60
    for user, points in {teller: 3, first: 3 + len(rest), **dict.fromkeys(rest, 0)}.items():
        expected[user] += points

    # The reveal's timer moves the game on, on the promoted replica, to its end.
    for number in (3, 4):
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase.value == "finished"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
