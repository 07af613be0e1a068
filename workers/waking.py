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
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

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


def filed_at(job: Job, moment: datetime) -> float:
    """A scheduled job's score in the registry: its `not_before` (a timer's or a delivery's
    exact moment), else the whole second RQ files it under (a naive moment is the machine's
    time). An exact moment lets a look take the jobs due and no other (filed under their
    second, those due later in it were fetched and put back at every look till then); a stock
    RQ scheduler, looking by whole seconds, takes such a job in the second after its moment."""
    not_before = job.meta.get("not_before") if isinstance(job.meta, dict) else None
    return float(not_before) if not_before is not None else int(moment.timestamp())


class WakingQueue(Queue):
    """An RQ queue whose scheduled jobs wake its scheduler (see the module's docstring)."""

    def schedule_job(self, job: Job, datetime: datetime, pipeline: Pipeline | None = None,
                     unique: bool = False) -> Job:  # fmt: skip
        """RQ's scheduling of a job, and what wakes the scheduler for it, in one transaction.
        RQ's own adds the job to the scheduled registry apart from the transaction it saves
        the job in (a round trip of its own; and a scheduler's look in between would find the
        id of a job not saved yet, and drop it): here the registry's entry goes with the rest."""
        pipe = pipeline if pipeline is not None else self.connection.pipeline()
        at = filed_at(job, datetime)
        if unique:  # RQ's one script checks, saves and files the job
            scheduled = super().schedule_job(job, datetime, pipeline=pipe, unique=True)
        else:
            pipe.sadd(self.redis_queues_keys, self.key)
            job.set_status(JobStatus.SCHEDULED, pipeline=pipe)
            job.save(pipeline=pipe)
            job.cleanup(ttl=job.ttl, pipeline=pipe)
            # Its moment in its record, for the scheduler's look (`TimerScheduler.look`, in
            # Redis: RQ keeps it only in the job's serialized meta).
            pipe.hset(job.key, "not_before", repr(at))
            pipe.zadd(ScheduledJobRegistry(queue=self).key, {job.id: at})
            scheduled = job
        wake(pipe, self.name, at)
        if pipeline is None:
            pipe.execute()
        return scheduled
