"""Scheduled jobs that wake the scheduler, which waits for them rather than looking for them.

RQ's scheduler looks for due jobs at a fixed pace (`workers.worker.TimerScheduler` once did it
five times a second, to fire timers within a fifth of a second): most looks find nothing, and on
a quiet bot they were most of what its workers spent. Instead, every job scheduled through a
`WakingQueue` also pushes a word onto its queue's wake list (`keys.scheduler_wake`), in the same
transaction that saves the job; the scheduler waits on that list (BLPOP) until the next job it
knows of is due, or a new one comes. It still looks at least once a second (its heartbeat), so a
job scheduled some other way waits a second at most.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import redis
from redis.client import Pipeline
from rq import Queue
from rq.job import Job

from engine.store import keys

WAKE_KEPT = 1  # words kept on a wake list: one wakes the scheduler as well as many


def wake(pipe: Any, queue: str) -> None:
    """Add to `pipe` the word that wakes `queue`'s scheduler (a list of one at most: should no
    scheduler wait, it does not grow)."""
    name = keys.scheduler_wake(queue)
    pipe.lpush(name, 1)
    pipe.ltrim(name, 0, WAKE_KEPT - 1)


def wake_now(client: redis.Redis, queue: str) -> None:
    """Wake `queue`'s scheduler now (one round trip)."""
    pipe = client.pipeline(transaction=False)
    wake(pipe, queue)
    pipe.execute()


class WakingQueue(Queue):
    """An RQ queue whose scheduled jobs wake its scheduler (see the module's docstring)."""

    def schedule_job(self, job: Job, datetime: datetime, pipeline: Pipeline | None = None,
                     unique: bool = False) -> Job:  # fmt: skip
        pipe = pipeline if pipeline is not None else self.connection.pipeline()
        unique_only = {"unique": True} if unique else {}  # passed only when asked for
        scheduled = super().schedule_job(job, datetime, pipeline=pipe, **unique_only)
        wake(pipe, self.name)
        if pipeline is None:
            pipe.execute()
        return scheduled
