"""Redis away for a few seconds: the workers say so once, and are back within seconds of it."""

from __future__ import annotations

import re
import time

from tests.e2e.players import (
    HINT,
    after_round_one,
    finish_round,
    play_to_the_end,
    storyteller_prompt,
)
from tests.harness import buttons

NAMES = ["Ann", "Bob", "Cy"]
OUTAGE_S = 6  # RQ alone would wait 1 + 2 + 4 s, then 8 more: back up to 8 s after Redis


def test_workers_log_an_outage_once_and_take_updates_again_soon_after_redis_is_back(launch):
    # Append-only, fsync on every write: the restarted server has every room.
    stack = launch(timer_scale=0.05, workers=2,
                   redis_args=("--appendonly", "yes", "--appendfsync", "always"))  # fmt: skip
    users, expected = after_round_one(stack, NAMES, "rotations=1 timers=off reveal=20")
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
    for user, points in finish_round(stack, 2, teller, card).items():
        expected[user] += points
    play_to_the_end(stack, users, expected, range(3, 4))

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
