"""Scheduled jobs that wake the scheduler, which waits for them rather than looking for them.

RQ's scheduler looks for due jobs at a fixed pace (`workers.worker.TimerScheduler` once did it
five times a second, to fire timers within a fifth of a second): most looks find nothing, and on
a quiet bot they were most of what its workers spent. Instead, the scheduler waits on its queue's
wake list (BLPOP, `keys.scheduler_wake`) until the next job it knows of is due, having noted
when that is (`keys.scheduler_next`); a job scheduled through a `WakingQueue` that is due
before then pushes a word onto the list, in the same transaction that saves the job, which
wakes it. It still looks at least once a second (its heartbeat), so a job scheduled some other
way waits a second at most.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import redis
from redis.client import Pipeline
from rq import Queue
from rq.job import Job

from engine.store import keys

# Wake the scheduler unless it will look by the job's moment anyway (the moment it plans to
# look at, set while it waits; none: it is looking, or there is no scheduler). The list keeps
# one word: one wakes the scheduler as well as many, and should none wait it does not grow.
# KEYS: the wake list, the planned look. ARGV: the job's moment (Redis's clock, seconds).
_WAKE = """
local planned = redis.call('GET', KEYS[2])
if planned and tonumber(ARGV[1]) >= tonumber(planned) then return 0 end
redis.call('LPUSH', KEYS[1], '1')
redis.call('LTRIM', KEYS[1], 0, 0)
return 1
"""


def wake(pipe: Any, queue: str, at: float = 0.0) -> None:
    """Add to `pipe` what wakes `queue`'s scheduler for a job due at `at`, unless it plans to
    look by then anyway (0: wake it whatever it plans). Plain EVAL: a script a pipeline runs
    by its hash costs a round trip more to make sure Redis has it."""
    pipe.eval(_WAKE, 2, keys.scheduler_wake(queue), keys.scheduler_next(queue), at)


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
        moment = job.meta.get("not_before") if isinstance(job.meta, dict) else None
        wake(pipe, self.name, float(moment) if moment is not None else datetime.timestamp())
        if pipeline is None:
            pipe.execute()
        return scheduled
