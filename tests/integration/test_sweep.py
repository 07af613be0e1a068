"""The sweeper and the delivery jobs it enqueues again, on a real Redis."""

from __future__ import annotations

import time

from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from tgbot.ingress.inbox import Inbox
from workers.dispatch import RqDispatch
from workers.sweep import GRACE, Sweeper

QUEUE = "sweep-test"
ROOM = RoomId(-1007)


def test_a_late_delivery_enqueued_again_takes_over_from_its_job(real_redis):
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    sweeper = Sweeper(real_redis, dispatch, Store(real_redis, GAMES), Inbox(real_redis, QUEUE))
    # The room's delivery must wait: its job comes back in a moment ...
    at = time.time() + 0.5
    real_redis.zadd(keys.pending_deliveries(), {str(ROOM): at})
    dispatch.enqueue_flush(ROOM, at=at, again=True)
    scheduled = ScheduledJobRegistry(QUEUE, connection=real_redis).get_job_ids()
    retry = Job.fetch(scheduled[0], connection=real_redis).args
    # ... but comes later than the sweeper's grace (the workers are held up): the sweeper
    # enqueues the delivery again, and the late job, when it comes, does nothing.
    assert sweeper.sweep_deliveries(at + GRACE + 0.1) == 1
    swept = Queue(QUEUE, connection=real_redis).jobs[-1].args
    assert swept[0] == retry[0] == str(ROOM)
    assert not dispatch.current(ROOM, retry[2])
    assert dispatch.current(ROOM, swept[2])
    # A delivery asked for (a new message) always runs.
    assert dispatch.current(ROOM, None)


def test_a_delivery_coming_back_later_is_noted_in_one_transaction(real_redis):
    # Its moment in the sweeper's set, its chain and its job, all or nothing.
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    at = time.time() + 5
    real_redis.zadd(keys.pending_deliveries(), {str(ROOM): at - 4})
    with real_redis.pipeline() as pipe:
        pipe.multi()
        pipe.zadd(keys.pending_deliveries(), {str(ROOM): at}, xx=True)
        dispatch.enqueue_flush(ROOM, 2, at=at, again=True, pipe=pipe)
        registry = ScheduledJobRegistry(QUEUE, connection=real_redis)
        assert registry.get_job_ids() == [] and real_redis.get(keys.flush_chain(ROOM)) is None
        pipe.execute()
    [job_id] = registry.get_job_ids()
    job = Job.fetch(job_id, connection=real_redis)
    assert tuple(job.args[:2]) == (str(ROOM), 2)
    assert dispatch.current(ROOM, job.args[2])
    assert real_redis.zscore(keys.pending_deliveries(), str(ROOM)) == at
    dispatch.enqueue_flush(ROOM)  # without a pipeline: at once
    assert Queue(QUEUE, connection=real_redis).count == 1
