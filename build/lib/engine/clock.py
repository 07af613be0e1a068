"""One clock for every process: Redis's.

Deadlines are written by one process and acted on by others (a timer fired by a worker, a
deadline shown by another); each machine's own clock may be seconds off. `RedisClock` reads
Redis's `TIME` now and then and keeps the offset to this process's clock, so reading it costs
no round trip.
"""

from __future__ import annotations

import time

import redis

REFRESH_S = 30.0


class RedisClock:
    """Redis's time (UTC seconds), through this process's clock and a measured offset."""

    def __init__(self, client: redis.Redis, refresh: float = REFRESH_S) -> None:
        self.client = client
        self.refresh = refresh
        self._offset: float | None = None
        self._measured = 0.0

    def __call__(self) -> float:
        if self._offset is None or time.monotonic() - self._measured > self.refresh:
            self._measure()
        assert self._offset is not None
        return time.time() + self._offset

    def _measure(self) -> None:
        before = time.time()
        seconds, micros = self.client.time()
        after = time.time()
        self._offset = seconds + micros / 1e6 - (before + after) / 2
        self._measured = time.monotonic()
