"""Waiting for a replica: what is acknowledged survives a failover.

Redis replicates asynchronously: a write the primary answered may not have reached its replica
when the primary dies, and Sentinel then promotes a replica without it. So where a write is
acknowledged to the outside (the webhook's 200, a command's commit), it is followed by
`WAIT 1 <timeout>` on the same connection, which returns how many replicas confirmed every
write of that connection so far; none within the timeout and the write counts as failed (the
caller answers 503 or handles the update again; either is harmless, as an update applied twice
is applied once).

Only when the primary has a replica: `INFO replication`'s `connected_slaves`, looked at again
every second, so a single Redis pays nothing.
"""

from __future__ import annotations

import time
from typing import Any, cast

import redis

RECHECK_S = 1.0


class NotReplicated(redis.exceptions.ConnectionError):
    """No replica confirmed a write in time: it may not survive a failover."""


class Replicas:
    """Whether writes wait for a replica, by `INFO replication` looked at every second."""

    def __init__(self, timeout_ms: int, recheck: float = RECHECK_S) -> None:
        self.timeout_ms = timeout_ms
        self.recheck = recheck
        self._count = 0
        self._checked = float("-inf")

    @property
    def due(self) -> bool:
        """Whether the replica count should be asked again."""
        return time.monotonic() - self._checked >= self.recheck

    def note(self, info: dict[str, Any] | None) -> None:
        """Remember what `INFO replication` said (None: it could not be asked, and what was
        known stands until the next look)."""
        self._checked = time.monotonic()
        if info is not None:
            self._count = int(info.get("connected_slaves", 0) or 0)

    @property
    def wanted(self) -> bool:
        """Whether writes must wait for a replica."""
        return self.timeout_ms > 0 and self._count > 0

    def check(self, confirmed: Any) -> None:
        """Raise unless WAIT's answer says a replica has the writes.

        Raises:
            NotReplicated: no replica confirmed within the timeout.
        """
        if isinstance(confirmed, Exception) or int(confirmed) < 1:
            raise NotReplicated(f"no replica confirmed the write within {self.timeout_ms} ms")

    def refresh(self, client: redis.Redis) -> bool:
        """Ask the primary how many replicas it has, if due; whether writes must wait."""
        if self.due:
            try:
                self.note(cast(dict[str, Any], client.info("replication")))
            except redis.RedisError:
                self.note(None)  # the write itself will tell whether Redis answers
        return self.wanted
