"""End-to-end benchmark: the Procfile's web and worker processes, played by 50 games at once.

It starts a redis-server of its own, the Bot API double (`python -m tgbot.standin`, Telegram's
flood limits on), one `web` and `--workers` `worker` processes from the Procfile, and a bare
python-telegram-bot webhook app that only acknowledges (same uvicorn, same machine). Then:

1. throughput: 50 games (4 players, three rotations) are seated and started; each then sends the
   rest of its game (moves planned by the rules from the started room, `bench.players`) as
   fast as the webhook answers, one update after the other (Telegram sends one chat's updates
   one after another), while the workers handle them. `updates_per_s` counts those POSTs
   answered 200 per second. The workers' pace is `handled_per_s`: the same updates over the
   time until the last game was over. Every game must end exactly as planned
   (`games_as_planned`). `saturated_worker_cpu_ms_per_update`: the workers' CPU (their
   schedulers' included) over that time, per update: what an update costs a busy bot, whose
   drains take several updates of a room and deliveries several messages at once. The
   window ends with the games, not with their messages: Telegram's limits hold many back
   (some 70 rooms still wait at the end). The bench then waits until every outbox is
   delivered (`backlog_s`, `backlog_rooms`); `saturated_all_delivered_worker_cpu_ms_per_update`
   counts that delivery too, less what the workers spend idle over as long
   (`worker_idle_cpu_ms_per_s`, measured at the end): every message the updates made, sent.
   With `--profile DIR`, py-spy samples the workers while they deliver that backlog.
2. latency: 50 more games, paced so the web process gets half the rate it just managed (a
   loaded but not saturated server; at saturation, latency is only the queue length over the
   rate). Each game sends a Poisson stream of updates, independent of the others (games that
   all sent at the same instant would measure the length of their own bursts).
   `p50_ms`/`p99_ms`: POST sent to 200 received. `paced_worker_cpu_ms_per_update`: as
   above, for these games.
3. baseline: the bodies of phase 1, replayed the same way to the bare app right after phase
   1's POSTs, while the workers still handle them, so that both see the same machine
   (`baseline_updates_per_s`); and again at the end, the workers idle
   (`baseline_idle_updates_per_s`).
4. answers: 20 games at a calm pace (80 updates/s in all, as a busy evening might bring);
   `answer_p50_ms`/`answer_p99_ms`: a button press sent to the bot's answer reaching the
   double (the SPEC's promise: every press answered within a second).
5. timers: 200 games of 3 whose storytellers never give their hints. A timeout starts the next
   round with a deadline `hint_s × TIMER_SCALE` after the moment it was applied, so the room
   itself tells when each timer took effect: lateness = that moment − the deadline of the
   round the game was in when first read (read as soon as it started). `timer_early_count`
   must be 0: the bench prints `FAIL timer_early_count` and exits 1 otherwise.

With `--replica`, Redis has a replica (on the same machine): the web answers 200 and the store
commits only once the replica confirmed (`WAIT 1`), which is what that costs.

Prints `name=value` lines. Run: `.venv/bin/python bench/e2e.py [--games 50] [--workers 2]
[--replica] [--timers 200] [--timers-only] [--profile DIR]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import Bench, percentile, start_processes  # noqa: E402
from bench.players import Game, RawHttp  # noqa: E402
from bench.worker_cpu import profile_top, sampled  # noqa: E402
from engine.games.hintrigue.model import Phase, phase_of, round_of  # noqa: E402
from engine.games.hintrigue.settings import settings_of  # noqa: E402
from engine.model import Phase as TablePhase  # noqa: E402
from engine.model import Room  # noqa: E402
from engine.store import keys  # noqa: E402

TIMERS = 200
HINT_S = 15
ROTATIONS = 3  # 12 rounds of 4 players: about 90 updates per game
ANSWER_GAMES = 20
ANSWER_PACE = 0.25  # seconds between a game's updates, on average: 80 updates/s in all


async def seated(bench: Bench, hook: RawHttp, games: list[Game], settings: str,
                 then: Callable[[Game], Awaitable[Any]] | None = None) -> None:
    """Open every player's private chat, then seat and start every game (not measured);
    `then(game)` runs as soon as that game was started."""
    semaphore = asyncio.Semaphore(50)

    async def send(update: dict[str, Any]) -> None:
        status, _, _ = await hook.post("/webhook", update)
        assert status == 200, status

    async def one(game: Game) -> None:
        async with semaphore:
            await game.open_chats(send)
            await game.chats_opened()
            await game.seat(send, settings)
            if then is not None:
                await then(game)

    await bench.register(games)
    await asyncio.gather(*(one(g) for g in games))


async def play(bench: Bench, games: int, first_chat: int, pace: float | None,
               rotations: int = ROTATIONS,
               meanwhile: Callable[[list[list[dict[str, Any]]]], Awaitable[Any]] | None = None,
               ) -> dict[str, Any]:  # fmt: skip
    """Play `games` whole games at once: latencies of every POST, wall time of the POSTs,
    time until every game was over, how many ended as planned, and when each button press
    was sent (by callback query id). `meanwhile(updates)` runs once every update was sent,
    while the workers still handle them; its result comes back as "meanwhile"."""
    hook = RawHttp("127.0.0.1", bench.web_port, games, bench.secret_headers)
    await hook.open()
    setups = [bench.game(first_chat - g) for g in range(games)]
    # No phase timer, and the longest reveal: when the workers fall far behind, a reveal timer
    # must not move a game on before the /skip that the plan puts there.
    await seated(bench, hook, setups, f"rotations={rotations} timers=off reveal=60")
    plans = []
    for game in setups:
        room = await game.room_when(lambda r: phase_of(r) is Phase.HINT)
        moves, final = game.plan(room)
        plans.append((await game.updates_for(moves), final))
    latencies: list[float] = []
    pressed: dict[str, float] = {}

    async def run(game: Game, updates: list[dict[str, Any]], gaps: random.Random) -> None:
        # Paced, a game's updates come as a Poisson stream (exponential gaps, `pace` apart on
        # average), each game on its own: the games never act in lockstep.
        next_at = time.perf_counter()
        for update in updates:
            if pace is not None:
                next_at = max(next_at + gaps.expovariate(1 / pace), time.perf_counter())
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            await game.ready_for(update)
            if "callback_query" in update:
                pressed[update["callback_query"]["id"]] = time.time()
            status, _, seconds = await hook.post("/webhook", update)
            assert status == 200, status
            latencies.append(seconds)

    # The planned games are many objects: a full collection of them mid-phase would stall
    # the driver's loop and show as the web's latency.
    gc.collect()
    gc.freeze()
    cpu = bench.worker_cpu()
    started = time.perf_counter()
    runs = [run(game, updates, random.Random(index))
            for index, (game, (updates, _)) in enumerate(zip(setups, plans, strict=True))]
    await asyncio.gather(*runs)
    wall = time.perf_counter() - started
    await hook.close()
    during = await meanwhile([updates for updates, _ in plans]) if meanwhile else None
    finals = [await game.room_when(lambda r: r.phase is TablePhase.FINISHED) for game in setups]
    over = time.perf_counter() - started
    cpu = bench.worker_cpu() - cpu
    as_planned = sum(
        [s.score for s in got.seats] == [s.score for s in want.seats]
        for got, (_, want) in zip(finals, plans, strict=True)
    )
    return {"latencies": latencies, "wall": wall, "over": over, "as_planned": as_planned,
            "pressed": pressed, "meanwhile": during, "worker_cpu": cpu,
            "updates": [updates for updates, _ in plans]}  # fmt: skip


IDLE_S = 10.0
BACKLOG_MAX_S = 600.0


async def idle_cpu(bench: Bench) -> float:
    """The workers' CPU seconds per second while no game moves (their schedulers, sweepers and
    heartbeats), measured once every game is over and delivered."""
    cpu, started = bench.worker_cpu(), time.perf_counter()
    await asyncio.sleep(IDLE_S)
    return (bench.worker_cpu() - cpu) / (time.perf_counter() - started)


async def delivered(bench: Bench, profile: Path | None = None) -> dict[str, float]:
    """Wait until every outbox is delivered (Telegram's limits held many messages of the games
    just played back): the workers' CPU and the seconds that took, and how many rooms waited.
    With `profile`, py-spy samples the workers meanwhile (`bench.worker_cpu.sampled`)."""
    client = aioredis.Redis.from_url(bench.redis_url)
    try:
        cpu, started = bench.worker_cpu(), time.perf_counter()
        rooms = int(await client.zcard(keys.pending_deliveries()))
        with sampled(bench.worker_groups, profile):
            while await client.zcard(keys.pending_deliveries()):
                assert time.perf_counter() - started < BACKLOG_MAX_S, "the backlog never emptied"
                await asyncio.sleep(0.5)
        return {"cpu": bench.worker_cpu() - cpu, "seconds": time.perf_counter() - started,
                "rooms": rooms}
    finally:
        await client.aclose()


async def answer_delays(bench: Bench, pressed: dict[str, float]) -> list[float]:
    """Seconds from sending each press to the bot's answer reaching the double."""
    state = await bench.control_get("/_standin/state")
    answered = {q["id"]: q["answer"]["at"] for q in state["callback_queries"]
                if q["id"] in pressed and q["answer"]}  # fmt: skip
    assert len(answered) == len(pressed), f"{len(pressed) - len(answered)} presses unanswered"
    return [answered[query] - sent for query, sent in pressed.items()]


