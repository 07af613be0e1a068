"""Redis away: one log line when it stops answering, one when it answers again.

A worker whose Redis is down (restarting, failing over to a replica) waits and tries again
about every `RETRY_S` seconds, so it is back at work within a couple of seconds of Redis, not
after RQ's doubling waits (up to a minute), and logs the outage once rather than a traceback
each second.
"""

from __future__ import annotations

import logging
import time

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
