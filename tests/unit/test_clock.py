"""RedisClock: Redis's time through this process's clock, off by no more than the shortest
round trip it measured."""

from __future__ import annotations

import time
from typing import Any, cast

import redis

from engine.store.clock import RedisClock

OFFSET = 5.0  # Redis's clock runs this far ahead of this process's


class SlowReplies:
    """A Redis whose `TIME` answers at once, but whose first reply reaches us `delay` later:
    the round trip a busy machine gives a process that waited for the CPU."""

    def __init__(self, delay: float) -> None:
        self.delays = [delay]
        self.calls = 0

    def time(self) -> tuple[int, int]:
        self.calls += 1
        now = time.time() + OFFSET
        if self.delays:
            time.sleep(self.delays.pop(0))
        return int(now), int(now % 1 * 1_000_000)


def off_by(clock: RedisClock) -> float:
    return abs(clock() - (time.time() + OFFSET))


def test_one_slow_reply_does_not_skew_the_clock() -> None:
    # One round trip taken alone puts half a slow reply (20 ms) into every deadline.
    clock = RedisClock(cast(Any, SlowReplies(0.040)))
    assert off_by(clock) < 0.002
    assert clock.error < 0.002


def test_the_clock_measures_again_only_after_its_refresh() -> None:
    fake = SlowReplies(0.0)
    clock = RedisClock(cast(Any, fake), refresh=0.05)
    clock()
    calls = fake.calls
    clock()
    assert fake.calls == calls
    time.sleep(0.06)
    clock()
    assert fake.calls > calls


def test_the_clock_reads_the_real_redis_time(real_redis: redis.Redis) -> None:
    clock = RedisClock(real_redis)
    seconds, micros = real_redis.time()
    before = seconds + micros / 1e6
    read = clock()
    seconds, micros = real_redis.time()
    after = seconds + micros / 1e6
    assert before - clock.error <= read <= after + clock.error
