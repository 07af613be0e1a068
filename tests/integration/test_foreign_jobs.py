"""A worker runs the bot's own job functions only: a job naming any other callable, which
whatever can write to the Redis database could put in the bot's queue, is refused before it
runs, logged, and nothing it would have returned is stored (real Redis, a real RQ worker)."""

from __future__ import annotations

from pathlib import Path

from rq import Queue
from rq.job import JobStatus
from rq.results import Result

from tests.harness import wait_for


def test_a_worker_refuses_a_job_naming_a_foreign_function_and_goes_on(stack):
    queue = Queue(stack.config.queue, connection=stack.client)
    job = queue.enqueue("os.getenv", "TELEGRAM_BOT_TOKEN")
    wait_for(lambda: job.get_status(refresh=True) in (JobStatus.FAILED, JobStatus.FINISHED), 20,
             "the worker to take the job")  # fmt: skip
    assert job.get_status() == JobStatus.FAILED
    result = job.latest_result()
    assert result is not None and result.type == Result.Type.FAILED
    assert result.return_value is None and "not one of the bot's job functions" in (
        result.exc_string or ""
    )
    log = (Path(stack.env["HINTRIGUE_LOG_DIR"]) / "worker0.log").read_text()
    assert f"refused job {job.id}" in log and "'os.getenv'" in log
    # The worker goes on with the bot's own work.
    user = stack.world.add_user(first_name="Ann").id
    stack.deliver(stack.world.start_private(user))
    wait_for(lambda: stack.dm(user), 20, "the answer to /start")
