"""The workers' scheduler waits for the next due job, or for a job to be scheduled, rather than
looking for due jobs at a fixed pace (`workers.waking`, `workers.worker.TimerScheduler`)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import keys
from workers.dispatch import RqDispatch
from workers.waking import WakingQueue
from workers.worker import DeliveryTurn, InboxQueue, TimerScheduler

QUEUE = "wait-test"


@pytest.fixture
def scheduler(real_redis) -> Iterator[TimerScheduler]:
    queue = WakingQueue(QUEUE, connection=real_redis)
    timers = TimerScheduler([queue], connection=real_redis)
    timers.acquire_locks()
    assert timers.acquired_locks == {QUEUE}
    try:
        yield timers
    finally:
        timers.release_locks()


def schedule(real_redis, at: float) -> None:
    """A delivery job due at `at` (filed under its whole second, as the bot files them)."""
    WakingQueue(QUEUE, connection=real_redis).enqueue_at(
        datetime.fromtimestamp(math.floor(at), UTC), "workers.jobs.flush", "-1", 0,
        meta={"not_before": at},
    )  # fmt: skip


def test_a_quiet_scheduler_waits_a_whole_second_between_looks(scheduler) -> None:
    assert scheduler.look() == pytest.approx(1.0)
    began = time.monotonic()
    scheduler.wait_for_jobs(1.0)
    assert time.monotonic() - began > 0.9


def test_a_job_due_before_the_next_look_wakes_the_wait_at_once(scheduler, real_redis) -> None:
    scheduler.look()
    threading.Timer(0.2, lambda: schedule(real_redis, time.time() + 3)).start()
    began = time.monotonic()
    scheduler.wait_for_jobs(5.0)
    assert 0.15 < time.monotonic() - began < 1.0
    # The next look empties the wake list: the wait after it waits again.
    scheduler.look()
    assert real_redis.llen(keys.scheduler_wake(QUEUE)) == 0


def test_a_job_due_after_the_next_look_lets_the_wait_go_on(scheduler, real_redis) -> None:
    scheduler.look()
    threading.Timer(0.2, lambda: schedule(real_redis, time.time() + 30)).start()
    began = time.monotonic()
    scheduler.wait_for_jobs(1.0)
    assert time.monotonic() - began > 0.9
    assert real_redis.llen(keys.scheduler_wake(QUEUE)) == 0


def test_while_it_looks_every_job_scheduled_wakes_it(scheduler, real_redis) -> None:
    scheduler.look()  # no look planned until it waits: the job may have come after the look
    schedule(real_redis, time.time() + 30)
    assert real_redis.llen(keys.scheduler_wake(QUEUE)) == 1


def test_the_wait_lasts_until_the_next_job_is_due_and_the_look_then_enqueues_it(
    scheduler, real_redis
) -> None:
    queue = WakingQueue(QUEUE, connection=real_redis)
    at = time.time() + 0.4
    schedule(real_redis, at)
    looks = 0
    while True:
        due_in = scheduler.look()
        looks += 1
        if queue.count:
            break
        assert due_in <= at - time.time() + 0.05  # never past the job's moment
        assert looks < 5, "the scheduler looked again and again"
        scheduler.wait_for_jobs(due_in)
    assert time.time() >= at
    assert time.time() - at < 0.2


def test_a_wake_list_holds_one_word_however_many_jobs_are_scheduled(real_redis) -> None:
    for n in range(5):
        schedule(real_redis, time.time() + 60 + n)
    assert real_redis.lrange(keys.scheduler_wake(QUEUE), 0, -1) == [b"1"]


def test_a_job_is_saved_and_filed_in_the_transaction_it_is_scheduled_in(real_redis) -> None:
    # RQ files it in the scheduled registry apart, at once: a scheduler's look before the
    # transaction would find the id of a job not saved yet, and drop it.
    queue = WakingQueue(QUEUE, connection=real_redis)
    at = time.time() + 60
    with real_redis.pipeline() as pipe:
        job = queue.enqueue_at(datetime.fromtimestamp(math.floor(at), UTC), "workers.jobs.flush",
                               "-1", 0, meta={"not_before": at}, pipeline=pipe)  # fmt: skip
        registry = ScheduledJobRegistry(queue=queue)
        assert registry.get_job_ids() == [] and not real_redis.exists(job.key)
        pipe.execute()
    assert registry.get_job_ids() == [job.id]
    assert real_redis.zscore(registry.key, job.id) == pytest.approx(at)  # its exact moment
    saved = Job.fetch(job.id, connection=real_redis)
    assert saved.get_status() == JobStatus.SCHEDULED and saved.meta == {"not_before": at}
    assert real_redis.sismember("rq:queues", queue.key)


def test_a_look_enqueues_the_jobs_due_timers_first_and_tells_when_the_next_is(
    scheduler, real_redis
) -> None:
    queue = WakingQueue(QUEUE, connection=real_redis)
    now = time.time()

    def job(name: str, at: float, at_front: bool = False) -> Job:
        return queue.enqueue_at(datetime.fromtimestamp(math.floor(at), UTC), "workers.jobs.flush",
                                name, 0, meta={"not_before": at}, at_front=at_front)  # fmt: skip

    first, timer, later = job("-1", now - 0.5), job("-2", now - 0.2, True), job("-3", now + 30)
    assert scheduler.look() == pytest.approx(1.0)  # its heartbeat comes before the next
    assert queue.get_job_ids() == [timer.id, first.id]  # a timer waits for no delivery
    for done in (timer, first):
        fetched = Job.fetch(done.id, connection=real_redis)
        assert fetched.get_status() == JobStatus.QUEUED and fetched.args[0] in ("-1", "-2")
        assert fetched.enqueued_at is not None and abs(fetched.enqueued_at.timestamp() - now) < 5
    assert ScheduledJobRegistry(queue=queue).get_job_ids() == [later.id]
    soon = job("-4", time.time() + 0.3)
    assert 0.1 < scheduler.look() <= 0.3
    assert queue.get_job_ids() == [timer.id, first.id]
    time.sleep(0.3)
    scheduler.look()
    assert queue.get_job_ids() == [timer.id, first.id, soon.id]


def test_a_job_filed_by_its_second_alone_still_waits_for_its_moment(scheduler, real_redis
                                                                    ) -> None:  # fmt: skip
    # As an older version filed it, or RQ's own scheduling: under its whole second, its
    # moment only in its meta.
    queue = WakingQueue(QUEUE, connection=real_redis)
    at = time.time() + 0.4
    job = queue.enqueue_at(datetime.fromtimestamp(math.floor(at), UTC), "workers.jobs.flush",
                           "-1", 0, meta={"not_before": at})  # fmt: skip
    real_redis.hdel(job.key, "not_before")
    real_redis.zadd(ScheduledJobRegistry(queue=queue).key, {job.id: math.floor(at)})
    gone = queue.enqueue_at(datetime.fromtimestamp(math.floor(time.time()) - 1, UTC),
                            "workers.jobs.flush", "-2", 0)  # fmt: skip
    real_redis.delete(gone.key)  # its record expired: its entry goes
    wait = scheduler.look()
    assert queue.count == 0 and wait <= at - time.time() + 0.05
    assert ScheduledJobRegistry(queue=queue).get_job_ids() == [job.id]
    time.sleep(max(0.0, at - time.time()))
    scheduler.look()
    assert queue.get_job_ids() == [job.id]
    assert ScheduledJobRegistry(queue=queue).get_job_ids() == []


def wait_delivery(real_redis, room: int, at: float, attempt: int = 0) -> None:
    """A delivery of `room` held by the rate limits until `at` (as `_come_back` notes it)."""
    pipe = real_redis.pipeline()
    RqDispatch(real_redis, QUEUE, GAMES).flush_later(RoomId(room), at, attempt, pipe)
    pipe.execute()


def ready(real_redis) -> list[str]:
    return [raw.decode().split(" ")[0] for raw in
            real_redis.lrange(keys.delivery_ready(QUEUE), 0, -1)]  # fmt: skip


def test_a_look_hands_the_due_deliveries_to_the_workers_in_order_and_waits_for_the_next(
    scheduler, real_redis
) -> None:
    now = time.time()
    wait_delivery(real_redis, -2, now - 0.1)
    wait_delivery(real_redis, -1, now - 0.5, attempt=2)
    wait_delivery(real_redis, -3, now + 0.3)
    assert 0.1 < scheduler.look() <= 0.3  # the next delivery's moment, not the heartbeat's
    assert ready(real_redis) == ["-1", "-2"]
    [first, _] = real_redis.lrange(keys.delivery_ready(QUEUE), 0, -1)
    turn = DeliveryTurn.parse(first.decode())
    assert (turn.room, turn.attempt) == ("-1", 2)
    assert RqDispatch(real_redis, QUEUE, GAMES).current(RoomId(-1), turn.chain)
    # No RQ job was made for any of them.
    assert ScheduledJobRegistry(QUEUE, connection=real_redis).count == 0
    assert WakingQueue(QUEUE, connection=real_redis).count == 0
    time.sleep(max(0.0, now + 0.3 - time.time()))
    assert scheduler.look() == pytest.approx(1.0)
    assert ready(real_redis) == ["-1", "-2", "-3"]
    assert real_redis.zcard(keys.delivery_waits(QUEUE)) == 0


def test_a_delivery_due_before_the_next_look_wakes_the_wait(scheduler, real_redis) -> None:
    scheduler.look()
    threading.Timer(0.2, lambda: wait_delivery(real_redis, -1, time.time() + 0.3)).start()
    began = time.monotonic()
    scheduler.wait_for_jobs(5.0)
    assert 0.15 < time.monotonic() - began < 1.0
    assert 0.0 < scheduler.look() <= 0.3


def test_a_worker_pops_a_due_delivery_after_its_queues_jobs(scheduler, real_redis) -> None:
    queue = InboxQueue(QUEUE, connection=real_redis)
    wait_delivery(real_redis, -1, time.time() - 1, attempt=1)
    scheduler.look()
    job = queue.enqueue("workers.jobs.fire_timer", "-2", 1, "hint")
    work = [InboxQueue.next_work([queue], None, real_redis)[0] for _ in range(2)]
    assert isinstance(work[0], Job) and work[0].id == job.id
    assert isinstance(work[1], DeliveryTurn) and (work[1].room, work[1].attempt) == ("-1", 1)
    assert InboxQueue.next_work([queue], None, real_redis) is None
    real_redis.rpush(keys.delivery_ready(QUEUE), "not a delivery")
    assert InboxQueue.next_work([queue], None, real_redis) is None  # dropped, and logged
