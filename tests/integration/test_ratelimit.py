"""Telegram's flood limits as the workers keep them, shared through a real Redis."""

from __future__ import annotations

from workers.ratelimit import Limits, RedisLimiter

GROUP, OTHER_GROUP, PLAYER = -100123, -100456, 42
ROOMY = 1000  # a limit that never binds


def only(client, **binding: float) -> RedisLimiter:
    """A limiter whose only binding limits are the ones given: each is seen alone."""
    roomy = {"global_per_second": ROOMY, "chat_per_second": ROOMY, "chat_burst": ROOMY,
             "group_per_minute": ROOMY}  # fmt: skip
    return RedisLimiter(client, Limits(**{**roomy, **binding}))


def test_a_group_gets_20_new_messages_a_minute_and_edits_beyond_them(real_redis):
    limiter = only(real_redis, group_per_minute=20)
    assert [limiter.reserve(GROUP) for _ in range(20)] == [0.0] * 20
    wait = limiter.reserve(GROUP)
    assert 55 < wait <= 60 * 1.05 + 0.1  # until the first of the 20 is a minute old
    assert limiter.reserve(GROUP, is_edit=True) == 0.0
    assert limiter.reserve(OTHER_GROUP) == 0.0
    assert [limiter.reserve(PLAYER) for _ in range(30)] == [0.0] * 30  # not a group


def test_a_chat_gets_a_short_burst_then_about_one_message_a_second(real_redis):
    limiter = only(real_redis, chat_per_second=1, chat_burst=3)
    # A burst of 3 keeps one token back against network jitter: two at once, then the rate.
    assert [limiter.reserve(PLAYER) for _ in range(2)] == [0.0, 0.0]
    wait = limiter.reserve(PLAYER)
    assert 0.9 < wait <= 1.05 + 0.05
    assert limiter.reserve(PLAYER + 1) == 0.0  # another chat has its own bucket


def test_all_chats_together_get_30_messages_a_second(real_redis):
    limiter = only(real_redis, global_per_second=30)
    assert [limiter.reserve(PLAYER + i) for i in range(30)] == [0.0] * 30
    wait = limiter.reserve(PLAYER + 99)
    assert 0.9 < wait <= 1.05 + 0.05


def test_a_message_that_must_wait_takes_no_slot(real_redis):
    limiter = only(real_redis, global_per_second=2)
    assert limiter.reserve(PLAYER) == limiter.reserve(PLAYER) == 0.0
    first_wait = limiter.reserve(PLAYER)
    assert first_wait > 0
    assert limiter.reserve(PLAYER) <= first_wait  # asking again did not push the wait back