async def replay(port: int, headers: dict[str, str], logs: list[list[dict[str, Any]]]) -> float:
    """POST recorded bodies, one sequence per connection; returns updates per second."""
    hook = RawHttp("127.0.0.1", port, len(logs), headers)
    await hook.open()

    async def one(log: list[dict[str, Any]]) -> None:
        for update in log:
            status, _, _ = await hook.post("/webhook", update)
            assert status == 200, status

    started = time.perf_counter()
    await asyncio.gather(*(one(log) for log in logs))
    wall = time.perf_counter() - started
    await hook.close()
    return sum(len(log) for log in logs) / wall


# How far `(now + hint) - hint` may stray from `now` by rounding: half a unit in the last
# place of a timestamp near 2**31 s is 1.2e-7 s. A figure below minus this is early for sure.
ROUNDING_S = 1e-6


async def timers(bench: Bench, count: int, first_chat: int) -> tuple[list[float], int, int]:
    """Lateness of `count` missed-hint timers (seconds), how many took effect early, and how
    many games were past round 1 when first read.

    A game's timer is the one of the round it was in when first read, as soon as it started;
    it took effect at the moment the next round started (its deadline less `hint_s`). Seating
    200 games takes 15 s or more on a busy machine, longer than a hint, so the first games may
    be in round 2 when read: their timer is round 2's, measured against round 3."""
    hook = RawHttp("127.0.0.1", bench.web_port, 50, bench.secret_headers)
    await hook.open()
    games = [bench.game(first_chat - g, players=3) for g in range(count)]
    seen: dict[int, tuple[int, float]] = {}  # chat -> (round, its deadline)

    async def first_read(game: Game) -> None:
        room = await game.room_when(lambda r: phase_of(r) is Phase.HINT)
        assert round_of(room) is not None and room.deadline is not None
        seen[game.chat_id] = (round_of(room).no, room.deadline)

    await seated(bench, hook, games, f"rotations=1 hint={HINT_S} timers=on", then=first_read)
    await hook.close()
    later = sum(number > 1 for number, _ in seen.values())
    late: dict[int, float] = {}
    until = time.time() + 2 * HINT_S * bench.timer_scale + 30
    while len(late) < count and time.time() < until:
        for game in games:
            if game.chat_id in late:
                continue
            room: Room = await game.room()
            number, deadline = seen[game.chat_id]
            if round_of(room) is None or room.deadline is None or round_of(room).no == number:
                continue
            if round_of(room).no != number + 1 or phase_of(room) is not Phase.HINT:
                seen[game.chat_id] = (round_of(room).no, room.deadline)  # a round passed unseen
                continue
            applied = room.deadline - settings_of(room).hint_s * room.timer_scale
            late[game.chat_id] = applied - deadline
        await asyncio.sleep(0.2)
    assert len(late) == count, f"only {len(late)} of {count} timers fired"
    values = list(late.values())
    return values, sum(1 for v in values if v < -ROUNDING_S), later


