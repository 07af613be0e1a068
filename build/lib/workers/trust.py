"""Which RQ jobs a worker runs: the bot's own job functions, and nothing else.

Whatever can write to the Redis database can put a job in the bot's queue naming any importable
callable (`os.getenv`, say): RQ would run it and store what it returns (the token) in Redis.
A worker looks at each job before it runs and refuses one that names another function, a
method of some object, callbacks or webhooks (none of the bot's jobs has them). This does not
make a shared database safe: RQ's job data is pickled, and loading a crafted pickle runs code
of its writer's choosing. Bots that share a Redis database must trust each other.
"""

from __future__ import annotations

from rq.job import Job

from workers.jobs import RUNNABLE


def refusal(job: Job) -> str | None:
    """Why the worker must not run this job, or None for one of the bot's own."""
    try:
        name, instance = job.func_name, job.instance
    except Exception as error:  # data that does not even load
        return f"its data does not load ({type(error).__name__})"
    if instance is not None or name not in RUNNABLE:
        return f"{name!r} is not one of the bot's job functions"
    callbacks = (job._success_callback_name, job._failure_callback_name,
                 job._stopped_callback_name)  # fmt: skip
    if any(callbacks) or job.webhooks:
        return "it names callbacks or webhooks"
    return None
