"""A worker runs the bot's own jobs (timers, AI moves, deliveries) without RQ's bookkeeping of
their execution, as it runs drains (`HintrigueWorker.run_own_job`): done, a job is gone; a
failure is still RQ's (the failed jobs' registry); one that Redis cut short is done again."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, FinishedJobRegistry, StartedJobRegistry
from rq.worker import WorkerStatus

from tests.conftest import DEFAULT_TOKEN
from workers import jobs
from workers import worker as worker_module
from workers.worker import HintrigueWorker, InboxQueue

QUEUE = "own-jobs-test"


@pytest.fixture
def worker(real_redis, monkeypatch) -> HintrigueWorker:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", DEFAULT_TOKEN)
    monkeypatch.setattr(worker_module.logs, "configured", lambda: True)  # the test's logging
    return HintrigueWorker([InboxQueue(QUEUE, connection=real_redis)], connection=real_redis)


def taken(worker: HintrigueWorker, real_redis) -> tuple[Job, InboxQueue]:
    """A reminder job, enqueued and taken off its queue as the worker takes one."""
    queue = InboxQueue(QUEUE, connection=real_redis)
    job = queue.enqueue("workers.jobs.remind", "-1001", 2, "voting", job_timeout=60,
                        result_ttl=0, failure_ttl=3600)  # fmt: skip
    assert real_redis.lpop(queue.key) == job.id.encode()
    return Job.fetch(job.id, connection=real_redis), queue


def test_a_job_done_leaves_nothing_of_it_in_redis(worker, real_redis, monkeypatch) -> None:
    seen: list[Any] = []

    def remind(where: str, round_no: int, phase: str) -> bool:
        current = worker.get_current_job()
        seen.append((where, round_no, phase, worker.get_state(), current and current.id))
        return True

    monkeypatch.setattr(jobs, "remind", remind)
    job, queue = taken(worker, real_redis)
    calls: list[str] = []
    monkeypatch.setattr(worker, "prepare_execution", lambda job: calls.append("rq"))
    worker.execute_job(job, queue)
    # Run as a job, the worker busy meanwhile (a warm stop waits for it), RQ's bookkeeping not.
    assert seen == [("-1001", 2, "voting", WorkerStatus.BUSY, job.id)]
    assert calls == []
    assert worker.get_state() == WorkerStatus.IDLE and worker.get_current_job() is None
    assert not real_redis.exists(job.key)
    for registry in (StartedJobRegistry, FinishedJobRegistry, FailedJobRegistry):
        assert registry(QUEUE, connection=real_redis).count == 0


def test_a_job_that_fails_is_kept_as_rq_keeps_a_failed_job(worker, real_redis, monkeypatch
                                                           ) -> None:  # fmt: skip
    def remind(where: str, round_no: int, phase: str) -> bool:
        raise ValueError("the reminder broke")

    monkeypatch.setattr(jobs, "remind", remind)
    job, queue = taken(worker, real_redis)
    worker.execute_job(job, queue)
    assert job.id in FailedJobRegistry(QUEUE, connection=real_redis).get_job_ids()
    failed = Job.fetch(job.id, connection=real_redis)
    assert failed.get_status() == JobStatus.FAILED
    result = failed.latest_result()
    assert result is not None and "the reminder broke" in (result.exc_string or "")
    assert worker.get_state() == WorkerStatus.IDLE


def test_a_job_that_redis_cut_short_is_done_again_once_it_answers(worker, real_redis,
                                                                  monkeypatch) -> None:  # fmt: skip
    def remind(where: str, round_no: int, phase: str) -> bool:
        raise redis.ConnectionError("Redis went away")

    monkeypatch.setattr(jobs, "remind", remind)
    job, queue = taken(worker, real_redis)
    worker.execute_job(job, queue)
    assert queue.count == 0
    worker.redo_cut_short()
    again = [(j.func_name, j.args) for j in queue.jobs]
    assert again == [("workers.jobs.remind", ("-1001", 2, "voting"))]
    assert not real_redis.exists(job.key)  # the job cut short, replaced by the one enqueued


def test_a_job_that_is_not_the_bot_s_is_refused_by_rq_s_way(worker, real_redis) -> None:
    queue = InboxQueue(QUEUE, connection=real_redis)
    job = queue.enqueue("os.getenv", "TELEGRAM_BOT_TOKEN")
    real_redis.lpop(queue.key)
    worker.execute_job(Job.fetch(job.id, connection=real_redis), queue)
    assert job.id in FailedJobRegistry(QUEUE, connection=real_redis).get_job_ids()
