"""The worker's record in Redis and its look for `rq suspend` cost a round trip each, which
RQ pays before or after every job: here they come once a second at most, whatever the pace
of the jobs, and the heartbeat's two writes go in one round trip."""

from __future__ import annotations

import pytest
from rq.exceptions import StopRequested
from rq.suspension import resume, suspend

from tests.conftest import DEFAULT_TOKEN
from workers import worker as worker_module
from workers.worker import BEAT_EVERY, HintrigueWorker, InboxQueue


class Clock:
    """The worker module's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(worker_module.time, "monotonic", clock)
    return clock


@pytest.fixture
def worker(real_redis, monkeypatch, clock) -> HintrigueWorker:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", DEFAULT_TOKEN)
    monkeypatch.setattr(worker_module.logs, "configured", lambda: True)  # the test's logging
    return HintrigueWorker([InboxQueue("beat-test", connection=real_redis)],
                           connection=real_redis)  # fmt: skip


def beat_of(worker: HintrigueWorker, real_redis) -> bytes | None:
    return real_redis.hget(worker.key, "last_heartbeat")


def test_the_heartbeat_after_each_job_goes_once_a_second(worker, real_redis, clock) -> None:
    worker.heartbeat()
    first = beat_of(worker, real_redis)
    assert first is not None
    assert 0 < real_redis.ttl(worker.key) <= worker.worker_ttl + 60  # both writes went
    real_redis.hdel(worker.key, "last_heartbeat")
    clock.now += BEAT_EVERY / 2
    worker.heartbeat()  # a job ended half a second later: no write
    assert beat_of(worker, real_redis) is None
    clock.now += BEAT_EVERY / 2
    worker.heartbeat()
    assert beat_of(worker, real_redis) is not None


def test_a_heartbeat_with_its_own_timeout_always_goes(worker, real_redis, clock) -> None:
    worker.heartbeat()
    worker.heartbeat(timeout=5000)  # RQ's, before a long job: never put off
    assert 4000 < real_redis.ttl(worker.key) <= 5000


class Suspended(Exception):
    """The worker went into RQ's wait of a suspended worker."""


def test_rq_suspend_is_seen_within_a_second(worker, real_redis, clock, monkeypatch) -> None:
    def set_state(state: str, pipeline: object = None) -> None:
        raise Suspended(state)

    worker.check_for_suspension(False)
    suspend(real_redis)
    try:
        monkeypatch.setattr(worker, "set_state", set_state)
        clock.now += BEAT_EVERY / 2
        worker.check_for_suspension(False)  # not looked: the next job may still start
        clock.now += BEAT_EVERY / 2
        with pytest.raises(Suspended):
            worker.check_for_suspension(False)
        with pytest.raises(StopRequested):
            worker.check_for_suspension(True)  # burst mode looks every time, and leaves
    finally:
        resume(real_redis)
