"""The RQ worker class of the Procfile's `worker` process.

`rq worker --with-scheduler -w workers.worker.HintrigueWorker …`:

- Jobs run in the worker process itself (no fork per job): a delivery is a few milliseconds of
  work, and forking, importing and opening a Bot API client per job cost a hundred times more.
  The process keeps its event loop and Bot between jobs (`workers.runtime`).
- About once a second, between jobs or while idle, it sweeps overdue timers and stalled
  deliveries (`workers.sweep`) and restarts RQ's scheduler if it died; RQ itself would retry
  only after many minutes.
- It takes inboxes of updates (`tgbot.ingress.inbox`) as well as RQ jobs: when it pops a room
  from an inbox's ready list it runs `workers.jobs.drain` for it right away, so the web
  enqueues nothing per update (one Redis script takes the update in and, when no job owns the
  inbox, marks it ready). It looks at its queues and the ready lists in turn. A drain is no
  RQ job (an RQ job's bookkeeping costs a dozen Redis round trips, more than handling the
  update): the inbox's owner token and the sweeper already make it safe to lose (see
  `drain_inbox`).
- The bot's own jobs (timers, AI moves, deliveries) run without RQ's bookkeeping of their
  execution either (`run_own_job`): what it records nobody reads, and the sweeper finds the
  work of a job lost with its worker. A failure is still recorded as RQ records it.
- Its scheduler waits for the next due job rather than looking at a fixed pace (RQ's once a
  second), woken when a job due before its next look is scheduled (`workers.waking`), and
  enqueues a timer at its deadline to the fraction of a second (RQ alone works in whole
  seconds); it stops by itself if its worker died.
- It runs only the bot's own job functions (`workers.trust`): a job naming anything else,
  which whatever can write to the Redis database could enqueue, is refused and logged.
- A job that Redis going away cut short is done again the moment Redis answers (a drain by
  giving its inbox to a new job), not when the sweeper finds its work overdue.
- SIGTERM: the current job finishes; a delivery hands the rest of its outbox to another worker
  after the message in flight. A second SIGTERM (cold shutdown) enqueues the current job again
  before leaving, so nothing is lost. Leaving never waits on the thread listening for `rq`
  commands: it is told to stop before the unsubscription (`unsubscribe`), and it looks every
  second whether to stop (`subscribe`): with RQ's own minute, a stop that found it already
  unsubscribed (redis-py then waits that long for a new subscription) held the worker up to a
  minute.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.exceptions import DequeueTimeout, NoSuchJobError, StopRequested
from rq.job import Job, JobStatus
from rq.queue import Queue
from rq.scheduler import RQScheduler
from rq.timeouts import JobTimeoutException
from rq.utils import as_text, now, utcformat
from rq.worker import SimpleWorker, WorkerStatus

from engine.roomid import RoomId
from engine.store import keys
from engine.store.clock import RedisClock
from tgbot.ops import logs
from tgbot.ops.config import bot_id
from tgbot.ops.connection import describe
from tgbot.ops.metrics import TALLY
from tgbot.ops.redact import mask
from workers import jobs
from workers.dispatch import FAILURE_TTL, FLUSH_TIMEOUT, RESULT_TTL
from workers.jobs import HandleLater
from workers.outage import REDIS_DOWN, RETRY_S, Outage, Repeats
from workers.runtime import STOPPING, runtime
from workers.sweep import Sweeper
from workers.trust import refusal
from workers.waking import WakingQueue, wake_now

log = logging.getLogger(__name__)

TEND_EVERY = 1.0
REVIVE_EVERY = 5.0
LOOK_CHUNK = 1000  # due jobs a scheduler's look takes at most (RQ's chunk)
MIN_WAIT = 0.005  # seconds: a shorter wait for the next due job is no wait
IDLE_POLL = 1  # seconds a dequeue blocks before the worker tends again
DRAIN_TIMEOUT = 60
COMMAND_POLL = 1.0
"""Seconds the thread reading RQ's command channel waits for a message before it looks again
whether it should stop (RQ's own wait, 60, held a warm stop up to a minute)."""
PUBSUB_JOIN = 1.0  # seconds a leaving worker waits for its thread of `rq` commands to end
BEAT_EVERY = 1.0  # the worker's heartbeat while it takes inboxes one after the other


@dataclass(frozen=True)
class InboxTurn:
    """A ready inbox a worker popped: its room and the token its drain owns it by."""

    room: str
    token: str


@dataclass(frozen=True)
class DeliveryTurn:
    """A due delivery a worker popped (`RqDispatch.flush_later`): `workers.jobs.flush`'s
    arguments."""

    room: str
    attempt: int
    chain: str

    @classmethod
    def parse(cls, entry: str) -> DeliveryTurn:
        room, attempt, chain = entry.split(" ")
        return cls(room, int(attempt), chain)


class InboxQueue(WakingQueue):
    """An RQ queue whose workers also drain the inboxes on its ready list (and whose scheduled
    jobs wake the scheduler, `workers.waking`)."""

    _inbox_first = False

    @classmethod
    def dequeue_any(  # type: ignore[override]
        cls,
        queues: list[Queue],
        timeout: int | None,
        connection: Any,
        job_class: Any = None,
        serializer: Any = None,
        death_penalty_class: Any = None,
    ) -> tuple[Job, Queue] | None:
        """The next RQ job, or a drain job for the next ready inbox, blocking up to
        `timeout` seconds (None: do not block). Queues and ready lists take turns first."""
        found = cls.next_work(queues, timeout, connection, job_class, serializer)
        if found is None:
            return None
        work, queue = found
        if isinstance(work, InboxTurn):
            job = queue.create_job(
                "workers.jobs.drain", args=(work.room, work.token), timeout=DRAIN_TIMEOUT,
                result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL,
                description=f"drain inbox {work.room}",
            )  # fmt: skip
            job.save()
            return job, queue
        if isinstance(work, DeliveryTurn):
            job = queue.create_job(
                "workers.jobs.flush", args=(work.room, work.attempt, work.chain),
                timeout=FLUSH_TIMEOUT, result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL,
            )  # fmt: skip
            job.save()
            return job, queue
        return work, queue

    @classmethod
    def next_work(
        cls,
        queues: list[Queue],
        timeout: int | None,
        connection: Any,
        job_class: Any = None,
        serializer: Any = None,
    ) -> tuple[Job | InboxTurn | DeliveryTurn, Queue] | None:
        """The next RQ job, ready inbox or due delivery, blocking up to `timeout` seconds
        (None: do not block). Inboxes and the rest take turns first; a queue's jobs come
        before its due deliveries (timers are jobs)."""
        by_key: dict[str, tuple[Queue, type | None]] = {}
        for queue in queues:
            by_key[queue.key] = (queue, None)
            by_key[keys.delivery_ready(queue.name)] = (queue, DeliveryTurn)
            by_key[keys.inbox_ready(queue.name)] = (queue, InboxTurn)
        order = sorted(by_key, key=lambda k: (by_key[k][1] is InboxTurn) != cls._inbox_first)
        cls._inbox_first = not cls._inbox_first
        while True:
            if timeout is None:
                popped = next(((k, v) for k in order
                               if (v := connection.lpop(k)) is not None), None)  # fmt: skip
                if popped is None:
                    return None
            else:
                popped = connection.blpop(order, timeout)
                if popped is None:
                    raise DequeueTimeout(timeout, order)
            key, value = (x.decode() if isinstance(x, bytes) else x for x in popped)
            queue, kind = by_key[key]
            if kind is InboxTurn:
                room, token = value.split(" ", 1)
                return InboxTurn(room, token), queue
            if kind is DeliveryTurn:
                try:
                    return DeliveryTurn.parse(value), queue
                except ValueError:
                    log.warning("dropped a malformed due delivery %r", value[:80])
                    continue
            try:
                found = (job_class or Job).fetch(value, connection=connection,
                                                 serializer=serializer)
                return found, queue
            except NoSuchJobError:
                continue


# A scheduler's look at one queue's scheduled jobs, in one step: the wake list and the planned
# look emptied (every job scheduled from now on wakes the next wait), the jobs due enqueued
# (those the bot filed with their moment in their record, `waking.WakingQueue`: their status
# and enqueue time set as RQ sets them, at the front of the queue when RQ's record says so),
# the deliveries due moved onto the ready list (`RqDispatch.flush_later`), in the order of
# their moments, the moment of the next job or delivery to come. KEYS: the registry, the
# queue, the wake list, the planned look, the waiting deliveries, the ready ones. ARGV: now
# (Redis's clock), the most jobs (and deliveries) a look takes, a job's key prefix, the
# enqueue time in RQ's format. Returns the jobs taken, the next moment (or false), the due
# jobs filed otherwise (left to `TimerScheduler._enqueue_others`), the deliveries taken.
_LOOK = """
redis.call('DEL', KEYS[3], KEYS[4])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local others = {}
for _, id in ipairs(due) do
  local key = ARGV[3] .. id
  local filed = redis.call('HMGET', key, 'not_before', 'enqueue_at_front')
  if filed[1] then
    redis.call('HSET', key, 'status', 'queued', 'enqueued_at', ARGV[4])
    if filed[2] == '1' then
      redis.call('LPUSH', KEYS[2], id)
    else
      redis.call('RPUSH', KEYS[2], id)
    end
    redis.call('ZREM', KEYS[1], id)
  else
    table.insert(others, id)
  end
end
local ready = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', ARGV[1], 'LIMIT', 0,
                         tonumber(ARGV[2]))
if #ready > 0 then
  redis.call('RPUSH', KEYS[6], unpack(ready))
  redis.call('ZREM', KEYS[5], unpack(ready))
end
local later = nil
for _, set in ipairs({KEYS[1], KEYS[5]}) do
  local first = redis.call('ZRANGEBYSCORE', set, '(' .. ARGV[1], '+inf', 'WITHSCORES',
                           'LIMIT', 0, 1)
  if first[2] and (later == nil or tonumber(first[2]) < tonumber(later)) then
    later = first[2]
  end
end
return {#due, later or false, others, #ready}
"""


class TimerScheduler(RQScheduler):
    """RQ's scheduler, waiting for the next due job rather than looking for due jobs at a fixed
    pace, to the fraction of a second for timers, by Redis's clock, and leaving when the worker
    that forked it is gone.

    Each look enqueues the due jobs and learns when the next one it knows of is due; the
    scheduler then waits on its queues' wake lists until then, at most until its next heartbeat
    (a second): a job scheduled meanwhile through a `WakingQueue` (every job the bot schedules)
    wakes it at once (`workers.waking`). A quiet bot's scheduler so looks once a second, where
    it looked five times a second, at a cost to the workers beside which an update's was small.
    """

    _clock: RedisClock | None = None
    _look_script: Any = None

    def work(self) -> None:
        self._install_signal_handlers()  # type: ignore[no-untyped-call]
        self.register_birth()
        parent = os.getppid()
        beat = 0.0
        outage = Outage(f"scheduler {self.name}")
        while True:
            if self._stop_requested or os.getppid() != parent:
                with contextlib.suppress(*REDIS_DOWN):  # its lock expires by itself
                    self.stop()  # type: ignore[no-untyped-call]
                break
            try:
                if self.should_reacquire_locks:
                    self.acquire_locks()  # type: ignore[no-untyped-call]
                if time.monotonic() - beat >= self.interval:
                    self.heartbeat()  # type: ignore[no-untyped-call]
                    beat = time.monotonic()
                due_in = self.look()
                until_beat = beat + self.interval - time.monotonic()
                self.wait_for_jobs(min(due_in, until_beat))
            except REDIS_DOWN as error:  # waits out the outage rather than dying of it
                outage.failed(error)
                time.sleep(RETRY_S)
                continue
            outage.over()

    def enqueue_scheduled_jobs(self) -> None:
        """Enqueue due jobs (`look`)."""
        self.look()

    def look(self) -> float:
        """Enqueue due jobs and hand the due deliveries to the workers; return the seconds
        until the next job or delivery this look saw is due (the heartbeat's interval when it
        saw none). The bot files a job with `not_before` in its
        meta (a timer, or a delivery held by the rate limits) under that moment; RQ files
        others under whole seconds, and a job filed so (by an older version, say) still waits
        for its `not_before`. The wake lists are emptied first: a job scheduled from then on
        wakes the next wait."""
        self._status = self.Status.WORKING
        if not self._scheduled_job_registries and self._acquired_locks:
            self.prepare_registries()
        if self._clock is None:
            self._clock = RedisClock(self.connection)
        registries = list(self._scheduled_job_registries)
        interval = float(self.interval)
        if not registries:
            self._status = self.Status.STARTED
            return interval
        enqueued_at = utcformat(now())  # RQ's own record of when, in its format
        clock = self._clock()  # Redis's: every process files deadlines by it
        next_at = clock + interval
        for registry in registries:  # scored by their exact moments (`waking.filed_at`)
            queue = Queue(registry.name, connection=self.connection, serializer=self.serializer)
            taken, later, others, delivering = self._look_due(
                keys=[registry.key, queue.key, keys.scheduler_wake(registry.name),
                      keys.scheduler_next(registry.name), keys.delivery_waits(registry.name),
                      keys.delivery_ready(registry.name)],
                args=[repr(clock), LOOK_CHUNK, Job.redis_job_namespace_prefix, enqueued_at],
            )  # fmt: skip
            if later:
                next_at = min(next_at, float(later))
            if max(taken, delivering) >= LOOK_CHUNK:
                next_at = clock  # more are due than one look takes
            if others:
                next_at = min(next_at, self._enqueue_others(registry, queue, others, clock))
        self._status = self.Status.STARTED
        return next_at - clock

    @property
    def _look_due(self) -> Any:
        if self._look_script is None:
            self._look_script = self.connection.register_script(_LOOK)
        return self._look_script

    def _enqueue_others(self, registry: Any, queue: Queue, job_ids: list[bytes], now: float
                        ) -> float:  # fmt: skip
        """Enqueue the due jobs filed without their moment in their record (by RQ's own
        scheduling, or an older version's) as RQ does, a job whose meta has `not_before`
        only once that moment came; return the earliest such moment still to come."""
        next_at = math.inf
        ids = [as_text(job_id) for job_id in job_ids]
        jobs = Job.fetch_many(ids, connection=self.connection, serializer=self.serializer)
        with self.connection.pipeline() as pipeline:
            for job_id, job in zip(ids, jobs, strict=True):
                if job is not None:
                    not_before = float(job.meta.get("not_before", 0))
                    if not_before > now:
                        next_at = min(next_at, not_before)
                        continue
                    queue._enqueue_job(job, pipeline=pipeline,
                                       at_front=job.should_enqueue_at_front())  # fmt: skip
                registry.remove(job_id, pipeline=pipeline)
            pipeline.execute()
        return next_at

    def wait_for_jobs(self, seconds: float) -> None:
        """Wait up to `seconds` for a job due sooner to be scheduled (a word on a wake list),
        having noted when it looks next (a job due later need not wake it)."""
        if seconds < MIN_WAIT:
            return
        names = [registry.name for registry in self._scheduled_job_registries]
        if not names:  # no queue's lock: nothing to schedule, only the heartbeat to keep
            time.sleep(seconds)
            return
        if self._clock is None:
            self._clock = RedisClock(self.connection)
        planned = self._clock() + seconds
        wait = self.connection.pipeline(transaction=False)
        for name in names:  # forgotten a little after, should the scheduler be gone
            wait.set(keys.scheduler_next(name), repr(planned), px=int(seconds * 1000) + 2000)
        wait.blpop([keys.scheduler_wake(name) for name in names], timeout=seconds)
        wait.execute()


class HintrigueWorker(SimpleWorker):
    """A non-forking worker that also sweeps overdue work; see the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not logs.configured():  # started without `-c workers.rqsettings`
            logs.setup()
            logging.getLogger("rq.worker").handlers.clear()  # RQ's own: lines would double
        super().__init__(*args, **kwargs)
        # The bot's key names from the start: the first dequeue reads its ready list.
        keys.use_bot(bot_id(os.environ.get("TELEGRAM_BOT_TOKEN", "")))
        self.queue_class = InboxQueue  # whatever queue class the command line named
        self._tended = 0.0
        self._revived = time.monotonic()
        self._sweeper: Sweeper | None = None
        self.outage = Outage(f"worker {self.name}")
        self._tend_failures = Repeats(f"worker {self.name}")
        self._cut_short: dict[str, Job] = {}  # jobs the outage cut short, done again after it
        self._inboxes_cut_short: set[str] = set()  # drains, likewise (their rooms)
        self._deliveries_cut_short: list[DeliveryTurn] = []  # due deliveries, likewise
        self._due: DeliveryTurn | None = None  # the due delivery `deliver_due` runs
        self._beat = 0.0  # when the last heartbeat went (monotonic)
        self._suspension_checked = 0.0  # when `rq suspend` was last looked for
        self._drained = 0.0  # when the last drain ended (monotonic)
        self._own_job: Job | None = None  # the job `run_own_job` runs
        self._own_cut_short: set[str] = set()  # those of `_cut_short` that it ran (their ids)
        log.info("worker %s: started on %s; Redis: %s", self.name,
                 ", ".join(q.name for q in self.queues), describe(self.connection))  # fmt: skip

    def _start_scheduler(
        self,
        burst: bool = False,
        logging_level: str | None = "INFO",
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        self.scheduler = TimerScheduler(
            self.queues,
            connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=self.serializer,
        )
        self.scheduler.acquire_locks()  # type: ignore[no-untyped-call]
        if not self.scheduler.acquired_locks:
            return
        if burst:
            try:
                self.scheduler.register_birth()
                self.scheduler.enqueue_scheduled_jobs()
            finally:
                self.scheduler.release_locks()  # type: ignore[no-untyped-call]
                self.scheduler.register_death()
        else:
            self.scheduler.start()  # type: ignore[no-untyped-call]

    def dequeue_job_and_maintain_ttl(
        self, timeout: int | None, max_idle_time: int | None = None
    ) -> tuple[Job, Queue] | None:
        """Wait for a job, tending the sweeper and the scheduler about once a second; while
        Redis does not answer, try again every second (`workers.outage`)."""
        if timeout is None:  # burst mode: one look
            self.tend()
            return super().dequeue_job_and_maintain_ttl(None, max_idle_time)
        idle_since = time.monotonic()
        while True:
            self.tend()
            try:
                result = self._dequeue(IDLE_POLL)
            except REDIS_DOWN as error:
                self.outage.failed(error)
                time.sleep(RETRY_S)
                result = None
            else:
                self.outage.over()
                self.redo_cut_short()
            if result is not None or self._stop_requested:
                return result
            idle_since = max(idle_since, self._drained)  # a drain is work too
            if max_idle_time is not None and time.monotonic() - idle_since >= max_idle_time:
                return None

    def _dequeue(self, timeout: int) -> tuple[Job, Queue] | None:
        """One look for a job, blocking up to `timeout` seconds: RQ's own loop without its
        waits after a connection error, which double up to a minute. A ready inbox is
        drained here and then (None: look again)."""
        if self.get_state() != WorkerStatus.IDLE:
            self.set_state(WorkerStatus.IDLE)
        self.heartbeat()  # once a second at most
        if self.should_run_maintenance_tasks:
            self.run_maintenance_tasks()
        try:
            found = InboxQueue.next_work(
                self._ordered_queues, timeout, connection=self.connection,
                job_class=self.job_class, serializer=self.serializer,
            )  # fmt: skip
        except DequeueTimeout:
            return None
        if found is None:
            return None
        work, queue = found
        self.reorder_queues(reference_queue=queue)
        if isinstance(work, InboxTurn):
            self.drain_inbox(work)
            return None
        if isinstance(work, DeliveryTurn):
            self.deliver_due(work)
            return None
        work.redis_server_version = self.get_redis_server_version()
        self.log.info("Worker %s: %s: %s (%s)", self.name, queue.name, work.description,
                      work.id)  # fmt: skip
        return work, queue

    def drain_inbox(self, turn: InboxTurn) -> None:
        """Handle a ready inbox's updates (`workers.jobs.drain`) in this process, as an RQ job
        would but without RQ's bookkeeping of one, which costs more than the updates.

        Nothing of that bookkeeping is needed: the inbox's owner token makes sure one drain
        at a time takes its updates, an update leaves the inbox only once handled, and the
        sweeper gives an inbox that stopped moving to another drain (`workers.sweep`). As for
        a job: it may take `DRAIN_TIMEOUT` seconds at most, a warm shutdown waits for it (the
        worker counts as busy meanwhile; RQ's record of the worker in Redis, as it shows in
        `rq info`, says idle), a drain that Redis cut short is done again as soon as Redis
        answers, and any other failure is logged with its traceback."""
        if not self._run_turn(f"drain-{turn.room}", turn.room, DRAIN_TIMEOUT,
                              lambda: jobs.drain(turn.room, turn.token)):  # fmt: skip
            self._inboxes_cut_short.add(turn.room)
        self._drained = time.monotonic()

    def deliver_due(self, turn: DeliveryTurn) -> None:
        """Deliver a room whose wait for the rate limits is over (`workers.jobs.flush`,
        `RqDispatch.flush_later`) in this process, as `drain_inbox` drains an inbox, without
        an RQ job: a delivery lost with its worker is found by the sweeper (the room stays in
        `keys.pending_deliveries` until its outbox is empty). As for a job: `FLUSH_TIMEOUT`
        seconds at most, a warm shutdown waits for it, a cold one enqueues it as a job, a
        delivery that Redis cut short is enqueued again as soon as Redis answers, and any
        other failure is logged with its traceback."""
        self._due = turn
        try:
            if not self._run_turn(f"flush-{turn.room}", turn.room, FLUSH_TIMEOUT,
                                  lambda: jobs.flush(turn.room, turn.attempt, turn.chain)):
                self._deliveries_cut_short.append(turn)
        finally:
            self._due = None
            self._drained = time.monotonic()

    def _run_turn(self, name: str, room: str, timeout: int, work: Callable[[], object]) -> bool:
        """Run a drain or a due delivery (`name`, for the death penalty); False when Redis
        cut it short."""
        self._state = WorkerStatus.BUSY  # what a warm shutdown looks at (`request_stop`)
        try:
            with logs.about(chat=room), self.death_penalty_class(
                timeout, JobTimeoutException, job_id=name
            ):
                work()
        except (*REDIS_DOWN, HandleLater) as error:
            self.outage.failed(error)
            return False
        except Exception:
            log.exception("worker %s: %s failed", self.name, name)
        finally:
            self._state = WorkerStatus.IDLE
        return True

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Run a job (one of the bot's own without RQ's bookkeeping, `run_own_job`); when
        Redis goes away meanwhile, RQ cannot record how it ended: the sweeper gives its work to
        a new job once Redis is back."""
        chat = job.args[0] if job.args and isinstance(job.args[0], int | str) else None
        try:
            with logs.about(chat=chat):  # every job of ours takes its room first
                if refusal(job) is None:
                    self.run_own_job(job, queue)
                else:
                    super().execute_job(job, queue)  # refused there, as RQ's failure
        except REDIS_DOWN as error:
            self.outage.failed(error)
            self._cut_short[job.id] = job

    def run_own_job(self, job: Job, queue: Queue) -> None:
        """Run one of the bot's own jobs (`workers.trust`) in this process as RQ would, but
        without RQ's bookkeeping of its execution: its record and the registries of started
        and finished jobs, the job's status and the worker's state in Redis, the job's
        result. Those cost a dozen Redis round trips and more of the worker's time than a
        timer or a delivery itself, and nothing of the bot reads them: every job may run twice
        without harm, and what a job lost with its worker was doing is found by the sweeper
        (`workers.sweep`), as for a drain (`drain_inbox`).

        As for RQ's jobs: it may take the job's timeout at most, a warm shutdown waits for it
        (the worker counts as busy meanwhile; a cold one enqueues it again), a job that Redis
        going away cut short is done again once Redis answers, and a failure is RQ's (logged,
        kept in the failed jobs' registry). Done, the job is deleted (its result is of no use:
        `workers.dispatch.RESULT_TTL`)."""
        self._state = WorkerStatus.BUSY  # what a warm shutdown looks at (`request_stop`)
        self._own_job = job
        job.started_at = now()
        try:
            with self.death_penalty_class(job.timeout or self.queue_class.DEFAULT_TIMEOUT,
                                          JobTimeoutException, job_id=job.id):  # fmt: skip
                job.func(*job.args, **job.kwargs)
        except (*REDIS_DOWN, HandleLater):
            self.handle_exception(job, *sys.exc_info())  # noted: done again once Redis answers
            self._own_cut_short.add(job.id)
        except Exception:
            job.ended_at = now()
            job._status = JobStatus.FAILED
            exc_info = sys.exc_info()
            self.handle_exception(job, *exc_info)
            self.handle_job_failure(job, queue,
                                    exc_string="".join(traceback.format_exception(*exc_info)))
        else:
            self.connection.delete(job.key)
        finally:
            self._own_job = None
            self._state = WorkerStatus.IDLE

    def get_current_job(self) -> Job | None:
        """The job this worker runs (one of its own, else what RQ recorded)."""
        if self._own_job is not None:
            return self._own_job
        current: Job | None = super().get_current_job()
        return current

    def handle_exception(self, job: Job, *exc_info: Any) -> None:
        """A job that failed because Redis did not answer is noted, to be done again as soon
        as Redis answers (the outage is logged once, without a traceback per job); any other
        failure is RQ's to log."""
        error = exc_info[1] if len(exc_info) > 1 else None
        if isinstance(error, (*REDIS_DOWN, HandleLater)):
            self.outage.failed(error)
            self._cut_short[job.id] = job
            return
        super().handle_exception(job, *exc_info)

    def redo_cut_short(self) -> None:
        """Redis answers: do the jobs it cut short again at once. A drain's inbox goes to a
        new job (`Inbox.takeover`); any other job is enqueued again, at the front (each may
        run twice without harm)."""
        while self._inboxes_cut_short:
            room = self._inboxes_cut_short.pop()
            try:
                runtime().inbox.takeover(RoomId.parse(room))
            except REDIS_DOWN as error:
                self._inboxes_cut_short.add(room)
                self.outage.failed(error)
                return
            log.info("worker %s: drain of inbox %s cut short by Redis, done again", self.name,
                     room)  # fmt: skip
        while self._deliveries_cut_short:
            turn = self._deliveries_cut_short[-1]
            try:
                runtime().dispatch.enqueue_flush(RoomId.parse(turn.room), turn.attempt,
                                                 again=True)  # fmt: skip
            except REDIS_DOWN as error:
                self.outage.failed(error)
                return
            self._deliveries_cut_short.pop()
            log.info("worker %s: delivery of room %s cut short by Redis, done again",
                     self.name, turn.room)  # fmt: skip
        while self._cut_short:
            _, job = self._cut_short.popitem()
            if not job.func_name:
                continue
            try:
                if job.func_name == "workers.jobs.drain":
                    runtime().inbox.takeover(job.args[0])
                else:
                    Queue(job.origin, connection=self.connection).enqueue(
                        job.func_name, *job.args, **job.kwargs, job_timeout=job.timeout,
                        result_ttl=job.result_ttl, failure_ttl=job.failure_ttl, at_front=True,
                    )  # fmt: skip
            except REDIS_DOWN as error:  # gone again: the next recovery does it
                self._cut_short[job.id] = job
                self.outage.failed(error)
                return
            log.info("worker %s: %s (%s) cut short by Redis, done again", self.name,
                     job.description, job.id)  # fmt: skip
            if job.id in self._own_cut_short:  # in no registry of RQ's: nothing else drops it
                self._own_cut_short.discard(job.id)
                with contextlib.suppress(*REDIS_DOWN):
                    self.connection.delete(job.key)

    def perform_job(self, job: Job, queue: Queue) -> bool:
        """Run one of the bot's own jobs; refuse any other before it runs (`workers.trust`)."""
        refused = refusal(job)
        if refused is None:
            return super().perform_job(job, queue)
        log.warning("worker %s: refused job %s from queue %s: %s", self.name, job.id,
                    queue.name, refused)  # fmt: skip
        job.retries_left, job.webhooks = None, []
        self.handle_job_failure(job, queue, exc_string=f"refused by the worker: {refused}")
        return False

    def handle_job_failure(self, job: Job, queue: Queue, started_job_registry: Any = None,
                           exc_string: str = "") -> None:  # fmt: skip
        """RQ's failure bookkeeping, keeping the traceback in Redis with its secrets masked
        (`rq info`, dashboards and the failed registry show it)."""
        super().handle_job_failure(job, queue, started_job_registry, mask(exc_string))

    def check_for_suspension(self, burst: bool) -> None:
        """RQ's `rq suspend` check, which Redis away does not turn into the worker's end: once
        a second at most (RQ looks before every job, a round trip each)."""
        if not burst and time.monotonic() - self._suspension_checked < BEAT_EVERY:
            return
        self._suspension_checked = time.monotonic()
        try:
            super().check_for_suspension(burst)
        except REDIS_DOWN as error:
            self.outage.failed(error)

    def run_maintenance_tasks(self) -> None:
        """RQ's registry cleaning, put off while Redis is away."""
        try:
            super().run_maintenance_tasks()
        except REDIS_DOWN as error:
            self.outage.failed(error)

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        """RQ's heartbeat; while Redis is away the next one will do (the dequeue notices).
        RQ's beat after every job comes once a second at most, and in one round trip (RQ's
        own takes two): its record of the worker lives for minutes."""
        if timeout is None and pipeline is None:
            if time.monotonic() - self._beat < BEAT_EVERY:
                return
            self._beat = time.monotonic()
        try:
            if pipeline is not None:
                super().heartbeat(timeout, pipeline)
                return
            beat = self.connection.pipeline(transaction=False)
            super().heartbeat(timeout, beat)
            beat.execute()
        except REDIS_DOWN as error:
            self.outage.failed(error)

    def subscribe(self) -> None:
        """RQ's command channel, read by a thread that looks every `COMMAND_POLL` seconds
        whether it should stop (RQ's `subscribe` with a shorter wait)."""
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        self.pubsub_thread = self.pubsub.run_in_thread(
            sleep_time=COMMAND_POLL, daemon=True,
            exception_handler=self._pubsub_exception_handler,
        )  # fmt: skip

    def _pubsub_exception_handler(self, exc: Exception, pubsub: Any, pubsub_thread: Any) -> None:
        """The thread listening for `rq` commands: Redis away is the outage already logged;
        it tries again every second."""
        if not isinstance(exc, REDIS_DOWN):
            super()._pubsub_exception_handler(exc, pubsub, pubsub_thread)
            return
        self.outage.failed(exc)
        time.sleep(RETRY_S)

    def tend(self) -> None:
        """Sweep overdue timers and deliveries; restart the scheduler if it is gone."""
        now = time.monotonic()
        if now - self._tended < TEND_EVERY:
            return
        self._tended = now
        try:
            if self._sweeper is None:
                rt = runtime()
                self._sweeper = Sweeper(rt.client, rt.dispatch, rt.service.store, rt.inbox)
                rt.run(rt.bot)  # open the Bot API client before the first job needs it
            self._sweeper.sweep()
            TALLY.flush(self._sweeper.client)
            if now - self._revived >= REVIVE_EVERY:
                self._revived = now
                self.revive_scheduler()
        except StopRequested:
            raise
        except REDIS_DOWN as error:  # the outage is logged once, not each second
            self.outage.failed(error)
        except Exception as error:  # Telegram away for a moment, say: jobs will tell; go on
            self._tend_failures.failed("tending", error)
        else:
            self._tend_failures.over()

    def revive_scheduler(self) -> None:
        """Start a scheduler again when ours is not running and the lock is free."""
        scheduler = self.scheduler
        if scheduler is None or self._stop_requested:
            return
        process = scheduler._process
        if process is None or not process.is_alive():
            scheduler.acquire_locks(auto_start=True)  # type: ignore[no-untyped-call]

    def stop_scheduler(self) -> None:
        """Stop the scheduler process (RQ's way: SIGTERM, then wait for it), and wake it from
        its wait for jobs, so that it sees the signal at once rather than at its next look."""
        scheduler = self.scheduler
        process = scheduler._process if scheduler is not None else None
        if process is None or not process.pid:
            return
        with contextlib.suppress(OSError):
            os.kill(process.pid, signal.SIGTERM)
        for queue in self.queues:
            with contextlib.suppress(*REDIS_DOWN):  # it looks by itself within a second
                wake_now(self.connection, queue.name)
        process.join()

    def unsubscribe(self) -> None:
        """Leave the channel of `rq` commands (`rq shutdown`, kill a job) without waiting on
        its thread more than `PUBSUB_JOIN`.

        RQ sends UNSUBSCRIBE, then stops the thread and waits for it a second. The thread
        reads the reply and, unless told to stop by then, waits for a subscription again, for
        up to its 60-s poll; and redis-py 8.2's `PubSubWorkerThread.stop` waits for it to end
        without a bound (7.1's does not wait), so a warm stop hung for up to that minute
        whenever the thread won the race (a host's restart, the e2e tests' teardowns). Here the
        thread is told to stop first, so the reply to UNSUBSCRIBE wakes it to leave; and it is a
        daemon thread, so should it wait anyway (say, for a subscription lost with Redis) the
        process need not.
        """
        thread, pubsub = self.pubsub_thread, self.pubsub
        if thread is None or pubsub is None:
            return
        running = getattr(thread, "_running", None)  # what `stop` clears, before it joins
        if isinstance(running, threading.Event):
            running.clear()
        log.debug("worker %s: unsubscribing from %s", self.name, self.pubsub_channel_name)
        with contextlib.suppress(*REDIS_DOWN):
            pubsub.unsubscribe()
        thread.join(timeout=PUBSUB_JOIN)  # once out of its loop, it closes the pubsub itself

    def teardown(self) -> None:
        """Add the last counts to Redis before leaving (`tgbot.ops.metrics`)."""
        if self._sweeper is not None:
            TALLY.flush(self._sweeper.client)
        super().teardown()

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        """Warm shutdown: the current job finishes (a delivery stops after its message)."""
        STOPPING.set()
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def request_force_stop(self, signum: int, frame: FrameType | None) -> None:
        """Cold shutdown: enqueue the current job (or due delivery) again, then leave."""
        due = self._due
        if due is not None:
            try:
                runtime().dispatch.enqueue_flush(RoomId.parse(due.room), due.attempt, again=True)
                log.warning("worker %s: cold shutdown, delivery of room %s enqueued again",
                            self.name, due.room)  # fmt: skip
            except Exception:
                log.exception("worker %s: could not enqueue the delivery of room %s again",
                              self.name, due.room)  # fmt: skip
        job = self.get_current_job()
        if job is not None and job.func_name:
            try:
                queue = Queue(job.origin, connection=self.connection)
                queue.enqueue(job.func_name, *job.args, **job.kwargs, job_timeout=job.timeout,
                              result_ttl=job.result_ttl, failure_ttl=job.failure_ttl)
                log.warning("worker %s: cold shutdown, job %s enqueued again", self.name, job.id)
            except Exception:
                log.exception("worker %s: could not enqueue job %s again", self.name, job.id)
        super().request_force_stop(signum, frame)
