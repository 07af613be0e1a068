"""Delivery within Telegram's limits, in order, through shutdowns and refusals."""

from __future__ import annotations

import re
import signal

from engine.games.hintrigue.model import round_of
from tests.e2e.players import give_hint, seat_players, start
from tests.e2e.procs import GROUP, LIMITS
from tests.harness import wait_for

BURST = 100


def test_a_burst_of_100_messages_to_a_group_arrives_whole_in_order_without_a_429(launch):
    # The limits of both sides are scaled alike (tests/e2e/procs.py): 20 a second per chat in
    # bursts of 3, so 100 messages need about 5 seconds.
    stack = launch(timer_scale=1, workers=2)
    # Five commands a player: more within 10 seconds would be a flood, and ignored.
    users = [stack.world.add_user(first_name=f"P{i}").id for i in range(BURST // 5)]
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    stack.wait_find(GROUP, "I run Hintrigue")
    for i in range(BURST):
        assert stack.say(users[i // 5], GROUP, f"/settings n{i}=1") == 200

    # A worker asked to stop mid-burst leaves promptly; the other one delivers the rest.
    wait_for(lambda: len(stack.world.bot_messages(GROUP)) > 20, 20, "the burst to start")
    leaving = stack.workers()[0]
    leaving.kill(signal.SIGTERM)
    assert leaving.process.wait(timeout=10) == 0

    def replies() -> list[int]:
        found = [re.search(r"not valid: n(\d+)=1", m.plain_text)
                 for m in stack.world.bot_messages(GROUP)]  # fmt: skip
        return [int(m.group(1)) for m in found if m]

    wait_for(lambda: len(replies()) == BURST, 60, "the whole burst")
    assert replies() == list(range(BURST))
    assert stack.world.too_many_requests == []
    # No faster than the limits allow: the token bucket's burst, then its rate.
    sends = [c.at for c in stack.world.calls_of("sendMessage") if c.params.get("chat_id") == GROUP]
    window = 1.0
    assert max(sum(1 for t in sends if s <= t < s + window) for s in sends) <= \
        LIMITS.per_chat_burst + LIMITS.per_chat_per_second * window  # fmt: skip


def test_a_player_who_blocked_the_bot_is_reported_to_the_group_and_the_game_goes_on(launch):
    stack = launch(timer_scale=0.2)
    users = seat_players(stack, ["Ann", "Bob", "Cy", "Dee"], "rotations=1 hint=20 decoy=15 vote=15")
    start(stack, users)
    room = stack.room()
    teller = room.seats[round_of(room).storyteller].user_id
    blocker = next(u for u in users if u != teller)
    stack.deliver(stack.world.block_bot(blocker))
    give_hint(stack, users, 1)
    notice = stack.wait_find(GROUP, "cannot write to")
    assert any(f"t.me/{stack.world.bot.username}?start=" in e.get("url", "")
               for e in notice.entities)  # fmt: skip
    seat = next(i for i, s in enumerate(stack.room().seats) if s.user_id == blocker)
    wait_for(lambda: seat in (round_of(stack.room()).plays or {}), 20, "a decoy for the blocker")
    # Nobody else acts either: the timers close the vote, show the reveal and go on.
    stack.wait_find(GROUP, r"Reveal · round 1\b", timeout=30)
    wait_for(lambda: round_of(stack.room()).no >= 2, 30, "the next round")
