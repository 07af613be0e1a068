"""The sweeper: timers, deliveries and inboxes that are overdue get their job again.

RQ's scheduler fires a timer job at its deadline, a delivery job is enqueued for every message,
and a drain job takes each inbox of updates. A job can still be lost: its worker is killed
mid-job (RQ notices only when its abandoned-job cleanup runs, many minutes later), or the
scheduler died with its lock held. So every scheduled timer, every requested delivery and every
waiting inbox is also noted in a sorted set, and each worker looks at those sets about once a
second. What is overdue by more than its grace is claimed (by one worker, atomically) and its
job enqueued again. That is harmless when the first job did run after all: the rules refuse a
stale or early timeout, a delivery of an empty outbox does nothing, and an inbox given to a new
job is taken from the old one (`tgbot.ingress.inbox`).
"""

from __future__ import annotations

import logging

import redis

from engine.roomid import RoomId
from engine.store import CorruptRoom, Store, keys
from tgbot.ingress.inbox import Inbox
from workers.dispatch import RqDispatch, timer_of

log = logging.getLogger(__name__)

GRACE = 2.5  # the scheduler fires a timer within about a second of its deadline
# A drain job moves on after every update; one update takes far less than this (Bot API calls
# time out after 5 s), so an inbox that did not move for this long lost its job.
INBOX_GRACE = 10.0
TIMER_RECHECK = 10.0  # a claimed timer is looked at again after this, unless it moved on
DELIVERY_RECHECK = 5.0
LIMIT = 100

# Take up to ARGV[3] members scored at or below ARGV[1], moving their score to ARGV[2] so no
# other worker takes them meanwhile; returns [member, old score, …].
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0,
                       tonumber(ARGV[3]))
for i = 1, #due, 2 do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], due[i])
end
return due
"""

# Settle a claimed member: if its score is still our claim, remove it (ARGV[3] == '') or put
# back the real deadline. A score that changed means someone scheduled anew: leave it.
_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
end
return 1
"""


class Sweeper:
    """Re-enqueues the jobs of overdue timers and stalled deliveries."""

    def __init__(self, client: redis.Redis, dispatch: RqDispatch, store: Store,
                 inbox: Inbox) -> None:  # fmt: skip
        self.client = client
        self.dispatch = dispatch
        self.store = store
        self.inbox = inbox
        self._claim = client.register_script(_CLAIM)
        self._settle = client.register_script(_SETTLE)

    def claim(self, key: str, now: float, until: float,
              grace: float = GRACE) -> list[tuple[RoomId, float]]:  # fmt: skip
        """Rooms of a sorted set overdue by more than `grace`, now claimed until `until`."""
        raw = self._claim(keys=[key], args=[now - grace, repr(until), LIMIT])
        return [(RoomId.parse(raw[i]), float(raw[i + 1])) for i in range(0, len(raw), 2)]

    def sweep(self, now: float | None = None) -> int:
        """One pass over both sets; returns how many jobs were enqueued again."""
        now = self.dispatch.clock() if now is None else now
        return self.sweep_timers(now) + self.sweep_deliveries(now) + self.sweep_inboxes(now)

    def sweep_timers(self, now: float) -> int:
        until = now + TIMER_RECHECK
        fired = 0
        for where, _deadline in self.claim(keys.pending_timers(), now, until):
            try:
                room = self.store.load(where)
            except CorruptRoom:
                room = None
            named = timer_of(room, self.dispatch.games) if room is not None else None
            if room is None or room.deadline is None or named is None:
                self._settle(keys=[keys.pending_timers()], args=[str(where), repr(until), ""])
            elif room.deadline > now - GRACE:
                self._settle(keys=[keys.pending_timers()],
                             args=[str(where), repr(until), repr(room.deadline)])  # fmt: skip
            else:
                log.warning("room %s: timer of round %s (%s) is %.1fs overdue, firing it again",
                            where, *named, now - room.deadline)
                self.dispatch.enqueue_timer(where, *named)
                fired += 1
        return fired

    def sweep_deliveries(self, now: float) -> int:
        claimed = self.claim(keys.pending_deliveries(), now, now + DELIVERY_RECHECK)
        for where, asked in claimed:
            log.info("chat %s: delivery asked %.1fs ago is not done, asking again",
                        where, now - asked)
            # Its job may only be late: this one takes over, and that one does nothing.
            self.dispatch.enqueue_flush(where, again=True)
        return len(claimed)

    def sweep_inboxes(self, now: float) -> int:
        claimed = self.claim(keys.pending_inboxes(), now, now + INBOX_GRACE, INBOX_GRACE)
        taken = 0
        for where, moved in claimed:
            if self.inbox.takeover(where):
                log.warning("inbox %s has not moved for %.1fs, a new job takes it",
                            where, now - moved)
                taken += 1
        return taken
