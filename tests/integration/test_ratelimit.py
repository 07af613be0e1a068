"""Telegram's flood limits as the workers keep them, shared through a real Redis."""

from __future__ import annotations

import time

import pytest

from engine.store import keys
from tgbot.egress.delivery import SHORT_WAIT, Handover
from workers.ratelimit import CLAIM_HOLD, Limits, RedisLimiter

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


# Turns at the global limit (a slot's share of a second: 1.05 s / the limit).

GROUPS = [-100_900_000 - i for i in range(8)]


def timed(limiter, group: int) -> tuple[float, float, float]:
    """A group's wait, and the moments just before and just after it was asked for."""
    before = time.monotonic()
    wait = limiter.reserve(group)
    return wait, before, time.monotonic()


def test_groups_that_must_wait_get_turns_in_the_order_they_asked_one_slot_apart(real_redis):
    limiter = only(real_redis, global_per_second=4)
    step = 1.05 / 4
    assert [limiter.reserve(g) for g in GROUPS[:4]] == [0.0] * 4
    asked = [timed(limiter, g) for g in GROUPS[4:]]
    waits = [wait for wait, _, _ in asked]
    # The first comes back when the first slot comes free, each next one a slot's share later:
    # not all at once. (Each wait counts from its own call: on a busy machine the calls lie
    # apart, so the turns are compared as moments, give or take how long a call took.)
    assert 0.95 < waits[0] <= 1.05
    for (wait, t0, t1), (after, u0, u1) in zip(asked, asked[1:], strict=False):
        slack = 0.02 + (t1 - t0) + (u1 - u0)
        assert (u0 + after) - (t0 + wait) == pytest.approx(step, abs=slack)
    # Asking again keeps the turn: the wait only runs down.
    assert limiter.reserve(GROUPS[5]) <= waits[1]
    # A group that had a turn already and asks for more goes after all of them.
    again, v0, v1 = timed(limiter, GROUPS[0])
    last, t0, t1 = asked[-1]
    assert (v0 + again) - (t0 + last) == pytest.approx(step, abs=0.03 + (v1 - v0) + (t1 - t0))


def test_a_group_whose_turn_came_is_not_overtaken_by_one_that_asks_later(real_redis):
    limiter = only(real_redis, global_per_second=2)
    first, second, waiting, later = GROUPS[:4]
    assert limiter.reserve(first) == limiter.reserve(second) == 0.0
    wait = limiter.reserve(waiting)
    time.sleep(wait + 0.01)  # both slots are free again, and it is `waiting`'s turn
    assert limiter.reserve(later) > 0  # it would take the slot of the one whose turn it is
    assert limiter.reserve(waiting) == 0.0
    # `later` was given the next turn: nobody else's comes first.
    again = limiter.reserve(later)
    time.sleep(again + 0.01)
    assert limiter.reserve(first) > 0
    assert limiter.reserve(later) == 0.0


def test_a_private_chat_goes_before_the_groups_waiting_for_a_turn(real_redis):
    limiter = only(real_redis, global_per_second=2)
    assert limiter.reserve(GROUPS[0]) == limiter.reserve(GROUPS[1]) == 0.0
    turns = [limiter.reserve(g) for g in GROUPS[2:6]]
    # The private chat's turn is the next free slot, before any of theirs but the first's.
    prompt = limiter.reserve(PLAYER)
    assert prompt <= turns[0] + 0.01
    # Both slots free again (the two were taken a moment apart on a busy machine), the second
    # group's turn still a slot's share of a second away.
    time.sleep(max(prompt, turns[0]) + 0.2)
    assert limiter.reserve(PLAYER) == 0.0
    assert limiter.reserve(GROUPS[2]) == 0.0  # the other free slot: the first group's turn
    assert limiter.reserve(GROUPS[3]) > 0


