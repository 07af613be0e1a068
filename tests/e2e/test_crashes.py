"""Crashes: processes killed outright (SIGKILL) mid-game, then started again."""

from __future__ import annotations

import signal
import time

from rq import Worker

from engine.store import keys
from tests.e2e.players import (
    after_round_one,
    give_hint,
    play_decoy,
    play_to_the_end,
    round_points,
    table,
    vote,
    voters,
)
from tests.e2e.procs import GROUP, QUEUE
from tests.harness import wait_for
from tgbot.egress import lease

NAMES = ["Ann", "Bob", "Cy", "Dee"]
OUTAGE_S = 3  # longer than a delivery lease: the restarted Redis holds no live lock


def test_a_game_survives_its_worker_and_then_its_web_process_being_killed(launch):
    stack = launch(timer_scale=0.05)
    users, expected = after_round_one(stack, NAMES, "rotations=1 timers=off")

    # The worker dies while round 2's messages are on their way (its scheduler with it, as
    # when a machine fails); a new worker takes over.
    teller, card = give_hint(stack, users, 2)
    stack.workers()[0].kill(signal.SIGKILL)
    stack.start_worker()
    others = voters(stack, teller)
    decoys = {user: play_decoy(stack, user, 2) for user in others}
    message, scenes = table(stack, 2)
    first, *rest = others
    # The web process dies too, between two votes: Telegram repeats the update until a new
    # one answers.
    vote(stack, first, message, scenes[card])
    web = stack.webs()[0]
    web.kill(signal.SIGKILL)
    stack.procs.remove(web)
    pending = stack.world.press(rest[0], message.chat_id, message.message_id,
                                scenes[decoys[first]])  # fmt: skip
    assert stack.deliver(pending) != 200
    stack.start_web(web.port)
    assert stack.deliver(pending, retry=True) == 200
    vote(stack, rest[1], message, scenes[decoys[first]])
    stack.wait_find(GROUP, r"Reveal · round 2\b")
    for user, points in round_points(teller, first, rest).items():
        expected[user] += points
    play_to_the_end(stack, users, expected, range(3, 5))


def test_updates_taken_by_a_worker_that_died_at_once_are_handled_by_another(launch):
    """A worker pops an inbox off the ready list and is killed before it handles anything:
    nothing in Redis says so but the inbox that stopped moving. The sweeper of the next
    worker gives it to a new job, and every update is handled, in order."""
    stack = launch(timer_scale=0.05, workers=0)
    ann = stack.world.add_user(first_name="Ann", username="ann").id
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame")
    stack.say(ann, GROUP, "/settings rotations=3")
    ready = keys.inbox_ready(QUEUE)
    assert stack.client.lpop(ready) is not None  # the worker that took it, now gone
    assert stack.client.llen(keys.inbox(GROUP)) == 3
    stack.start_worker()
    lobby = wait_for(
        lambda: stack.find(GROUP, "a new game is open.* 3 rotations"),
        40,
        "the lobby with the new setting",
    )
    assert stack.find(GROUP, "I run Hintrigue") is not None
    assert lobby is not None and stack.client.llen(keys.inbox(GROUP)) == 0


def test_a_worker_asked_to_stop_mid_inbox_hands_the_rest_on_in_order(launch):
    """SIGTERM while a worker works through a long inbox: it stops after the update in hand
    and puts the inbox back on the ready list; the next worker goes on where it stopped."""
    presses = 300
    stack = launch(timer_scale=1, workers=0)
    client = stack.client
    user = stack.world.add_user(first_name="Ann").id
    updates = [stack.world.press_unseen(user, GROUP, "not a button") for _ in range(presses)]
    for update in updates:
        assert stack.deliver(update) == 200
    assert client.llen(keys.inbox(GROUP)) == presses

    leaving = stack.start_worker()
    wait_for(lambda: client.llen(keys.inbox(GROUP)) < presses - 10, 30, "the worker to start")
    leaving.kill(signal.SIGTERM)
    assert leaving.process.wait(timeout=10) == 0  # 0.3–0.4 s here
    assert 0 < client.llen(keys.inbox(GROUP)) < presses - 10

    stack.start_worker()
    ids = [update["callback_query"]["id"] for update in updates]
    answers = wait_for(lambda: all(a := [stack.world.callback_answer(i) for i in ids]) and a,
                       30, "every press answered")  # fmt: skip
    assert [a.at for a in answers] == sorted(a.at for a in answers)
    calls = stack.world.calls_of("answerCallbackQuery")
    assert len(calls) == presses and all(call.ok for call in calls)  # each answered once


