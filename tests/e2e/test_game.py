"""Whole games through the Procfile's processes: everybody acts, on one or several processes."""

from __future__ import annotations

import re
import signal
import time

from tests.e2e.players import play_round, seat_players, start
from tests.e2e.procs import GROUP

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def test_a_four_player_game_where_everybody_acts_ends_with_the_right_points(launch):
    stack = launch(timer_scale=0.05)
    users = seat_players(stack, NAMES, "rotations=1 timers=off")
    start(stack, users)
    expected = dict.fromkeys(users, 0)
    for number in range(1, 5):
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    final = stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase.value == "finished"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    for seat in room.seats:
        assert re.search(rf"{seat.score} points?\b", final.plain_text)
    assert stack.world.too_many_requests == []


def test_presses_at_the_same_moment_on_two_web_and_two_worker_processes_all_count(launch):
    stack = launch(timer_scale=0.05, webs=2, workers=2)
    users = seat_players(stack, NAMES, "rotations=1 timers=off")
    start(stack, users)
    expected = dict.fromkeys(users, 0)
    for number in range(1, 5):
        for user, points in play_round(stack, users, number, together=True).items():
            expected[user] += points
    stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    # The group saw each round's messages in the order the game produced them.
    texts = [m.plain_text for m in stack.world.bot_messages(GROUP)]
    order = [i for number in range(1, 5)
             for i in (_index(texts, rf"Round {number}\b · storyteller"),
                       _index(texts, rf"Reveal · round {number}\b"))]  # fmt: skip
    assert order == sorted(order)
    assert stack.world.too_many_requests == []
    # Asked to stop, both workers leave at once (0.3–0.6 s here; now and then a minute, when a
    # worker waited on its thread of `rq` commands: `HintrigueWorker.unsubscribe`).
    workers = stack.workers()
    asked = time.monotonic()
    for worker in workers:
        worker.kill(signal.SIGTERM)
    for worker in workers:
        assert worker.process.wait(timeout=10) == 0
    assert time.monotonic() - asked < 3


def _index(texts: list[str], pattern: str) -> int:
    return next(i for i, text in enumerate(texts) if re.search(pattern, text, re.S))