def test_a_turn_nobody_comes_for_is_given_up_after_a_while(real_redis):
    limiter = RedisLimiter(
        real_redis,
        Limits(
            global_per_second=1, chat_per_second=ROOMY, chat_burst=ROOMY, group_per_minute=ROOMY
        ),
        stale=0.2,
    )
    assert limiter.reserve(GROUPS[0]) == 0.0
    lost = limiter.reserve(GROUPS[1])  # its job never comes back
    time.sleep(lost + 0.3)
    assert limiter.reserve(GROUPS[2]) == 0.0  # no turn waits any more: a free slot is taken


def test_no_group_takes_a_free_slot_while_a_private_chat_waits_for_one(real_redis):
    limiter = only(real_redis, global_per_second=2)
    assert limiter.reserve(GROUPS[0]) == limiter.reserve(GROUPS[1]) == 0.0
    turn = limiter.reserve(GROUPS[2])
    prompt = limiter.reserve(PLAYER)  # no slot free: it waits for the next one
    time.sleep(max(turn, prompt) + 0.2)  # both slots are free again, even taken apart
    assert limiter.reserve(GROUPS[2]) > 0  # its turn came, but the private chat goes first
    assert limiter.reserve(PLAYER) == 0.0
    assert limiter.reserve(GROUPS[2]) == 0.0


# Claims: a group whose turn came, told to wait for a slot its job sleeps until, keeps it.

CAP = 10
FILLERS = [PLAYER + 100 + i for i in range(2 * CAP - 1)]  # private chats: slots at once


def claimed_setup(client, claimer: int = 0) -> tuple[RedisLimiter, float]:
    """Two groups whose turns came (`GROUPS[0]` first, then `GROUPS[1]`), the window full
    again, the next slot coming free in about 0.2 s: the wait of one group (`claimer`: the
    first, or the second when the first one's job is late), claimed."""
    limiter = only(client, global_per_second=CAP)
    began = time.monotonic()
    assert [limiter.reserve(p) for p in FILLERS[: CAP - 1]] == [0.0] * (CAP - 1)
    time.sleep(0.35)
    assert limiter.reserve(FILLERS[CAP - 1]) == 0.0  # the window's last slot: it frees last
    turns = [limiter.reserve(g) for g in GROUPS[:2]]
    assert 0 < turns[0] < turns[1]
    # Both turns came; the first slots came free, and private chats took them again.
    time.sleep(max(0.0, began + 1.01 + 0.12 - time.monotonic()))
    assert [limiter.reserve(p) for p in FILLERS[CAP:]] == [0.0] * (CAP - 1)
    claimed = limiter.reserve(GROUPS[claimer])
    assert 0 < claimed <= SHORT_WAIT
    return limiter, claimed


def test_a_group_whose_turn_came_keeps_the_slot_it_sleeps_for(real_redis):
    limiter, claimed = claimed_setup(real_redis)
    # The later turn does not take the slot the first one's job sleeps for, not even when it
    # asks first once the slot came free.
    assert limiter.reserve(GROUPS[1]) > claimed
    time.sleep(claimed + 0.01)
    assert limiter.reserve(GROUPS[1]) > 0
    assert limiter.reserve(GROUPS[0]) == 0.0


def test_a_claimed_slot_whose_job_leaves_goes_to_the_others(real_redis):
    limiter, claimed = claimed_setup(real_redis)
    limiter.forgo(GROUPS[0])  # its job leaves rather than sleeping
    time.sleep(claimed + 0.01)
    assert limiter.reserve(GROUPS[1]) == 0.0


def test_a_claim_its_job_does_not_come_for_is_given_up(real_redis):
    limiter, claimed = claimed_setup(real_redis)  # and its job is lost
    time.sleep(claimed + CLAIM_HOLD + 0.05)
    assert limiter.reserve(GROUPS[1]) == 0.0


# Handing over: a free slot goes to the group that has waited longest, whoever asks for it.


