"""Which jobs a worker runs: the bot's own job functions, and no job naming anything else."""

from __future__ import annotations

import re
from pathlib import Path

import fakeredis
from rq import Callback
from rq.job import Job

from workers.jobs import RUNNABLE
from workers.trust import refusal

REDIS = fakeredis.FakeRedis()


def job(func: object, **options: object) -> Job:
    return Job.create(func, args=("-100", 0), connection=REDIS, **options)  # type: ignore[arg-type]


def test_the_bots_own_jobs_run():
    assert {
        "workers.jobs.drain",
        "workers.jobs.flush",
        "workers.jobs.fire_timer",
        "workers.jobs.ai_move",
        "workers.jobs.remind",
        "workers.jobs.lobby_tick",
    } == RUNNABLE
    for name in RUNNABLE:
        assert refusal(job(name)) is None


def test_any_other_callable_is_refused():
    assert "'os.getenv' is not one of the bot's job functions" in (refusal(job("os.getenv")) or "")
    assert refusal(job(" workers.jobs.flush")) is not None


def test_a_method_of_some_object_named_like_a_job_is_refused():
    class Named:
        def flush(self, room: str, attempt: int) -> None: ...

    crafted = job(Named().flush)
    crafted.func_name = "workers.jobs.flush"  # with its instance kept
    assert refusal(crafted) is not None


def test_one_of_the_bots_jobs_with_a_callback_is_refused():
    assert refusal(job("workers.jobs.flush", on_success=Callback("os.getenv"))) is not None
    assert refusal(job("workers.jobs.flush", on_failure=Callback("os.system"))) is not None


def test_every_job_the_bot_enqueues_is_one_a_worker_runs():
    root = Path(__file__).resolve().parents[2]
    named = {m for path in [*root.glob("workers/*.py"), *root.glob("tgbot/**/*.py")]
             for m in re.findall(r"\"(workers\.jobs\.\w+)\"", path.read_text())}  # fmt: skip
    assert named and named <= RUNNABLE
