"""Redis away for a few seconds: the workers say so once, and are back within seconds of it."""

from __future__ import annotations

import re
import time

from tests.e2e.players import (
    HINT,
    play_decoy,
    play_round,
    seat_players,
    start,
    storyteller_prompt,
    table,
    vote,
)
from tests.e2e.procs import GROUP
from tests.harness import buttons

NAMES = ["Ann", "Bob", "Cy"]
OUTAGE_S = 6  # RQ alone would wait 1 + 2 + 4 s, then 8 more: back up to 8 s after Redis


def test_workers_log_an_outage_once_and_take_updates_again_soon_after_redis_is_back(launch):
    # Append-only, fsync on every write: the restarted server has every room.
    stack = launch(timer_scale=0.05, workers=2,
                   redis_args=("--appendonly", "yes", "--appendfsync", "always"))  # fmt: skip
    users = seat_players(stack, NAMES, "rotations=1 timers=off reveal=20")
    start(stack, users)
    expected = dict.fromkeys(users, 0)
    for user, points in play_round(stack, users, 1).items():
        expected[user] += points
    teller, prompt = storyteller_prompt(stack, users, 2)

    stack.redis.kill()
    time.sleep(OUTAGE_S)
    stack.redis.start()  # the same port and files
    back = time.monotonic()
    card, data = buttons(prompt)[0]
    assert stack.press(teller, prompt, data, retry=True).startswith("Chosen:")
    assert time.monotonic() - back < 4, "a worker took an update soon after Redis was back"

    # The game goes on to its exact end.
    assert stack.say(teller, teller, HINT, retry=True) == 200
    room = stack.room()
    others = [room.seats[i].user_id for i in room.round.participants
              if room.seats[i].user_id != teller]  # fmt: skip
    decoys = {user: play_decoy(stack, user, 2) for user in others}
    message, scenes = table(stack, 2)
    first, *rest = others
    vote(stack, first, message, scenes[card])
    for user in rest:
        vote(stack, user, message, scenes[decoys[first]])
    stack.wait_find(GROUP, r"Reveal · round 2\b")
    for user, points in {teller: 3, first: 3 + len(rest), **dict.fromkeys(rest, 0)}.items():
        expected[user] += points
    for user, points in play_round(stack, users, 3).items():
        expected[user] += points
    stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert {seat.user_id: seat.score for seat in room.seats} == expected

    stack.stop()
    for log in stack.log_dir.glob("worker*.log"):
        text = log.read_text()
        assert "Traceback" not in text
        # One line when Redis went away and one when it came back, per process (the worker
        # and its scheduler), however long it was away.
        for name in set(re.findall(r"^(\w+ \w+): Redis does not answer", text, re.M)):
            assert text.count(f"{name}: Redis does not answer") == 1, text
            assert text.count(f"{name}: Redis answers again") == 1, text
        assert "Redis does not answer" in text
