"""Crashes: processes killed outright (SIGKILL) mid-game, then started again."""

from __future__ import annotations

import signal

from engine import keys
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

NAMES = ["Ann", "Bob", "Cy", "Dee"]


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
    lobby = wait_for(lambda: stack.find(GROUP, "a new game is open.* 3 rotations"), 40,
                     "the lobby with the new setting")
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
    assert leaving.process.wait(timeout=10) == 0
    assert 0 < client.llen(keys.inbox(GROUP)) < presses - 10

    stack.start_worker()
    ids = [update["callback_query"]["id"] for update in updates]
    answers = wait_for(lambda: all(a := [stack.world.callback_answer(i) for i in ids]) and a,
                       30, "every press answered")  # fmt: skip
    assert [a.at for a in answers] == sorted(a.at for a in answers)
    calls = stack.world.calls_of("answerCallbackQuery")
    assert len(calls) == presses and all(call.ok for call in calls)  # each answered once
