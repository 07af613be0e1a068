"""Delivery against the Bot API double and the shared rate limits on a real Redis: short waits,
the room's lease (kept while renewed, taken once abandoned), and one message that cannot be
delivered as it is never holding back the room's others."""

from __future__ import annotations

import asyncio
import time

from telegram import Bot

from engine.store import keys
from tgbot import pictures
from tgbot.egress import delivery, lease
from tgbot.egress.delivery import SHORT_WAIT, FlushResult, flush
from tgbot.egress.outgoing import Outgoing
from tgbot.games.hintrigue.pictures import ResultRow, ResultsPicture
from tgbot.games.registry import LINEUP
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
                                   lambda *_: None, patient=lambda: patient,
                                   pictures=LINEUP.pictures)  # fmt: skip

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


def flush_room(double, client, room: int) -> FlushResult:
    async def go() -> FlushResult:
        async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
            return await flush(bot, client, room, RedisLimiter(client, WIDE), lambda *_: None,
                               pictures=LINEUP.pictures)  # fmt: skip

    return asyncio.run(go())


WIDE = Limits(global_per_second=1000, chat_per_second=100, chat_burst=100, group_per_minute=1000)
BOARD = ResultsPicture(rows=[ResultRow(rank=1, name="Ann", points=9, winner=True)])


def test_a_picture_that_fails_to_draw_leaves_its_text_and_the_room_goes_on(real_redis, monkeypatch):
    def broken(*_: object) -> bytes:
        raise ValueError("a drawing bug")

    monkeypatch.setattr(pictures, "render", broken)
    with run_double() as double:
        group = -1003
        double.world.add_chat(group, "supergroup")
        real_redis.rpush(keys.outbox(group), *(m.model_dump_json() for m in [
            Outgoing(chat_id=group, key="final", game=1, text="<b>Game over</b>", picture=BOARD),
            Outgoing(chat_id=group, text="/score: Ann 9"),
        ]))  # fmt: skip
        result = flush_room(double, real_redis, group)
        shown = double.world.bot_messages(group)
    assert result == FlushResult(delivered=2)
    assert [(m.plain_text, m.photo) for m in shown] == \
        [("Game over", None), ("/score: Ann 9", None)]  # fmt: skip
    assert real_redis.llen(keys.outbox(group)) == 0
    assert real_redis.hget(keys.message_ids(group, 1), "final") is not None


