"""One clock for every process: Redis's.

Deadlines are written by one process and acted on by others (a timer fired by a worker, a
deadline shown by another); each machine's own clock may be seconds off. `RedisClock` reads
Redis's `TIME` now and then and keeps the offset to this process's clock, so reading it costs
no round trip.

One round trip tells the offset only to within half its time: Redis answered somewhere
between sending and receiving, and the middle is taken. A round trip that waited for the CPU
on a busy machine (milliseconds, or tens of them) would put that error into every deadline the
process writes or checks until the next measure. So each measure takes several round trips and
keeps the shortest one's offset: its error is half the shortest round trip.
"""

from __future__ import annotations

import time
from typing import cast

import redis

REFRESH_S = 30.0
SAMPLES = 5


class RedisClock:
    """Redis's time (UTC seconds), through this process's clock and a measured offset."""

    def __init__(self, client: redis.Redis, refresh: float = REFRESH_S,
                 samples: int = SAMPLES) -> None:  # fmt: skip
        self.client = client
        self.refresh = refresh
        self.samples = samples
        self._offset: float | None = None
        self._measured = 0.0
        self.error = 0.0  # at most this far from Redis's time: half the round trip kept

    def __call__(self) -> float:
        if self._offset is None or time.monotonic() - self._measured > self.refresh:
            self._measure()
        assert self._offset is not None
        return time.time() + self._offset

    def _measure(self) -> None:
        best: tuple[float, float] | None = None  # (round trip, offset)
        for _ in range(self.samples):
            before = time.time()
            seconds, micros = cast(tuple[int, int], self.client.time())
            after = time.time()
            sample = (after - before, seconds + micros / 1e6 - (before + after) / 2)
            if best is None or sample[0] < best[0]:
                best = sample
        assert best is not None
        self.error = best[0] / 2
        self._offset = best[1]
        self._measured = time.monotonic()
