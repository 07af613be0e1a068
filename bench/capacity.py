"""Bot API calls per round and seat: whole games of each kind, counted at the double, and
how many games one bot token carries from that.

For Hintrigue, Guess What!, Hues and Cues and Wunchunk, in turn, with 4 seats and with 8
(Hues and Cues and Wunchunk: 4 alone), and Hunch! with one person and two AI seats (an AI seat
is sent nothing in private; `hunch_3_…`, its three rounds): a redis-server,
the Bot API double (in this process, Telegram's flood limits scaled as in the end-to-end tests)
and the Procfile's web and worker processes; the players seat themselves and play one rotation
(a round per seat) the way the end-to-end tests play it (`tests/e2e/`), everybody acting.
Counted: every Bot API call the bot made from the Start press until its calls stopped after
"Game over" (the last edits included), press answers (`answerCallbackQuery`) apart, each
divided by rounds × seats; calls the double refused (`<game>_<n>_refused=`, 429s among them)
are counted too, as Telegram would. Telegram's limits are per chat and per group, so
`<game>_<n>_group_calls_per_round=` counts the group's share alone.

The players act as fast as the bot answers, so progress edits that settle (the "waiting for"
line, `tgbot.egress.outgoing.SETTLE_S`) are folded about as much as they can be; at a human
pace, players seconds apart, fewer are.

`<game>_games_per_token=`: how many 4-seat games at a human pace (a round every 90 s) one
token carries under Telegram's 30 messages a second (edits count), from the calls per round.

Prints `name=value` lines. Run: `.venv/bin/python bench/capacity.py [--games hintrigue,...]
[--seats 4,8] [--pace 4]` (`--pace`: Hintrigue's decoys and votes that many seconds apart, a
human pace at which no progress edit folds into the next).
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import RedisServer  # noqa: E402
from tests.e2e import players  # noqa: E402
from tests.e2e import test_guesswhat as guesswhat  # noqa: E402
from tests.e2e import test_huescues as huescues  # noqa: E402
from tests.e2e import test_hunch as hunch  # noqa: E402
from tests.e2e.players import seat_for_game  # noqa: E402
from tests.e2e.procs import GROUP, ProcStack, start_stack  # noqa: E402
from tests.harness import button, buttons, wait_for  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
QUIET_S = 1.5  # no call for this long after "Game over": the bot is done
ANSWER = "answercallbackquery"
TOKEN_PER_S = 30  # Telegram's messages a second for one bot token, edits included
ROUND_S = 90  # a round at a human pace


def hintrigue(stack: ProcStack, seats: int) -> list[int]:
    return players.seat_players(stack, NAMES[:seats], "rotations=1 timers=off")


def play_hintrigue(stack: ProcStack, users: list[int]) -> None:
    players.start(stack, users)
    for number in range(1, len(users) + 1):
        players.play_round(stack, users, number)


def at_pace(seconds: float) -> None:
    """Hintrigue's players wait `seconds` before each decoy and each vote (a human pace,
    beyond the progress edits' settling, folds none of them)."""
    for name in ("play_decoy", "vote"):
        act = getattr(players, name)

        def paced(*args: Any, _act: Callable[..., Any] = act, **kwargs: Any) -> Any:
            time.sleep(seconds)
            return _act(*args, **kwargs)

        setattr(players, name, paced)


def press_start(stack: ProcStack, users: list[int]) -> None:
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"


def seat_guesswhat(stack: ProcStack, seats: int) -> list[int]:
    settings = "rotations=1 timers=off target=20 connoisseurs=on"
    return seat_for_game(stack, NAMES[:seats], "g", "guesswhat", "Guess What!", settings,
                         "connoisseurs")  # fmt: skip


def play_guesswhat(stack: ProcStack, users: list[int]) -> None:
    press_start(stack, users)
    for number in range(1, len(users) + 1):
        guesswhat.play_round(stack, users, number)


def seat_huescues(stack: ProcStack, seats: int) -> list[int]:
    if seats > len(huescues.CUES):
        raise ValueError(f"Hues and Cues is played here with at most {len(huescues.CUES)} seats")
    return seat_for_game(stack, NAMES[:seats], "h", "huescues", "Hues and Cues",
                         "turns=1 timers=off", "timers off")  # fmt: skip


def play_huescues(stack: ProcStack, users: list[int]) -> None:
    press_start(stack, users)
    expected: Counter[int] = Counter()
    for number in range(1, len(users) + 1):
        expected.update(huescues.play_round(stack, users, number))
    top = max(expected.values())
    if list(expected.values()).count(top) > 1:  # a tie-break round begins: stopped there
        stack.wait_find(GROUP, "Tie-break round 1 of 3")
        stack.say(users[0], GROUP, "/stop")
        question = stack.wait_find(GROUP, "End this game now")
        stack.press(users[0], question, button(question, "Yes"))


def seat_wunchunk(stack: ProcStack, seats: int) -> list[int]:
    if seats > 4:
        raise ValueError("Wunchunk seats four at most")
    return seat_for_game(stack, NAMES[:seats], "w", "wunchunk", "Wunchunk", "timers=off",
                         "timers off")  # fmt: skip


WUNCHUNK_ROTATIONS = 2
"""Wunchunk's rounds are turns: every seat places its stones this many times (the first
empty cell its turn's message shows, typed, then End turn), then every seat passes."""


