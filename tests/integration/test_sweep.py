"""The sweeper and the delivery jobs it enqueues again, on a real Redis."""

from __future__ import annotations

import time

from rq import Queue
from rq.registry import ScheduledJobRegistry

from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from tgbot.ingress.inbox import Inbox
from workers.dispatch import RqDispatch
from workers.sweep import GRACE, Sweeper
from workers.worker import DeliveryTurn

QUEUE = "sweep-test"
ROOM = RoomId(-1007)


def waiting(real_redis) -> DeliveryTurn:
    [entry] = real_redis.zrange(keys.delivery_waits(QUEUE), 0, -1)
    return DeliveryTurn.parse(entry.decode())


def test_a_late_delivery_enqueued_again_takes_over_from_its_wait(real_redis):
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    sweeper = Sweeper(real_redis, dispatch, Store(real_redis, GAMES), Inbox(real_redis, QUEUE))
    # The room's delivery must wait: it comes back in a moment ...
    at = time.time() + 0.5
    real_redis.zadd(keys.pending_deliveries(), {str(ROOM): at})
    with real_redis.pipeline() as pipe:
        dispatch.flush_later(ROOM, at, 0, pipe)
        pipe.execute()
    retry = waiting(real_redis)
    # ... but comes later than the sweeper's grace (the workers are held up): the sweeper
    # enqueues the delivery again, and the late one, when it comes, does nothing.
    assert sweeper.sweep_deliveries(at + GRACE + 0.1) == 1
    swept = Queue(QUEUE, connection=real_redis).jobs[-1].args
    assert swept[0] == retry.room == str(ROOM)
    assert not dispatch.current(ROOM, retry.chain)
    assert dispatch.current(ROOM, swept[2])
    # A delivery asked for (a new message) always runs.
    assert dispatch.current(ROOM, None)


def test_a_delivery_coming_back_later_is_noted_in_one_transaction(real_redis):
    # Its moment in the sweeper's set, its chain and its wait, all or nothing; no RQ job.
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    at = time.time() + 5
    real_redis.zadd(keys.pending_deliveries(), {str(ROOM): at - 4})
    with real_redis.pipeline() as pipe:
        pipe.zadd(keys.pending_deliveries(), {str(ROOM): at}, xx=True)
        dispatch.flush_later(ROOM, at, 2, pipe)
        assert not real_redis.exists(keys.delivery_waits(QUEUE), keys.flush_chain(ROOM))
        pipe.execute()
    turn = waiting(real_redis)
    assert (turn.room, turn.attempt) == (str(ROOM), 2)
    assert real_redis.zscore(keys.delivery_waits(QUEUE), f"{ROOM} 2 {turn.chain}") == at
    assert dispatch.current(ROOM, turn.chain)
    assert real_redis.zscore(keys.pending_deliveries(), str(ROOM)) == at
    assert real_redis.llen(keys.scheduler_wake(QUEUE)) == 1  # no scheduler plans a look
    assert ScheduledJobRegistry(QUEUE, connection=real_redis).count == 0
    assert Queue(QUEUE, connection=real_redis).count == 0
    dispatch.enqueue_flush(ROOM)  # without a pipeline: at once
    assert Queue(QUEUE, connection=real_redis).count == 1