RECOVERY_S = 3.0  # the room's next message after a fault, at the latest


def test_a_room_delivers_again_within_seconds_of_its_worker_killed_mid_call_and_of_redis(launch):
    """A worker is killed in the middle of a Bot API call, then Redis restarts while a delivery
    and a press's answer are on their way: each time the room's next message (and the answer
    to the next press) goes out within 3 s of the fault being over (the dead worker's lease
    runs out; the jobs Redis cut short are done again at once)."""
    stack = launch(timer_scale=1, workers=1,
                   redis_args=("--appendonly", "yes", "--appendfsync", "always"))  # fmt: skip
    world = stack.world
    ann = world.add_user(first_name="Ann").id
    stack.deliver(world.bot_added(GROUP, ann))
    stack.wait_find(GROUP, "I run Hintrigue")

    def sent_since(moment: float) -> list[float]:
        return [c.at for c in world.calls_of("sendMessage")
                if c.ok and c.params.get("chat_id") == GROUP and c.at >= moment]  # fmt: skip

    # The worker's sendMessage hangs at Telegram; the worker that comes next must leave the
    # room to it while it lives (its lease is renewed), and take the room once it is killed.
    held = world.hold_next("sendMessage", GROUP)
    try:
        assert stack.say(ann, GROUP, "/settings n1=1") == 200
        assert held.reached.wait(20), "the reply's sendMessage reached Telegram"
        reached = time.time()
        dying = stack.workers()[0]
        stack.start_worker()
        wait_for(lambda: any(w.get_state() == "idle" for w in Worker.all(stack.client)), 30,
                 "the second worker to wait for jobs")  # fmt: skip
        time.sleep(max(0.0, reached + 2 * lease.SECONDS - time.time()))  # leases renewed
        assert sent_since(reached) == [], "a living holder keeps its room"
        dying.kill(signal.SIGKILL)
        killed = time.time()
        after_kill = wait_for(lambda: sent_since(killed), 30, "the reply from the next worker")
    finally:
        held.release()
    assert after_kill[0] - killed < RECOVERY_S, after_kill[0] - killed

    # Redis dies while one worker's reply to a command and the other's answer to a press are at
    # Telegram: both jobs fail when they next write, and are done again as soon as Redis
    # answers (the delivery, and the inbox, given to a new job at once).
    stack.start_worker()
    wait_for(lambda: sum(w.get_state() == "idle" for w in Worker.all(stack.client)) >= 2, 30,
             "two workers waiting for jobs")  # fmt: skip
    held = world.hold_next("sendMessage", GROUP)
    answering = world.hold_next("answerCallbackQuery")
    try:
        assert stack.say(ann, GROUP, "/settings n2=1") == 200
        assert held.reached.wait(20), "the second reply's sendMessage reached Telegram"
        assert stack.deliver(world.press_unseen(ann, GROUP, "not a button")) == 200
        assert answering.reached.wait(20), "the press's answer reached Telegram"
        stack.redis.kill()
    finally:
        held.release()
        answering.release()
    time.sleep(OUTAGE_S)
    restarting = time.time()
    stack.redis.start()  # the same port and files
    back = time.time()  # a worker may be back at work before this test's own look
    press = world.press_unseen(ann, GROUP, "not a button either")
    assert stack.deliver(press, retry=True) == 200
    after_restart = wait_for(lambda: sent_since(restarting), 30, "the second reply again")
    answer = wait_for(lambda: world.callback_answer(press["callback_query"]["id"]), 30,
                      "the answer to a press after the outage")  # fmt: skip
    assert after_restart[0] - back < RECOVERY_S, after_restart[0] - back
    assert answer.at - back < RECOVERY_S, answer.at - back
    texts = [m.plain_text for m in world.bot_messages(GROUP)]
    assert any("n1=1" in t for t in texts) and any("n2=1" in t for t in texts)
    assert stack.client.llen(keys.outbox(GROUP)) == 0
