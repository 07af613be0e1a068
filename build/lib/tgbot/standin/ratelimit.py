"""Flood-control accounting modelled on Telegram's documented bot limits."""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True)
class RateLimits:
    """Limits enforced by the double; edits count only when `count_edits` is set."""

    per_chat_per_second: float = 1.0
    per_chat_burst: int = 3
    per_group_per_minute: int = 20
    global_per_second: int = 30
    count_edits: bool = False


class ManualClock:
    """A settable clock for tests: call it for the time, `advance()` to move it."""

    def __init__(self, start: float = 1_700_000_000.0):
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward by `seconds` and return the new time."""
        with self._lock:
            self._now += seconds
            return self._now


def _retry(seconds: float) -> int:
    return max(1, math.ceil(seconds - 1e-9))


class RateLimiter:
    """Per-chat token buckets, a per-group sliding minute and a global sliding second."""

    def __init__(self, limits: RateLimits, clock: Clock):
        self.limits = limits
        self.clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}
        self._group_windows: dict[int, deque[float]] = {}
        self._global: deque[float] = deque()

    def reset(self) -> None:
        """Forget all accounting."""
        self._buckets.clear()
        self._group_windows.clear()
        self._global.clear()

    def acquire(
        self, chat_id: int, is_group: bool, is_edit: bool = False
    ) -> tuple[str, int] | None:
        """Count one request; return (scope, retry_after) instead when a limit is exceeded."""
        if is_edit and not self.limits.count_edits:
            return None
        now = self.clock()
        lim = self.limits
        if not is_edit:
            while self._global and self._global[0] <= now - 1.0:
                self._global.popleft()
            if len(self._global) >= lim.global_per_second:
                return "global", _retry(self._global[0] + 1.0 - now)
        window = self._group_windows.setdefault(chat_id, deque()) if is_group else None
        if window is not None:
            while window and window[0] <= now - 60.0:
                window.popleft()
            if len(window) >= lim.per_group_per_minute:
                return "group", _retry(window[0] + 60.0 - now)
        tokens, last = self._buckets.get(chat_id, (float(lim.per_chat_burst), now))
        tokens = min(float(lim.per_chat_burst), tokens + (now - last) * lim.per_chat_per_second)
        if tokens < 1.0:
            self._buckets[chat_id] = (tokens, now)
            return "chat", _retry((1.0 - tokens) / lim.per_chat_per_second)
        self._buckets[chat_id] = (tokens - 1.0, now)
        if window is not None:
            window.append(now)
        if not is_edit:
            self._global.append(now)
        return None