def play_wunchunk(stack: ProcStack, users: list[int]) -> int:
    """Returns the turns played (its rounds)."""
    press_start(stack, users)
    turns = WUNCHUNK_ROTATIONS * len(users) + len(users)
    for number in range(1, turns + 1):
        pattern = rf"Turn {number}\b.*your turn"
        user, prompt = wait_for(lambda p=pattern: next(  # type: ignore[misc]
            ((u, m) for u in users if (m := stack.find(u, p)) and buttons(m)), None
        ), 30, f"turn {number}")  # fmt: skip
        if number > WUNCHUNK_ROTATIONS * len(users):
            assert stack.press(user, prompt, button(prompt, "Pass")) == "You passed."
            continue
        cell = prompt.plain_text.split("Type cells like ", 1)[1].split()[0]
        stack.say(user, user, cell)
        placed = stack.wait_find(user, rf"Turn {number}\b.*Placed so far")
        assert stack.press(user, placed, button(placed, "End turn")) == "Turn played."
    return turns


def seat_hunch(stack: ProcStack, seats: int) -> list[int]:
    if seats != 3:
        raise ValueError("Hunch! is played here by one person and two AI seats")
    return [hunch.seat_with_ai(stack)]


HUNCH_ROUNDS = 3


def seats_for(name: str, seats: int) -> int:
    """The seats a game is played with here when `seats` are asked for (Hunch!: always its one
    person and two AI seats)."""
    return 3 if name == "hunch" else seats


def play_hunch(stack: ProcStack, users: list[int]) -> int:
    """The person's moves as they come, the AI seats' by the workers: its three rounds."""
    hunch.play_to_final(stack, users[0])
    return HUNCH_ROUNDS


GAMES: dict[str, tuple[Callable[[ProcStack, int], list[int]],
                       Callable[[ProcStack, list[int]], int | None]]] = {
    "hintrigue": (hintrigue, play_hintrigue),
    "guesswhat": (seat_guesswhat, play_guesswhat),
    "huescues": (seat_huescues, play_huescues),
    "wunchunk": (seat_wunchunk, play_wunchunk),
    "hunch": (seat_hunch, play_hunch),
}  # fmt: skip


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


def measure(name: str, seats: int, directory: Path) -> dict[str, float]:
    seat, play = GAMES[name]
    server = RedisServer(directory)
    stack = start_stack(server, directory, timer_scale=0.05)
    try:
        users = seat(stack, seats)
        mark = quiet(stack)  # the lobby's last edits are not the game's
        played = play(stack, users)
        stack.wait_find(GROUP, "Game over", 60)
        quiet(stack)
        calls = calls_since(stack, mark)
        with stack.world.lock:
            refused = [(c.method, c.error_code, c.description) for c in stack.world.calls[mark:]
                       if not c.ok]  # fmt: skip
    finally:
        stack.stop()
        stack.double.stop()
        server.kill()
    for method, code, description in refused:
        print(f"# refused: {method} {code} {description}", file=sys.stderr)
    rounds = played if played is not None else seats  # one rotation, or the turns played
    answers = sum(method == ANSWER for method, _, _ in calls)
    others = [(method, chat, ok) for method, chat, ok in calls if method != ANSWER]
    group = sum(chat == GROUP for _, chat, _ in others)
    methods = Counter(method for method, _, _ in others)
    at = f"{name}_{seats}"
    figures: dict[str, float] = {
        f"{at}_calls_per_round_per_seat": len(others) / (rounds * seats),
        f"{at}_answers_per_round_per_seat": answers / (rounds * seats),
        f"{at}_group_calls_per_round": group / rounds,
        f"{at}_calls": len(others),
        f"{at}_answers": answers,
        f"{at}_refused": sum(not ok for _, _, ok in calls),  # 429s and other errors
        **{f"{at}_calls_{method}": n for method, n in sorted(methods.items())},
    }
    if seats == 4 or name == "hunch":
        figures[f"{name}_games_per_token"] = TOKEN_PER_S * ROUND_S / (len(others) / rounds)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated, of: " + ", ".join(GAMES))  # fmt: skip
    parser.add_argument("--seats", default="4,8",
                        help="comma-separated seat counts (Hues and Cues: at most 4 here)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="Hintrigue only: seconds each decoy and vote waits (e.g. 4)")
    args = parser.parse_args()
    if args.pace:
        at_pace(args.pace)
    figures: dict[str, float] = {}
    for seats in (int(n) for n in args.seats.split(",")):
        for name in args.games.split(","):
            if (name == "huescues" and seats > len(huescues.CUES)) or (
                name == "wunchunk" and seats > 4
            ):
                continue
            at = seats_for(name, seats)
            if at != seats and seats != min(int(n) for n in args.seats.split(",")):
                continue  # Hunch!'s one table, measured once
            directory = Path(tempfile.mkdtemp(prefix=f"hintrigue-capacity-{name}-"))
            try:
                figures.update(measure(name, at, directory))
            finally:
                shutil.rmtree(directory, ignore_errors=True)
    for key, value in figures.items():
        print(f"{key}={value:.2f}" if isinstance(value, float) else f"{key}={value}")


if __name__ == "__main__":
    main()
