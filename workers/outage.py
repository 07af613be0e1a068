"""Redis away: one log line when it stops answering, one when it answers again.

A worker whose Redis is down (restarting, failing over to a replica) waits and tries again
about every `RETRY_S` seconds, so it is back at work within a couple of seconds of Redis, not
after RQ's doubling waits (up to a minute), and logs the outage once rather than a traceback
each second.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis

log = logging.getLogger(__name__)

RETRY_S = 1.0
# Redis not answering, as opposed to refusing a command (`NotReplicated` is a ConnectionError).
REDIS_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class Outage:
    """Notes when Redis stopped answering this process, and says so once."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.since: float | None = None

    def failed(self, error: BaseException) -> None:
        """Redis did not answer: log it if this starts an outage."""
        if self.since is None:
            self.since = time.monotonic()
            log.warning("%s: Redis does not answer (%s: %s); trying again every %.0f s",
                        self.name, type(error).__name__, error, RETRY_S)  # fmt: skip

    def over(self) -> None:
        """Redis answered: log the end of an outage, if one was going on."""
        if self.since is not None:
            log.warning("%s: Redis answers again, after %.1f s", self.name,
                        time.monotonic() - self.since)  # fmt: skip
            self.since = None

    @property
    def going_on(self) -> bool:
        """Whether Redis did not answer last time."""
        return self.since is not None


class Repeats:
    """A failure that comes back every second (a bot token Telegram refuses, say) is logged
    with its traceback the first time, then once a minute as one line with its count, not as
    a traceback each second; a different failure is logged in full again."""

    def __init__(self, name: str, every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.name = name
        self.every = every
        self.clock = clock
        self.last: str | None = None
        self.since_logged = 0
        self.logged_at = 0.0

    def failed(self, what: str, error: BaseException) -> None:
        """`what` failed with `error`: log it unless it is the same as last time, lately."""
        seen = f"{type(error).__name__}: {error}"
        now = self.clock()
        if seen != self.last:
            self.last, self.since_logged, self.logged_at = seen, 0, now
            log.warning("%s: %s failed, trying again soon", self.name, what, exc_info=error)
            return
        self.since_logged += 1
        if now - self.logged_at >= self.every:
            log.warning("%s: %s still fails (%s), %d more times in %.0f s", self.name, what,
                        seen, self.since_logged, now - self.logged_at)  # fmt: skip
            self.since_logged, self.logged_at = 0, now

    def over(self) -> None:
        """It worked: a later failure is news again."""
        self.last = None
