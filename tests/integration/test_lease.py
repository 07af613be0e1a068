"""Delivery leases (`tgbot.egress.lease`) on a real Redis: one thread of the process renews
every lease it holds, for as long as each is held."""

from __future__ import annotations

import threading
import time

from engine.store import keys
from tgbot.egress import lease

SWEPT = keys.pending_deliveries()


def held(real_redis, room: int) -> lease.Lease:
    taken = lease.Lease(real_redis, keys.delivery_lock(room), SWEPT, str(room), 5.0)
    real_redis.zadd(SWEPT, {str(room): 0})
    assert taken.take()
    return taken


def renewers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "leases"]


def test_one_thread_renews_every_lease_held_and_none_once_released(real_redis) -> None:
    first, second = held(real_redis, -1), held(real_redis, -2)
    try:
        time.sleep(lease.SECONDS + 0.5)  # longer than a lease: both renewed meanwhile
        assert first.ours() and second.ours()
        assert real_redis.pttl(keys.delivery_lock(-1)) > 1000
        assert real_redis.pttl(keys.delivery_lock(-2)) > 1000
        # Each renewal moved its room's entry in the sweeper's set `look_again` ahead.
        assert real_redis.zscore(SWEPT, "-1") > time.time() + 4
        assert len(renewers()) == 1
    finally:
        first.release()
    time.sleep(lease.RENEW_EVERY * 2)
    assert not real_redis.exists(keys.delivery_lock(-1))  # released, not renewed again
    assert second.ours()
    second.stop()  # not renewed any more: the lock runs out by itself
    time.sleep(lease.SECONDS + 0.2)
    assert not real_redis.exists(keys.delivery_lock(-2))
    assert not second.ours()


def test_a_lease_taken_again_after_it_stopped_is_renewed_again(real_redis) -> None:
    again = held(real_redis, -3)
    again.release()
    assert again.take()
    try:
        time.sleep(lease.SECONDS + 0.5)
        assert again.ours() and real_redis.get(keys.delivery_lock(-3)) == again.token.encode()
    finally:
        again.release()


def test_a_lease_someone_else_took_is_known_lost(real_redis) -> None:
    lost = held(real_redis, -4)
    try:
        real_redis.set(keys.delivery_lock(-4), "another holder", px=5000)
        time.sleep(lease.RENEW_EVERY + 0.3)
        assert not lost.ours()
        assert real_redis.get(keys.delivery_lock(-4)) == b"another holder"
    finally:
        lost.stop()
