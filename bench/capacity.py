"""Bot API calls per round and seat: one whole 4-seat game of each kind, counted at the double.

For Hintrigue, Guess What! and Hues and Cues, in turn: a redis-server, the Bot API double (in
this process, Telegram's flood limits scaled as in the end-to-end tests) and the Procfile's web
and worker processes; four players seat themselves and play one rotation (four rounds) the way
the end-to-end tests play it (`tests/e2e/`), everybody acting. Counted: every Bot API call the
bot made from the Start press until its calls stopped after "Game over" (the last edits
included), press answers (`answerCallbackQuery`) apart, each divided by rounds × seats; calls
the double refused (`<game>_refused=`, 429s among them) are counted too, as Telegram would.
Telegram's limits are per chat and per group, so `<game>_group_calls_per_round=` counts the
group's share alone.

Prints `name=value` lines. Run: `.venv/bin/python bench/capacity.py [--games hintrigue,...]`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import RedisServer  # noqa: E402
from tests.e2e import players  # noqa: E402
from tests.e2e import test_guesswhat as guesswhat  # noqa: E402
from tests.e2e import test_huescues as huescues  # noqa: E402
from tests.e2e.procs import GROUP, ProcStack, start_stack  # noqa: E402
from tests.harness import button  # noqa: E402

SEATS = 4
ROUNDS = 4  # one rotation of four seats
QUIET_S = 1.5  # no call for this long after "Game over": the bot is done
ANSWER = "answercallbackquery"


def hintrigue(stack: ProcStack) -> list[int]:
    users = players.seat_players(stack, ["Ann", "Bob", "Cy", "Dee"], "rotations=1 timers=off")
    return users


def play_hintrigue(stack: ProcStack, users: list[int]) -> None:
    players.start(stack, users)
    for number in range(1, ROUNDS + 1):
        players.play_round(stack, users, number)


def press_start(stack: ProcStack, users: list[int]) -> None:
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"


def play_guesswhat(stack: ProcStack, users: list[int]) -> None:
    press_start(stack, users)
    for number in range(1, ROUNDS + 1):
        guesswhat.play_round(stack, users, number)


def play_huescues(stack: ProcStack, users: list[int]) -> None:
    press_start(stack, users)
    expected: Counter[int] = Counter()
    for number in range(1, ROUNDS + 1):
        expected.update(huescues.play_round(stack, users, number))
    top = max(expected.values())
    if list(expected.values()).count(top) > 1:  # a tie-break round begins: stopped there
        stack.wait_find(GROUP, "Tie-break round 1 of 3")
        stack.say(users[0], GROUP, "/stop")
        question = stack.wait_find(GROUP, "End this game now")
        stack.press(users[0], question, button(question, "Yes"))


GAMES: dict[str, tuple[Callable[[ProcStack], list[int]], Callable[[ProcStack, list[int]], None]]]
GAMES = {
    "hintrigue": (hintrigue, play_hintrigue),
    "guesswhat": (guesswhat.seat_players, play_guesswhat),
    "huescues": (huescues.seat_players, play_huescues),
}


def calls_since(stack: ProcStack, mark: int) -> list[tuple[str, object, bool]]:
    """(method, chat id, answered ok) of each call from the `mark`-th on."""
    with stack.world.lock:
        return [(c.method.lower(), c.params.get("chat_id"), c.ok)
                for c in stack.world.calls[mark:]]  # fmt: skip


def quiet(stack: ProcStack) -> int:
    """Wait until the bot made no call for `QUIET_S` (its outbox delivered); the calls so far."""
    count = -1
    while count != (now := len(calls_since(stack, 0))):
        count = now
        time.sleep(QUIET_S)
    return count


def measure(name: str, directory: Path) -> dict[str, float]:
    seat, play = GAMES[name]
    server = RedisServer(directory)
    stack = start_stack(server, directory, timer_scale=0.05)
    try:
        users = seat(stack)
        mark = quiet(stack)  # the lobby's last edits are not the game's
        play(stack, users)
        stack.wait_find(GROUP, "Game over", 60)
        quiet(stack)
        calls = calls_since(stack, mark)
    finally:
        stack.stop()
        stack.double.stop()
        server.kill()
    answers = sum(method == ANSWER for method, _, _ in calls)
    others = [(method, chat, ok) for method, chat, ok in calls if method != ANSWER]
    group = sum(chat == GROUP for _, chat, _ in others)
    methods = Counter(method for method, _, _ in others)
    return {
        f"{name}_calls_per_round_per_seat": len(others) / (ROUNDS * SEATS),
        f"{name}_answers_per_round_per_seat": answers / (ROUNDS * SEATS),
        f"{name}_group_calls_per_round": group / ROUNDS,
        f"{name}_calls": len(others),
        f"{name}_answers": answers,
        f"{name}_refused": sum(not ok for _, _, ok in calls),  # 429s and other errors
        **{f"{name}_calls_{method}": n for method, n in sorted(methods.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated, of: " + ", ".join(GAMES))  # fmt: skip
    args = parser.parse_args()
    figures: dict[str, float] = {}
    for name in args.games.split(","):
        directory = Path(tempfile.mkdtemp(prefix=f"hintrigue-capacity-{name}-"))
        try:
            figures.update(measure(name, directory))
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    for key, value in figures.items():
        print(f"{key}={value:.2f}" if isinstance(value, float) else f"{key}={value}")


if __name__ == "__main__":
    main()
