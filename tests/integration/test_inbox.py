"""The inbox scripts on a real Redis: order, one owner at a time, nothing lost on takeover."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from engine.store import keys
from tests.conftest import test_redis_url
from tgbot.ingress.inbox import Inbox, WebInbox

QUEUE = "inboxtest"
CHAT = -100555


def push(*updates: tuple[int, bytes], together: bool = False) -> list[bool]:
    """Take updates in one after the other, or all at the same moment."""

    async def go() -> list[bool]:
        client = aioredis.Redis.from_url(test_redis_url())
        web = WebInbox(client, QUEUE)
        try:
            if together:
                return list(await asyncio.gather(*(web.push(uid, body, CHAT, 7)
                                                   for uid, body in updates)))  # fmt: skip
            return [await web.push(uid, body, CHAT, 7) for uid, body in updates]
        finally:
            await client.aclose()

    return asyncio.run(go())


def test_updates_taken_in_at_the_same_moment_keep_their_order_and_are_deduplicated(real_redis):
    updates = [(i, f"u{i}".encode()) for i in range(1, 51)]
    assert push(*updates, (7, b"u7"), together=True) == [True] * 50 + [False]
    assert real_redis.lrange(keys.inbox(CHAT), 0, -1) == [body for _, body in updates]
    assert ready(real_redis) == [f"{CHAT} 1"]


def test_the_script_is_loaded_again_when_redis_lost_it(real_redis):
    real_redis.script_flush()
    assert push((1, b"a"), (2, b"b"), together=True) == [True, True]
    assert real_redis.lrange(keys.inbox(CHAT), 0, -1) == [b"a", b"b"]


def ready(client) -> list[str]:
    return [raw.decode() for raw in client.lrange(keys.inbox_ready(QUEUE), 0, -1)]


def test_the_owner_takes_updates_in_order_and_releases_the_empty_inbox(real_redis):
    inbox = Inbox(real_redis, QUEUE)
    assert push((1, b"a"), (2, b"b"), (3, b"c")) == [True, True, True]
    assert ready(real_redis) == [f"{CHAT} 1"]
    seen, handled = [], False
    while (step := inbox.next(CHAT, "1", handled)).update is not None:
        seen.append(step.update)
        handled = True
    assert step.state == "done" and seen == [b"a", b"b", b"c"]
    assert real_redis.exists(keys.inbox(CHAT), keys.inbox_owner(CHAT)) == 0
    assert real_redis.zscore(keys.pending_inboxes(), CHAT) is None
    push((4, b"d"))  # the next update readies the inbox for a new job
    assert ready(real_redis)[-1] == f"{CHAT} 4"


def test_an_update_stays_first_until_its_owner_says_it_was_handled(real_redis):
    inbox = Inbox(real_redis, QUEUE)
    push((1, b"a"), (2, b"b"))
    assert inbox.next(CHAT, "1", False).update == b"a"
    assert inbox.next(CHAT, "1", False).update == b"a"  # a crash before handling: again
    assert inbox.next(CHAT, "1", True).update == b"b"


def test_a_taken_over_inbox_is_lost_to_its_old_job_and_nothing_is_skipped(real_redis):
    inbox = Inbox(real_redis, QUEUE)
    push((1, b"a"), (2, b"b"))
    assert inbox.next(CHAT, "1", False).update == b"a"
    assert inbox.takeover(CHAT)
    new_token = ready(real_redis)[-1].split(" ")[1]
    assert new_token != "1"
    # The old job wakes up having handled "a": it may not drop anything any more.
    assert inbox.next(CHAT, "1", True).state == "lost"
    assert inbox.next(CHAT, new_token, False).update == b"a"


def test_a_job_out_of_time_puts_the_inbox_back_at_the_end_of_the_ready_list(real_redis):
    inbox = Inbox(real_redis, QUEUE)
    push((1, b"a"), (2, b"b"))
    real_redis.delete(keys.inbox_ready(QUEUE))  # a worker popped it
    assert inbox.next(CHAT, "1", True, give_up=True).state == "yielded"
    assert ready(real_redis) == [f"{CHAT} 1"]
    assert inbox.next(CHAT, "1", False).update == b"b"


def test_taking_over_an_empty_inbox_releases_it(real_redis):
    inbox = Inbox(real_redis, QUEUE)
    push((1, b"a"))
    assert inbox.next(CHAT, "1", True).state == "done"
    real_redis.set(keys.inbox_owner(CHAT), "stale")
    real_redis.zadd(keys.pending_inboxes(), {str(CHAT): 1})
    assert not inbox.takeover(CHAT)
    assert real_redis.exists(keys.inbox_owner(CHAT)) == 0
    assert real_redis.zscore(keys.pending_inboxes(), CHAT) is None
