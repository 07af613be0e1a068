"""Dispatch on RQ: delivery jobs per chat and timer jobs at their deadline."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import redis
from rq import Queue

from engine.events import Event
from engine.model import Room

# Events after which the room waits on a new deadline.
TIMED = frozenset({"round_started", "hint_given", "voting_opened", "round_scored"})


def timer_job_id(chat_id: int, round_no: int, phase: str) -> str:
    """One timer job per room, round and phase (RQ ids allow [A-Za-z0-9_-])."""
    return f"timer_{chat_id}_{round_no}_{phase}"


class RqDispatch:
    """Enqueue delivery and timers on an RQ queue."""

    def __init__(self, client: redis.Redis, queue: str) -> None:
        self.queue = Queue(queue, connection=client)

    def flush(self, chat_id: int) -> None:
        """Deliver the chat's outbox on a worker."""
        self.queue.enqueue(
            "workers.jobs.flush", chat_id, job_timeout=120, result_ttl=600, failure_ttl=24 * 3600
        )

    def schedule(self, room: Room, events: list[Event]) -> None:
        """Fire the timer of the room's current phase at its deadline, never before."""
        if room.deadline is None or room.round is None:
            return
        if not any(e.kind in TIMED for e in events):
            return
        self.schedule_timer(room.chat_id, room.round.no, room.phase.value, room.deadline)

    def schedule_timer(self, chat_id: int, round_no: int, phase: str, deadline: float) -> None:
        """Schedule one timer job (the scheduler works in whole seconds: round up)."""
        when = datetime.fromtimestamp(math.ceil(deadline), UTC)
        self.queue.enqueue_at(
            when,
            "workers.jobs.fire_timer",
            chat_id,
            round_no,
            phase,
            job_id=timer_job_id(chat_id, round_no, phase),
            result_ttl=600,
            failure_ttl=24 * 3600,
        )
