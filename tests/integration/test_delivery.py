"""Delivery against the Bot API double and the shared rate limits on a real Redis."""

from __future__ import annotations

import asyncio

from telegram import Bot

from engine import keys
from tgbot.delivery import SHORT_WAIT, FlushResult, flush
from tgbot.outgoing import Outgoing
from tgbot.standin import run_double
from workers.ratelimit import Limits, RedisLimiter

# One message at once per chat, then one every ~0.21 s: a wait short enough to sleep through.
LIMITS = Limits(global_per_second=1000, chat_per_second=5, chat_burst=2, group_per_minute=1000)


def deliver_three(client, patient: bool) -> tuple[FlushResult, int, int]:
    """Queue three messages to a player and flush once: the result, the messages the player
    saw and those left in the outbox."""
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        client.rpush(keys.outbox(user), *(Outgoing(chat_id=user, text=f"m{i}").model_dump_json()
                                          for i in range(3)))  # fmt: skip

        async def go() -> FlushResult:
            async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
                return await flush(bot, client, user, RedisLimiter(client, LIMITS),
                                   lambda *_: None, patient=lambda: patient)  # fmt: skip

        result = asyncio.run(go())
        return result, len(double.world.bot_messages(user)), client.llen(keys.outbox(user))


def test_a_short_wait_for_the_limits_is_slept_through(real_redis):
    result, seen, left = deliver_three(real_redis, patient=True)
    assert result.delivered == 3 and result.retry_after is None
    assert (seen, left) == (3, 0)


def test_with_updates_waiting_a_delivery_hands_on_instead_of_sleeping(real_redis):
    result, seen, left = deliver_three(real_redis, patient=False)
    assert result.delivered == 1 and (seen, left) == (1, 2)
    assert result.retry_after is not None and 0 < result.retry_after <= SHORT_WAIT
