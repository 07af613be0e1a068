"""Delivery at Telegram's global cap: many groups with a backlog, shared fairly.

A redis-server, the Bot API double (in this process) enforcing Telegram's own limits (30
messages a second in all, 20 a minute per group, about 1 a second per chat with short bursts:
anything over is refused with a 429 and counted), and the Procfile's worker processes (two by
default) with the rate limits at their defaults. Before the workers start, each of `--groups`
groups holds `--backlog` new messages in its room's outbox; once the workers are up (waiting
for jobs, as a running bot's are), a delivery is asked for each room as the bot asks for one.
While the backlog drains, a private prompt of a running phase (`Outgoing.unreachable` set) is
pushed into the outbox of every tenth room, behind its group's backlog, at `--prompts-at`
seconds, and asked for as any new message is.

Printed (`name=value`):

- `delivered_per_s_at_cap`: messages delivered per second (the prompts too) while every group
  still had a backlog, from 5 s after the first delivery to 5 s before the first group ran dry;
  `delivered_per_s_overall`: all of them over the whole run (the first second's burst included);
- `refused_429`: calls the double refused for a flood limit (any, `refused_429_global` …);
- `fairness_max_wait_s`: the longest any group waited for its next message (its first one
  counted from the moment its delivery was asked for), `fairness_p50_wait_s` and
  `fairness_p99_wait_s` the median and the 99th percentile of those waits;
- `private_first_wait_s`: the longest a private prompt waited from its push to its delivery;
- `worker_cpu_ms_per_message`: the workers' CPU time (their schedulers included) per message;
- `workers_up_s`: how long the workers took to start (not counted in any wait).

Run: `.venv/bin/python bench/at_cap.py [--groups 200] [--backlog 10] [--workers 2]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rq import Worker  # noqa: E402

from engine.games.registry import GAMES  # noqa: E402
from engine.roomid import RoomId  # noqa: E402
from engine.store import keys  # noqa: E402
from tests.conftest import RedisServer  # noqa: E402
from tests.e2e.procs import QUEUE, ProcStack  # noqa: E402
from tests.harness import wait_for  # noqa: E402
from tgbot.egress.outgoing import Outgoing  # noqa: E402
from tgbot.ops.config import bot_id  # noqa: E402
from tgbot.standin import RateLimits, StandinServer, World  # noqa: E402
from workers.dispatch import RqDispatch  # noqa: E402

FIRST_GROUP = -1002000000000
FIRST_USER = 7_000_000
PROMPT_EVERY = 10  # a private prompt goes to every tenth room
EDGE_S = 5.0  # the steady rate leaves out this much after the start and before the end
# Telegram's own limits, on both sides (the workers' defaults, written out).
REAL_LIMITS_ENV = {"RATE_CHAT_PER_SECOND": "1", "RATE_CHAT_BURST": "3",
                   "RATE_GROUP_PER_MINUTE": "20", "RATE_GLOBAL_PER_SECOND": "30"}  # fmt: skip


def group(i: int) -> int:
    return FIRST_GROUP - i


def cpu_seconds(session: int) -> float:
    """CPU time of every process of a session (a worker and its scheduler)."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # pgid (start_new_session: the session leader's pid)
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def run(groups: int, backlog: int, workers: int, prompts_at: float, directory: Path,
        verbose: bool = False) -> dict[str, float]:  # fmt: skip
    server = RedisServer(directory)
    server.start()
    world = World(rate_limits=RateLimits(), enforce_rate_limits=True)
    double = StandinServer(world)
    double.start()
    stack = ProcStack(world, double, server, directory, 1.0, dict(REAL_LIMITS_ENV))
    try:
        keys.use_bot(bot_id(world.token))
        client = stack.client
        dispatch = RqDispatch(client, QUEUE, GAMES)
        for i in range(groups):
            world.add_chat(group(i), "supergroup", title=f"Group {i}")
        prompted = list(range(0, groups, PROMPT_EVERY))
        for i in prompted:
            world.add_chat(FIRST_USER + i, "private")
            world.start_private(FIRST_USER + i)
        pipe = client.pipeline(transaction=False)
        for i in range(groups):
            for j in range(backlog):
                text = f"Backlog {j + 1} of {backlog} for group {i}"
                pipe.rpush(
                    keys.outbox(group(i)),
                    Outgoing(chat_id=group(i), text=text, lang="en").model_dump_json(),
                )
        pipe.execute()
        began = time.time()
        procs = [stack.start_worker() for _ in range(workers)]
        # A bot's workers run before its messages come: their start is no delivery's wait.
        wait_for(lambda: sum(w.get_state() == "idle" for w in Worker.all(client)) >= workers,
                 120, "the workers")  # fmt: skip
        asked = time.time()
        for i in range(groups):
            dispatch.flush(RoomId.parse(group(i)))
        time.sleep(max(0.0, asked + prompts_at - time.time()))
        pushed: dict[int, float] = {}
        for i in prompted:
            user = FIRST_USER + i
            prompt = Outgoing(chat_id=user, text=f"Your cards, player of group {i}",
                              unreachable=(user, 1, "hint"), lang="en")  # fmt: skip
            client.rpush(keys.outbox(group(i)), prompt.model_dump_json())
            pushed[user] = time.time()
            dispatch.flush(RoomId.parse(group(i)))
        expected = groups * backlog + len(prompted)
        deadline = time.time() + 60 + expected / 20
        queued: list[int] = []
        while time.time() < deadline:
            with world.lock:
                sent = sum(c.ok and c.method == "sendMessage" for c in world.calls)
            if sent >= expected:
                break
            queued.append(int(client.llen(f"rq:queue:{QUEUE}")))
            time.sleep(0.5)
        cpu = sum(cpu_seconds(p.process.pid) for p in procs)
        with world.lock:
            calls = list(world.calls)
            hits = list(world.too_many_requests)
    finally:
        stack.stop()
        double.stop()
        server.kill()
    sends = [c for c in calls if c.ok and c.method == "sendMessage"]
    by_chat: dict[int, list[float]] = defaultdict(list)
    for call in sends:
        by_chat[int(call.params["chat_id"])].append(call.at)
    waits: list[float] = []
    firsts: list[float] = []
    for i in range(groups):
        times = sorted(by_chat.get(group(i), []))
        waits.extend(b - a for a, b in zip([asked, *times], times, strict=False))
        firsts.extend(times[:1])
    group_sends = sorted(c.at for c in sends if int(c.params["chat_id"]) < 0)
    first = group_sends[0] if group_sends else asked
    dry = min((max(by_chat[group(i)]) for i in range(groups) if by_chat.get(group(i))),
              default=first)  # fmt: skip
    steady = [c.at for c in sends if first + EDGE_S <= c.at <= dry - EDGE_S]
    span = dry - first - 2 * EDGE_S
    private = [by_chat[u][0] - at for u, at in pushed.items() if by_chat.get(u)]
    scopes = Counter(hit.scope for hit in hits)
    figures: dict[str, float] = {
        "groups": groups,
        "backlog_per_group": backlog,
        "workers": workers,
        "delivered": len(sends),
        "undelivered": expected - len(sends),
        "delivered_per_s_at_cap": len(steady) / span if span > 0 else 0.0,
        "delivered_per_s_overall": len(sends) / max(1e-9, max(c.at for c in sends) - first)
        if sends
        else 0.0,
        "refused_429": len(hits),
        **{f"refused_429_{scope}": n for scope, n in sorted(scopes.items())},
        "fairness_max_wait_s": max(waits, default=0.0),
        "fairness_p50_wait_s": statistics.median(waits) if waits else 0.0,
        "fairness_p99_wait_s": statistics.quantiles(waits, n=100)[98] if len(waits) > 1 else 0.0,
        "first_message_max_wait_s": max(firsts, default=asked) - asked,
        "private_first_wait_s": max(private, default=float("nan")),
        "private_prompts_delivered": len(private),
        "worker_cpu_ms_per_message": 1000 * cpu / max(1, len(sends)),
        "queued_jobs_max": max(queued, default=0),
        "workers_up_s": asked - began,
    }
    if verbose:
        start = int(first)
        per_second = Counter(int(c.at) - start for c in sends)
        print("per_second=" + ",".join(str(per_second[s]) for s in range(max(per_second) + 1)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--backlog", type=int, default=10, help="new messages per group")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--prompts-at", type=float, default=15.0,
                        help="seconds after the start when the private prompts come")  # fmt: skip
    parser.add_argument(
        "--verbose", action="store_true", help="also the messages delivered in each second"
    )
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="hintrigue-at-cap-"))
    try:
        figures = run(
            args.groups, args.backlog, args.workers, args.prompts_at, directory, args.verbose
        )
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for key, value in figures.items():
        print(f"{key}={value:.2f}" if isinstance(value, float) else f"{key}={value}")


if __name__ == "__main__":
    main()
