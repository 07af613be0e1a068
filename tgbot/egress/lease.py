"""A chat's delivery lock as a lease: short, and renewed by its holder while it works.

One process at a time delivers a chat's outbox (`tgbot.egress.delivery`). The lock it takes lasts
`SECONDS` only, and a thread of the holder renews it every `RENEW_EVERY` seconds for as long as
the holder works, a slow Bot API call included. So a holder that died (killed, its machine
gone, Redis restarted meanwhile) leaves the chat to another worker within `SECONDS`, while a
holder that is only slow keeps it: renewal needs no more than the process being alive and
Redis answering, whatever the event loop is busy with. One thread renews every lease of the
process (`_Renewer`): a thread started and joined for each lease cost more than its renewals.

Each renewal also moves the chat's entry in the sweeper's set of waiting deliveries, to
`look_again` seconds from now: a working holder is never swept, and a dead one's chat is looked
at again once its lease is `ABANDONED`; the delivery job the sweeper enqueues then waits for
the last second of the lease and takes the chat (nothing is left to RQ's scheduler, which may
have died with the holder).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time

import redis
from redis.exceptions import RedisError

from engine.store.scripts import script

log = logging.getLogger(__name__)

SECONDS = 2.0
RENEW_EVERY = 0.5  # four renewals fit in one lease: a holder stalled for 1.5 s still keeps it
# A lease with no more than this left missed two renewals: its holder is most likely gone, and
# waiting for the lease to run out is worth it.
ABANDONED = SECONDS - 2 * RENEW_EVERY

_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local t = redis.call('TIME')
local at = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[4])
redis.call('ZADD', KEYS[2], 'XX', at, ARGV[3])
return 1
"""

# Delete KEYS[2] (whatever it marks ends as the lock is asked for), then take the lock.
_TAKE_CLEARING = """
redis.call('DEL', KEYS[2])
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Lease:
    """The lock `key` while this process holds it; `swept` is the set of waiting deliveries
    and `member` the chat's entry in it."""

    def __init__(self, client: redis.Redis, key: str, swept: str, member: str,
                 look_again: float) -> None:  # fmt: skip
        self.client = client
        self.key = key
        self._sweep = (swept, member, repr(look_again))
        self._token = ""
        self._renewed = 0.0
        self._lost = False
        self._renew = script(client, _RENEW)
        self._release = script(client, _RELEASE)
        self._take_clearing = script(client, _TAKE_CLEARING)

    def take(self, clearing: str | None = None) -> bool:
        """Take the lock if it is free, and keep renewing it until `release`; with
        `clearing`, delete that key first, taken or not, in the same round trip."""
        token = secrets.token_hex(8)
        ms = int(SECONDS * 1000)
        if clearing is None:
            taken = self.client.set(self.key, token, nx=True, px=ms)
        else:
            taken = self._take_clearing(keys=[self.key, clearing], args=[token, ms])
        if not taken:
            return False
        self._token, self._renewed, self._lost = token, time.monotonic(), False
        _RENEWER.hold(self)
        return True

    def ours(self) -> bool:
        """Whether the lock is still ours for a while (False once another could take it)."""
        return not self._lost and time.monotonic() - self._renewed < SECONDS - RENEW_EVERY

    @property
    def token(self) -> str:
        """What the lock holds while it is ours (a script that frees it checks it)."""
        return self._token

    def stop(self) -> None:
        """Stop renewing (the caller frees the lock, or lets it run out). A renewal already
        under way may still extend the lock once, while it holds this token."""
        _RENEWER.drop(self)

    def release(self) -> None:
        """Stop renewing and free the lock, if it is still ours."""
        self.stop()
        self._release(keys=[self.key], args=[self._token])

    def remaining(self) -> float:
        """Seconds until the lock's current holder loses it, unless renewed (0: it is free)."""
        ms = int(self.client.pttl(self.key))
        if ms == -1:  # no expiry: not a lease of ours; treat it as one just renewed
            return SECONDS
        return max(0.0, ms / 1000)

    def renew(self) -> bool:
        """Renew the lock once (the renewing thread's); False when it is no longer ours."""
        token = self._token
        began = time.monotonic()
        swept, member, look_again = self._sweep
        try:
            kept = self._renew(keys=[self.key, swept],
                               args=[token, int(SECONDS * 1000), member, look_again])  # fmt: skip
        except RedisError:
            return True  # Redis away: `ours` turns False once the lease may have run out
        if token != self._token:
            return True  # taken anew meanwhile: that lease is renewed in its turn
        if not kept:
            self._lost = True
            return False
        self._renewed = began
        return True


class _Renewer:
    """The thread that renews every lease of the process every `RENEW_EVERY` seconds while it
    is held; started with the first, and again in a forked child that holds one."""

    def __init__(self) -> None:
        self._held: dict[int, Lease] = {}
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def hold(self, held: Lease) -> None:
        with self._changed:
            idle = not self._held  # else the thread waits for a renewal due before this one's
            self._held[id(held)] = held
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="leases", daemon=True)
                self._thread.start()
            elif idle:
                self._changed.notify()

    def drop(self, held: Lease) -> None:
        with self._changed:
            self._held.pop(id(held), None)

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._held:
                    self._changed.wait()
                now = time.monotonic()
                due = [held for held in self._held.values()
                       if now - held._renewed >= RENEW_EVERY - 0.01]  # fmt: skip
                if not due:
                    first = min(held._renewed for held in self._held.values())
                    self._changed.wait(max(0.0, first + RENEW_EVERY - now))
                    continue
            for held in due:
                try:
                    kept = held.renew()
                except Exception:  # a bug: that lease is left to run out, the others go on
                    log.exception("renewing the lease %s failed", held.key)
                    kept = False
                if not kept:
                    self.drop(held)


_RENEWER = _Renewer()