def two_turns_come(limiter) -> tuple[int, int]:
    """Two groups with turns (`older` booked first, from a forum topic's room), both come
    while their jobs are away, and both slots free."""
    first, second, older, newer = GROUPS[:4]
    assert limiter.reserve(first) == limiter.reserve(second) == 0.0
    waits = [limiter.reserve(older, room=f"{older}_7"), limiter.reserve(newer, room=str(newer))]
    assert 0 < waits[0] < waits[1]
    time.sleep(waits[1] + 0.05)
    return older, newer


def test_a_free_slot_is_handed_to_the_group_that_has_waited_longest(real_redis):
    limiter = only(real_redis, global_per_second=2)
    older, newer = two_turns_come(limiter)
    # The later turn's job comes first: it does not take the free slot but is handed the
    # older turn's room to deliver.
    handed = limiter.reserve(newer, room=str(newer), hand=True)
    assert isinstance(handed, Handover) and handed.room == f"{older}_7"
    assert 0 < handed <= 0.01  # its own turn came: it asks again once it delivered that room
    # Nobody else takes the handed slot; the older group's message, delivered by the caller,
    # does.
    assert limiter.reserve(GROUPS[5], hand=True) > 0
    assert limiter.reserve(older) == 0.0
    # The other free slot: the later turn is the longest waiting now, and its own.
    assert limiter.reserve(newer, room=str(newer), hand=True) == 0.0


def test_a_caller_that_cannot_deliver_for_others_keeps_the_order_it_came_in(real_redis):
    limiter = only(real_redis, global_per_second=2)
    older, newer = two_turns_come(limiter)
    assert limiter.reserve(newer) == 0.0  # not handed over: its turn came, the slot is free
    assert limiter.reserve(older) == 0.0


def test_a_handed_slot_nobody_takes_is_handed_again_after_a_while(real_redis):
    limiter = only(real_redis, global_per_second=2)
    older, newer = two_turns_come(limiter)
    assert isinstance(limiter.reserve(newer, hand=True), Handover)
    assert limiter.reserve(newer, hand=True) == 0.0  # the other free slot, its own now
    # The older group's room was not delivered (its lock was taken, say): its slot is kept
    # for it a while, not handed to anyone else...
    kept = limiter.reserve(GROUPS[5], hand=True)
    assert kept > 0 and not isinstance(kept, Handover)
    # ... then handed over again, to whoever comes.
    time.sleep(CLAIM_HOLD + 0.05)
    again = limiter.reserve(GROUPS[6], hand=True)
    assert isinstance(again, Handover) and again.room == f"{older}_7"


def test_a_slot_a_later_turn_claimed_is_handed_to_an_older_one_whose_job_is_late(real_redis):
    limiter, claimed = claimed_setup(real_redis, claimer=1)
    time.sleep(claimed + 0.01)
    # The later turn's job slept for the slot; it delivers the older turn's room with it.
    handed = limiter.reserve(GROUPS[1], hand=True)
    assert isinstance(handed, Handover) and handed.room == str(GROUPS[0])
    assert limiter.reserve(GROUPS[0]) == 0.0


def test_a_group_handed_a_slot_with_nothing_to_send_gives_up_its_turn_and_the_slot(real_redis):
    limiter = only(real_redis, global_per_second=2)
    older, newer = two_turns_come(limiter)
    assert isinstance(limiter.reserve(newer, room=str(newer), hand=True), Handover)
    limiter.nothing_to_send(older)  # its room had no message for it (sent some other way)
    # The slot is handed at once to the next longest waiting group, not kept for it.
    again = limiter.reserve(GROUPS[5], hand=True)
    assert isinstance(again, Handover) and again.room == str(newer)


def test_a_group_that_took_its_handed_slot_keeps_its_next_turn(real_redis):
    limiter = only(real_redis, global_per_second=2)
    older, newer = two_turns_come(limiter)
    assert isinstance(limiter.reserve(newer, hand=True), Handover)
    assert limiter.reserve(older) == 0.0
    assert limiter.reserve(older) > 0  # its next message: a turn after the others'
    limiter.nothing_to_send(older)  # (a later look finds the slot taken: nothing changes)
    assert real_redis.zscore(keys.rate_turns(), older) is not None