def test_a_message_whose_delivery_fails_is_dropped_without_holding_back_the_others(
    real_redis, monkeypatch
):
    sent = delivery.send_or_edit

    async def failing(bot: Bot, message: Outgoing, *rest: object) -> int | None:
        if message.text == "poison":
            raise RuntimeError("a bug in this one message")
        return await sent(bot, message, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(delivery, "send_or_edit", failing)
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        real_redis.rpush(keys.outbox(user), *(Outgoing(chat_id=user, text=t).model_dump_json()
                                              for t in ("first", "poison", "third")))  # fmt: skip
        result = flush_room(double, real_redis, user)
        shown = [m.plain_text for m in double.world.bot_messages(user)]
    assert result.delivered == 3 and shown == ["first", "third"]
    assert real_redis.llen(keys.outbox(user)) == 0


def test_a_lease_renewed_by_its_holder_keeps_the_room_and_an_abandoned_one_is_taken(real_redis):
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        real_redis.rpush(keys.outbox(user), Outgoing(chat_id=user, text="hi").model_dump_json())
        holder = lease.Lease(real_redis, keys.delivery_lock(user), keys.pending_deliveries(),
                             str(user), 0.0)  # fmt: skip
        assert holder.take()
        try:
            time.sleep(lease.SECONDS + 0.5)  # longer than a lease: renewed meanwhile
            assert holder.ours() and flush_room(double, real_redis, user).busy
        finally:
            holder.release()
        # A holder that died: its lease (not renewed) has less than `ABANDONED` left.
        real_redis.set(keys.delivery_lock(user), "gone", px=int(lease.ABANDONED * 1000) - 200)
        began = time.monotonic()
        assert flush_room(double, real_redis, user).delivered == 1
        assert time.monotonic() - began < lease.ABANDONED + 0.5
        assert [m.plain_text for m in double.world.bot_messages(user)] == ["hi"]


def test_an_edit_queued_after_a_fresh_copy_of_its_message_still_sends_the_copy_new(real_redis):
    # A prompt sent again below (a typed cell's close-up) and, in the same batch, an edit of
    # that prompt (the time left): one new message with the edit's text, the old one pointing
    # to it.
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        real_redis.rpush(
            keys.outbox(user),
            Outgoing(chat_id=user, key="prompt", game=1, text="pick a cell").model_dump_json(),
        )
        flush_room(double, real_redis, user)
        real_redis.rpush(keys.outbox(user), *(m.model_dump_json() for m in [
            Outgoing(chat_id=user, key="prompt", game=1, text="You chose H15.", fresh=True),
            Outgoing(chat_id=user, key="prompt", game=1, text="You chose H15. (20 s left)"),
        ]))  # fmt: skip
        result = flush_room(double, real_redis, user)
        shown = double.world.bot_messages(user)
        assert [m.text for m in shown] == ["⬇️ Sent again below.", "You chose H15. (20 s left)"]
        assert result.delivered == 1 and real_redis.llen(keys.outbox(user)) == 0
        real_redis.rpush(
            keys.outbox(user),
            Outgoing(
                chat_id=user, key="prompt", game=1, text="Your cone is on H15."
            ).model_dump_json(),
        )
        flush_room(double, real_redis, user)
        assert [m.text for m in double.world.bot_messages(user)] == [
            "⬇️ Sent again below.",
            "Your cone is on H15.",
        ]  # later edits go to the new one


def test_a_fresh_copy_that_must_wait_for_its_chats_limit_is_sent_on_the_next_try(real_redis):
    # One message at once per private chat: the pointer on the old copy takes the chat's slot,
    # so the copy waits; the next try must send it, not point the old one again (for ever).
    one_at_once = Limits(global_per_second=1000, chat_per_second=5, chat_burst=1,
                         group_per_minute=1000)  # fmt: skip
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id

        def flush_once() -> FlushResult:
            async def go() -> FlushResult:
                async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
                    return await flush(bot, real_redis, user, RedisLimiter(real_redis, one_at_once),
                                       lambda *_: None, patient=lambda: False,
                                       pictures=LINEUP.pictures)  # fmt: skip

            return asyncio.run(go())

        real_redis.rpush(
            keys.outbox(user),
            Outgoing(chat_id=user, key="prompt", game=1, text="pick a cell").model_dump_json(),
        )
        flush_once()
        time.sleep(0.3)
        real_redis.rpush(keys.outbox(user), Outgoing(chat_id=user, key="prompt", game=1,
                                                     text="You chose H15.", fresh=True)
                         .model_dump_json())  # fmt: skip
        for _ in range(5):
            result = flush_once()
            if result.retry_after is None:
                break
            time.sleep(result.retry_after + 0.05)
        assert [m.text for m in double.world.bot_messages(user)] == [
            "⬇️ Sent again below.",
            "You chose H15.",
        ]
        assert real_redis.llen(keys.outbox(user)) == 0


def test_a_press_answered_again_after_an_outage_is_left_as_it_was(caplog):
    # A press handled again (its drain cut short by Redis) is answered again: Telegram refuses
    # that as too old, and the handler must go on, not fail and be retried and set aside.
    from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup

    from tgbot.table.handlers.common import answer

    press: dict = {}
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id

        async def go() -> None:
            async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
                keys_ = InlineKeyboardMarkup([[InlineKeyboardButton("it", callback_data="lang:1")]])
                sent = await bot.send_message(user, "Your language?", reply_markup=keys_)
                press.update(double.world.press(user, user, sent.message_id, "lang:1"))
                query = CallbackQuery.de_json(press["callback_query"], bot)
                await answer(query, "Italiano scelto.")
                await answer(query, "Italiano scelto.")  # refused: too old
                await answer(query, url="https://t.me/hintrigue_bot?start=n-1")

        with caplog.at_level("INFO", logger="tgbot.table.handlers.common"):
            asyncio.run(go())
        assert double.world.callback_answer(press["callback_query"]["id"]).text == \
            "Italiano scelto."  # fmt: skip
        assert sum("answered too late" in r.getMessage() for r in caplog.records) == 2


def test_a_text_edit_of_a_photo_message_edits_its_caption_in_one_call(real_redis):
    with run_double() as double:
        group = -1004
        double.world.add_chat(group, "supergroup")
        real_redis.rpush(keys.outbox(group), Outgoing(
            chat_id=group, key="final", game=1, text="<b>Game over</b>", picture=BOARD,
        ).model_dump_json())  # fmt: skip
        flush_room(double, real_redis, group)
        assert double.world.bot_messages(group)[0].photo
        calls = len(double.world.calls)
        real_redis.rpush(keys.outbox(group), Outgoing(
            chat_id=group, key="final", game=1, text="<b>Game over</b> (Notify me: 2)",
        ).model_dump_json())  # fmt: skip
        flush_room(double, real_redis, group)
        made = [c.method for c in double.world.calls[calls:] if c.method != "getMe"]
        assert made == ["editMessageCaption"], made
        assert double.world.bot_messages(group)[0].plain_text == "Game over (Notify me: 2)"


def test_a_photo_sent_again_below_is_pointed_to_in_its_caption_in_one_call(real_redis):
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        real_redis.rpush(keys.outbox(user), Outgoing(
            chat_id=user, key="prompt", game=1, text="Place your cone", picture=BOARD,
        ).model_dump_json())  # fmt: skip
        flush_room(double, real_redis, user)
        calls = len(double.world.calls)
        real_redis.rpush(keys.outbox(user), Outgoing(
            chat_id=user, key="prompt", game=1, text="You chose H15.", fresh=True,
        ).model_dump_json())  # fmt: skip
        flush_room(double, real_redis, user)
        made = [c.method for c in double.world.calls[calls:] if c.method != "getMe"]
        assert made == ["editMessageCaption", "sendMessage"], made
        assert [m.plain_text for m in double.world.bot_messages(user)] == [
            "⬇️ Sent again below.",
            "You chose H15.",
        ]


def test_progress_edits_settle_into_one_and_never_hold_back_a_new_message(real_redis):
    # A phase's message edited by three players within the settling time: the edits wait,
    # a new message of the same chat queued behind them goes at once, and once they are due
    # one edit shows the last; an edit that is not progress (the phase ends) goes at once and
    # replaces the waiting ones unsent.
    with run_double() as double:
        group = -1005
        double.world.add_chat(group, "supergroup")
        box = keys.outbox(group)

        def queue(*messages: Outgoing) -> None:
            real_redis.rpush(box, *(m.model_dump_json() for m in messages))

        def edits() -> int:
            return len(double.world.calls_of("editMessageText"))

        queue(Outgoing(chat_id=group, key="round", game=1, text="Waiting for Ann, Bob, Cy."))
        flush_room(double, real_redis, group)
        soon = time.time() + 2.0  # well over the wait a delivery sleeps through (0.3 s)
        queue(
            *(
                Outgoing(
                    chat_id=group,
                    key="round",
                    game=1,
                    text=f"Waiting for {who}.",
                    settle_until=soon,
                )
                for who in ("Bob, Cy", "Cy")
            ),  # fmt: skip
            Outgoing(chat_id=group, key="table", game=1, text="The table"),
        )
        result = flush_room(double, real_redis, group)
        assert [m.text for m in double.world.bot_messages(group)] == [
            "Waiting for Ann, Bob, Cy.",
            "The table",
        ]
        assert result.retry_after is not None and 0 < result.retry_after <= 2.0
        assert real_redis.llen(box) == 2 and edits() == 0
        time.sleep(result.retry_after)
        assert flush_room(double, real_redis, group).retry_after is None
        assert double.world.bot_messages(group)[0].text == "Waiting for Cy."
        assert edits() == 1 and real_redis.llen(box) == 0

        later = time.time() + 60
        queue(
            Outgoing(chat_id=group, key="table", game=1, text="Voted: Ann", settle_until=later),
            Outgoing(
                chat_id=group, key="table", game=1, text="Voted: Ann, Bob", settle_until=later
            ),  # fmt: skip
            Outgoing(chat_id=group, key="table", game=1, text="Voting is closed."),
        )
        assert flush_room(double, real_redis, group).retry_after is None
        assert double.world.bot_messages(group)[1].text == "Voting is closed."
        assert edits() == 2 and real_redis.llen(box) == 0


def test_a_progress_edit_held_in_an_earlier_batch_is_replaced_by_a_newer_one_in_a_later(
    real_redis,
):
    # The outbox is read in batches: an edit held in the first must still give way to the
    # phase's next rendering found in a later one, never be shown after it.
    with run_double() as double:
        group = -1006
        double.world.add_chat(group, "supergroup")
        users = [double.world.add_user(first_name=f"P{i}", started=True).id
                 for i in range(delivery.BATCH)]  # fmt: skip
        box = keys.outbox(group)
        real_redis.rpush(
            box,
            Outgoing(
                chat_id=group, key="round", game=1, text="Waiting for Ann and Bob."
            ).model_dump_json(),
        )
        flush_room(double, real_redis, group)
        real_redis.rpush(box, *(m.model_dump_json() for m in [
            Outgoing(chat_id=group, key="round", game=1, text="Waiting for Bob.",
                     settle_until=time.time() + 60),
            *(Outgoing(chat_id=user, text="Your prompt") for user in users),
            Outgoing(chat_id=group, key="round", game=1, text="All cards are on the table."),
        ]))  # fmt: skip
        assert flush_room(double, real_redis, group).retry_after is None
        assert [m.text for m in double.world.bot_messages(group)] == ["All cards are on the table."]
        assert len(double.world.calls_of("editMessageText")) == 1
        assert real_redis.llen(box) == 0


def test_a_slot_handed_to_the_longest_waiting_group_is_used_for_its_room_first(real_redis):
    # Two slots a second: two groups took them. Two more groups' jobs were told to come back
    # (appointments), and both turns came while the first one's job is still in the queue.
    # The later turn's delivery comes first: it delivers the earlier one's message itself,
    # then its own (the second free slot).
    limiter = RedisLimiter(real_redis, Limits(global_per_second=2, chat_per_second=100,
                                              chat_burst=100, group_per_minute=1000))  # fmt: skip
    waiting, caller = -1004, -1005
    with run_double() as double:
        for chat in (waiting, caller):
            double.world.add_chat(chat, "supergroup")
            real_redis.rpush(keys.outbox(chat),
                             Outgoing(chat_id=chat, text=f"news for {chat}").model_dump_json())
        assert limiter.reserve(-1001) == limiter.reserve(-1002) == 0.0
        turns = [limiter.reserve(waiting, room=str(waiting)),
                 limiter.reserve(caller, room=str(caller))]  # fmt: skip
        time.sleep(max(turns) + 0.05)
        served: list[str] = []

        async def go() -> FlushResult:
            async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:

                async def serve(room: str) -> None:
                    served.append(room)
                    await flush(bot, real_redis, int(room), limiter, lambda *_: None,
                                patient=lambda: False, pictures=LINEUP.pictures)

                return await flush(bot, real_redis, caller, limiter, lambda *_: None,
                                   pictures=LINEUP.pictures, serve=serve)  # fmt: skip

        result = asyncio.run(go())
        sent = [int(c.params["chat_id"]) for c in double.world.calls
                if c.ok and c.method == "sendMessage"]  # fmt: skip
    assert served == [str(waiting)]
    assert result.delivered == 1 and sent == [waiting, caller]
    assert real_redis.llen(keys.outbox(waiting)) == real_redis.llen(keys.outbox(caller)) == 0


class SlowBot(Bot):
    """Telegram answering each message `DELAY` seconds after it was sent; notes when."""

    DELAY = 0.2

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._answered_at: list[float] = []

    async def _post(self, endpoint: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def, override]
        if endpoint != "sendMessage":
            return await super()._post(endpoint, *args, **kwargs)  # type: ignore[arg-type]
        await asyncio.sleep(self.DELAY)
        sent = await super()._post(endpoint, *args, **kwargs)  # type: ignore[arg-type]
        self._answered_at.append(time.time())
        return sent


def test_each_slot_counts_from_when_telegram_answered_its_call(real_redis):
    # The global window counts a slot from the answer to its call (Telegram may count it as
    # late as that), said along with the outbox's bookkeeping after each message.
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        real_redis.rpush(keys.outbox(user), *(Outgoing(chat_id=user, text=f"m{i}")
                                              .model_dump_json() for i in range(3)))  # fmt: skip

        async def go() -> tuple[FlushResult, list[float]]:
            async with SlowBot(double.world.token, base_url=f"{double.url}/bot") as bot:
                done = await flush(bot, real_redis, user, RedisLimiter(real_redis, WIDE),
                                   lambda *_: None, pictures=LINEUP.pictures)  # fmt: skip
                return done, bot._answered_at

        result, answered_at = asyncio.run(go())
    assert result.delivered == 3
    slots = sorted(score for _, score in real_redis.zrange(keys.rate_global(), 0, -1,
                                                           withscores=True))  # fmt: skip
    assert len(slots) == 3
    for slot, answered in zip(slots, answered_at, strict=True):
        assert answered - 0.01 <= slot < answered + SlowBot.DELAY / 2


def test_a_delivered_message_is_no_longer_kept_parsed(real_redis):
    with run_double() as double:
        user = double.world.add_user(first_name="Ann", started=True).id
        raws = [Outgoing(chat_id=user, text=f"kept {i}").model_dump_json() for i in range(3)]
        real_redis.rpush(keys.outbox(user), *raws)
        assert flush_room(double, real_redis, user).delivered == 3
    assert not set(raws) & {raw.decode() if isinstance(raw, bytes) else raw
                            for raw in delivery._parsed}  # fmt: skip


def flush_one_a_minute(double, client, room: int) -> FlushResult:
    """One delivery of the room, its group allowed one message a minute."""
    limits = Limits(global_per_second=1000, chat_per_second=100, chat_burst=100,
                    group_per_minute=1)  # fmt: skip

    async def go() -> FlushResult:
        async with Bot(double.world.token, base_url=f"{double.url}/bot") as bot:
            return await flush(bot, client, room, RedisLimiter(client, limits), lambda *_: None,
                               patient=lambda: False, pictures=LINEUP.pictures)  # fmt: skip

    return asyncio.run(go())


def test_a_waiting_groups_backlog_is_passed_over_unread_for_the_prompt_behind_it(
    real_redis, head_parses
):
    # The group may send one message a minute: after its first, its other 99 wait. The prompt
    # behind them goes at once, and finding it does not read the group's entries one by one.
    with run_double() as double:
        group = -1007
        double.world.add_chat(group, "supergroup")
        user = double.world.add_user(first_name="Ann", started=True).id
        backlog = [Outgoing(chat_id=group, text=f"g{i}").model_dump_json() for i in range(100)]
        box = keys.outbox(group)
        prompt = Outgoing(chat_id=user, text="Your prompt").model_dump_json()
        real_redis.rpush(box, *backlog, prompt)
        result = flush_one_a_minute(double, real_redis, group)
        assert result.delivered == 2 and result.retry_after is not None
        assert result.retry_after > SHORT_WAIT
        assert [m.text for m in double.world.bot_messages(group)] == ["g0"]
        assert [m.text for m in double.world.bot_messages(user)] == ["Your prompt"]
        assert [raw.decode() for raw in real_redis.lrange(box, 0, -1)] == backlog[1:]
        assert len(head_parses) <= delivery.BATCH + 1, len(head_parses)  # not 101


def test_an_entry_that_does_not_start_with_its_chat_is_read_even_behind_a_waiting_chat(
    real_redis,
):
    # Entries are passed over by their first field; one written otherwise is read as before.
    with run_double() as double:
        group = -1008
        double.world.add_chat(group, "supergroup")
        user = double.world.add_user(first_name="Ann", started=True).id
        box = keys.outbox(group)
        real_redis.rpush(box, *(Outgoing(chat_id=group, text=f"g{i}").model_dump_json()
                                for i in range(delivery.BATCH + 10)),
                         f'{{"text": "Your prompt", "chat_id": {user}}}')  # fmt: skip
        assert flush_one_a_minute(double, real_redis, group).delivered == 2
        assert [m.text for m in double.world.bot_messages(user)] == ["Your prompt"]
        assert real_redis.llen(box) == delivery.BATCH + 9
