"""The service on a real Redis and RQ: what it asks of the workers after each command."""

from __future__ import annotations

from rq import Queue
from rq.registry import ScheduledJobRegistry

from engine.commands import Join, OpenLobby, StartGame
from engine.games.registry import GAMES
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
