"""A worker's warm stop does not wait on the thread that listens for `rq` commands."""

from __future__ import annotations

import threading
import time

from rq import Queue

from tests.conftest import DEFAULT_TOKEN
from tests.harness import wait_for
from workers import worker as worker_module
from workers.worker import HintrigueWorker


def test_leaving_does_not_wait_for_the_command_thread_to_find_a_subscription(
    real_redis, monkeypatch
):
    # The race a warm stop lost now and then (a minute's hang, after simultaneous presses in
    # tests/e2e/test_game.py): the thread has read the reply to an UNSUBSCRIBE before it was
    # told to stop, and waits for a subscription again, for up to its 60-s poll.
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", DEFAULT_TOKEN)
    monkeypatch.setattr(worker_module.logs, "configured", lambda: True)  # the test's logging
    worker = HintrigueWorker([Queue("stop-test", connection=real_redis)], connection=real_redis)
    worker.subscribe()
    pubsub, thread = worker.pubsub, worker.pubsub_thread
    assert pubsub is not None and thread is not None
    wait_for(lambda: pubsub.subscribed, 5, "the subscription")
    pubsub.unsubscribe()
    wait_for(lambda: not pubsub.subscribed, 5, "the thread to read the reply")

    left = threading.Event()
    began = time.monotonic()
    threading.Thread(target=lambda: (worker.unsubscribe(), left.set()), daemon=True).start()
    assert left.wait(5), "the worker waited for its command thread"
    assert time.monotonic() - began < 2


def test_leaving_ends_the_command_thread_at_once(real_redis, monkeypatch):
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", DEFAULT_TOKEN)
    monkeypatch.setattr(worker_module.logs, "configured", lambda: True)
    worker = HintrigueWorker([Queue("stop-test", connection=real_redis)], connection=real_redis)
    for _ in range(20):  # whichever way the race goes
        worker.subscribe()
        pubsub, thread = worker.pubsub, worker.pubsub_thread
        assert pubsub is not None and thread is not None
        wait_for(lambda: pubsub.subscribed, 5, "the subscription")  # noqa: B023
        began = time.monotonic()
        worker.unsubscribe()
        assert time.monotonic() - began < 0.5
        wait_for(lambda: not thread.is_alive(), 1, "the thread to end")  # noqa: B023
