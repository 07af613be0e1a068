"""A worker asked to stop leaves at once, whatever the thread reading RQ's command channel was
doing (on the real Redis)."""

from __future__ import annotations

import time

from rq import Queue

from tests.harness import wait_for
from workers.worker import COMMAND_POLL, HintrigueWorker


def test_a_stop_that_finds_the_command_thread_unsubscribed_waits_no_longer_than_its_poll(
    real_redis,
):
    worker = HintrigueWorker([Queue("stoptest", connection=real_redis)], connection=real_redis)
    worker.subscribe()
    pubsub, thread = worker.pubsub, worker.pubsub_thread
    wait_for(lambda: pubsub.subscribed, 5, "the subscription")
    # The race a warm stop can lose: the thread reads the unsubscription before it is told to
    # stop, and then waits for a new subscription (RQ's own wait: a minute).
    pubsub.unsubscribe()
    wait_for(lambda: not pubsub.subscribed, 5, "the unsubscription")
    time.sleep(0.2)
    started = time.monotonic()
    worker.unsubscribe()  # what RQ's teardown does
    assert not thread.is_alive()
    assert time.monotonic() - started <= COMMAND_POLL + 1