def timer_figures(late: list[float], early: int, later: int) -> dict[str, float]:
    return {
        "timer_late_p50_s": percentile(late, 50),
        "timer_late_p99_s": percentile(late, 99),
        "timer_late_max_s": max(late),
        "timer_late_min_s": min(late),
        "timer_early_count": early,
        "timers": len(late),
        "timers_read_after_round_1": later,
    }


async def measure(bench: Bench, games: int, count: int, timers_only: bool = False,
                  profile: Path | None = None) -> dict[str, float]:  # fmt: skip
    base = -1_000_000_000_000 - secrets.randbelow(10**6) * 1000
    late, early, later = await timers(bench, count, base - 20_000)
    if timers_only:
        return timer_figures(late, early, later)

    async def baseline(logs: list[list[dict[str, Any]]]) -> float:
        return await replay(bench.bare_port, bench.secret_headers, logs)

    # The baseline takes the same bodies right after the web did, while the workers are still
    # busy with them: both see the same machine.
    full = await play(bench, games, base, None, meanwhile=baseline)
    saturated = full["latencies"]
    backlog = await delivered(bench, profile)
    rate = len(saturated) / full["wall"]
    half = await play(bench, games, base - 10_000, games / (rate / 2))
    paced = half["latencies"]
    calm = await play(bench, ANSWER_GAMES, base - 30_000, ANSWER_PACE, rotations=1)
    answers = await answer_delays(bench, calm["pressed"])
    idle = await baseline(full["updates"])
    await delivered(bench)
    idle_per_s = await idle_cpu(bench)
    memory = await bench.redis_info("memory")
    return {
        "updates_per_s": rate,
        "handled_per_s": len(saturated) / full["over"],
        "saturated_worker_cpu_ms_per_update": full["worker_cpu"] * 1000 / len(saturated),
        "saturated_all_delivered_worker_cpu_ms_per_update":
            (full["worker_cpu"] + backlog["cpu"] - idle_per_s * backlog["seconds"]) * 1000
            / len(saturated),
        "backlog_rooms": backlog["rooms"],
        "backlog_s": backlog["seconds"],
        "worker_idle_cpu_ms_per_s": idle_per_s * 1000,
        "paced_worker_cpu_ms_per_update": half["worker_cpu"] * 1000 / len(paced),
        "games_as_planned": full["as_planned"] + half["as_planned"],
        "p50_ms": percentile(paced, 50) * 1000,
        "p99_ms": percentile(paced, 99) * 1000,
        "saturated_p50_ms": percentile(saturated, 50) * 1000,
        "saturated_p99_ms": percentile(saturated, 99) * 1000,
        "baseline_updates_per_s": full["meanwhile"],
        "baseline_idle_updates_per_s": idle,
        "answer_p50_ms": percentile(answers, 50) * 1000,
        "answer_p99_ms": percentile(answers, 99) * 1000,
        "answers": len(answers),
        **timer_figures(late, early, later),
        "redis_peak_mb": int(memory["used_memory_peak"]) / 2**20,
        "games": games,
    }


