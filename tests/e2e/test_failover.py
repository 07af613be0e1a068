"""Redis Sentinel: the primary is killed mid-game, a replica takes over, nothing acknowledged is
lost.

A primary, its replica, three Sentinels; two `web` and two `worker` processes that know only
the Sentinels (their REDIS_URL's host has nothing on it). The primary is killed with SIGKILL
while players press; Telegram repeats what was not answered 200, as it does.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.players import (
    after_round_one,
    all_at_once,
    give_hint,
    play_decoy,
    play_to_the_end,
    vote_round,
    voters,
)
from tests.e2e.procs import start_stack
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
    users, expected = after_round_one(stack, NAMES, "rotations=1 timers=off reveal=20")

    # Round 2: one decoy is answered 200, then the primary is killed while the other two are
    # pressed, each on its own web process; Telegram repeats what is not answered 200.
    teller, card = give_hint(stack, users, 2)
    others = voters(stack, teller)
    old_port = sentinels.primary.port
    decoys = {others[0]: play_decoy(stack, others[0], 2)}
    started = time.monotonic()
    _, *later = all_at_once([sentinels.kill_primary] + [
        (lambda u=u, i=i: time.sleep(0.05) or play_decoy(stack, u, 2, web=i, retry=True))
        for i, u in enumerate(others[1:])
    ])  # fmt: skip
    decoys |= dict(zip(others[1:], later, strict=True))
    assert stack.answers[503] > 0, "no press met the failover"
    wait_for(lambda: sentinels.promoted(old_port), 30, "a Sentinel to promote the replica")
    points = vote_round(stack, 2, teller, card, decoys, together=True, retry=True)
    assert time.monotonic() - started < 60
    for user, score in points.items():
        expected[user] += score

    # The reveal's timer moves the game on, on the promoted replica, to its exact end.
    play_to_the_end(stack, users, expected, range(3, 5))
