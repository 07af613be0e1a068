"""One clock for every process: workers whose own clocks run 20 s ahead (libfaketime) still set
deadlines by Redis's clock, and their timers fire at those deadlines."""

from __future__ import annotations

import glob
import os
import time

from rq import Worker

from engine.games.hintrigue.model import round_of
from tests.e2e.players import seat_players, start
from tests.e2e.procs import GROUP, Proc
from tests.harness import wait_for

SKEW_S = 20


def libfaketime() -> str:
    found = glob.glob("/usr/lib/*/faketime/libfaketime.so.1")
    assert found, "libfaketime is missing: install the OS package `faketime` (.ci/run does)"
    return found[0]


def test_workers_with_a_clock_20_s_ahead_keep_to_the_real_deadlines(launch):
    stack = launch(timer_scale=0.1, workers=0)
    skewed = {"LD_PRELOAD": libfaketime(), "FAKETIME": f"+{SKEW_S}s"}
    for _ in range(2):
        stack.procs.append(Proc("worker", stack.spawn("worker", **skewed)))
    # Under libfaketime a worker starts slowly (every clock read goes through it): on a busy
    # machine, wait until both are at work rather than let the bot's greeting time out.
    wait_for(lambda: len(Worker.all(connection=stack.client)) >= 2, 90, "the skewed workers")
    users = seat_players(stack, ["Ann", "Bob", "Cy"], "rotations=1 hint=15")
    started = time.time()
    start(stack, users)
    room = wait_for(lambda: round_of(r := stack.room()) is not None and r, 20, "round 1")
    # Deadlines are Redis's time (this machine's): the hint gets its 1.5 s, not 21.5.
    assert abs(room.deadline - (started + 1.5)) < 1.0, room.deadline - started
    # Nobody gives a hint: the timer fires at the deadline (never early), and only once.
    void = stack.wait_find(GROUP, r"Round 1</b> is void|Round 1 is void", timeout=20)
    fired = [
        c.at
        for m in ("sendMessage", "editMessageText")
        for c in stack.world.calls_of(m)
        if c.params.get("chat_id") == GROUP and "is void" in str(c.params.get("text"))
    ]
    assert void is not None and fired
    assert room.deadline <= fired[0] <= room.deadline + 2.5, fired[0] - room.deadline
    after = stack.room()
    assert round_of(after) is not None and round_of(after).no == 2
    assert abs(after.deadline - (fired[0] + 1.5)) < 1.0
    assert os.environ.get("FAKETIME") is None  # only the workers' clocks were moved