@contextmanager
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hintrigue-bench-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timers", type=int, default=TIMERS)
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="sample the workers with py-spy while they deliver the backlog")
    parser.add_argument("--timers-only", action="store_true",
                        help="measure the timers alone (phase 5)")  # fmt: skip
    parser.add_argument("--replica", action="store_true",
                        help="give Redis a replica: every 200 and commit waits for it (WAIT)")
    args = parser.parse_args()
    with workdir() as path:
        try:
            with start_processes(path, args.workers, args.replica) as bench:
                # uvloop (uvicorn's loop too): the driver must cost little beside what it measures
                figures = uvloop.run(measure(bench, args.games, args.timers, args.timers_only,
                                             args.profile))
                figures["cpu_driver_s"] = time.process_time()
                figures["replica"] = int(args.replica)
        finally:
            if args.keep_logs:
                kept = Path(tempfile.mkdtemp(prefix="hintrigue-bench-logs-"))
                for log in path.glob("*.log"):
                    shutil.copy(log, kept)
                print(f"logs={kept}")
        for name, value in figures.items():
            print(f"{name}={value:.3f}" if isinstance(value, float) else f"{name}={value}")
        if args.profile is not None:
            print("\n".join(profile_top(args.profile, 30)))
        if figures["timer_early_count"] != 0:
            print(f"FAIL timer_early_count={figures['timer_early_count']}: timers must never"
                  " take effect before their deadline")
            sys.exit(1)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    main()
