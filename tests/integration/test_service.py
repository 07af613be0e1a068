"""The service on a real Redis and RQ: what it asks of the workers after each command."""

from __future__ import annotations

from rq import Queue
from rq.registry import ScheduledJobRegistry

from engine.commands import Join, OpenLobby, StartGame
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import keys
from tgbot.bootstrap import build_service
from tgbot.ops.config import Config
from workers.dispatch import RqDispatch, timer_job_id

CHAT = -100999
QUEUE = "servicetest"


def test_an_update_handled_again_after_a_crash_sets_its_timer_again(real_redis):
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    service = build_service(Config(token="1:x", queue=QUEUE), real_redis, "bot", dispatch)
    service.run(CHAT, OpenLobby(chat_id=CHAT, user_id=1, name="A", seed=3), update_id=1)
    for user in (2, 3):
        service.run(CHAT, Join(user_id=user, name=str(user)), update_id=user)
    # The first handling of update 9 committed, then its worker died before setting the timer.
    service.store.execute(CHAT, StartGame(user_id=1), update_id=9)
    registry = ScheduledJobRegistry(QUEUE, connection=real_redis)
    job_id = timer_job_id(CHAT, 1, "hint")
    assert job_id not in registry.get_job_ids()

    outcome = service.run(CHAT, StartGame(user_id=1), update_id=9)

    assert outcome.duplicate
    assert job_id in registry.get_job_ids()
    room = service.store.load(CHAT)
    job = Queue(QUEUE, connection=real_redis).fetch_job(job_id)
    assert room is not None and job is not None
    assert job.meta["not_before"] == room.deadline


def test_deliveries_kept_by_a_job_are_claimed_as_for_a_job_but_enqueue_none(real_redis):
    dispatch = RqDispatch(real_redis, QUEUE, GAMES)
    queue = Queue(QUEUE, connection=real_redis)
    where, other = RoomId(CHAT), RoomId(CHAT - 1)
    dispatch.keep_deliveries()
    dispatch.flush(where)
    dispatch.flush(where)  # claimed already: noted once
    real_redis.set(keys.flush_queued(other), "1")  # a delivery job of its own waits already
    dispatch.flush(other)

    assert len(queue) == 0
    assert real_redis.exists(keys.flush_queued(where))  # claimed: others wait for this one
    swept = real_redis.zrange(keys.pending_deliveries(), 0, -1)
    assert str(where).encode() in swept  # the sweeper's, should the job die first
    assert dispatch.kept_deliveries() == [where]
    real_redis.delete(keys.flush_queued(where))  # as the delivery does first
    dispatch.flush(where)  # no job keeps them any more: a delivery job
    assert [job.func_name for job in queue.jobs] == ["workers.jobs.flush"]
