"""Store benchmark: whole games applied through the Redis store, one client and eight at once.

Every command goes through `Store.execute` with a Telegram update id, as the bot does: read the
room, apply the rules, commit with the Lua compare-and-set (timer commands go without an update
id, as the workers send them). Each client plays its own 8-seat games (rooms are independent, as
groups are). By default the 8 clients are threads spread over one process per core, as in the
bot, where each web or worker process serves many chats at once: more processes than cores only
adds context switches between them and the Redis server on the same cores (8 processes on 2
cores measured about 1,400 commands/s, p99 12 ms, against 2,100/s and 10 ms this way).
`--processes P` sets the number of processes. Latency is the time of one `execute` call.

`bytes_per_room` is MEMORY USAGE summed over every `{room:<id>}:*` key of an 8-seat room in the
middle of the vote of its first round; the same is printed for round 8 and round 16 (the last
of two rotations), where every applied update id of the game so far is remembered.

It runs on a dedicated database of the Redis server named by REDIS_URL (db 14 unless told
otherwise) and empties that database, and only that one, before and after.

Prints `name=value` lines. Run:
    .venv/bin/python bench/store.py [--url URL] [--db N] [--seconds S] [--clients N]
                                    [--processes P]
Environment: REDIS_URL (default redis://localhost:6379/0), BENCH_REDIS_DB (default 14).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis  # noqa: E402

from engine.commands import (  # noqa: E402
    Command,
    Join,
    OpenLobby,
    StartGame,
    Timeout,
)
from engine.games.hintrigue.model import Phase, phase_of, round_of  # noqa: E402
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Room  # noqa: E402
from engine.store import (
    Store,  # noqa: E402
    keys,  # noqa: E402
)
from tests.builders import next_move as next_command  # noqa: E402

SEATS = 8


def bench_url(url: str | None, db: int | None) -> str:
    """The URL of the benchmark's own database: REDIS_URL's server, database `db`."""
    base = url or os.environ.get("REDIS_URL", "redis://localhost:6379/0")
    number = db if db is not None else int(os.environ.get("BENCH_REDIS_DB", "14"))
    return urlsplit(base)._replace(path=f"/{number}").geturl()


def game(chat: int, first_user: int) -> Generator[tuple[Command, float], Room | None, None]:
    """The commands of one 8-seat game; send each one's resulting room back with `send`."""
    now = 1_000.0
    room: Room | None = yield (
        OpenLobby(chat_id=chat, user_id=first_user, name="P0", seed=abs(chat)),
        now,
    )
    for seat in range(1, SEATS):
        room = yield Join(user_id=first_user + seat, name=f"P{seat}"), now
    room = yield StartGame(user_id=first_user), now
    while room is not None and room.phase not in OVER_PHASES:
        command, now = next_command(room, now)
        room = yield command, now


class Player:
    """One client: plays games through its store, one after the other, timing each command."""

    def __init__(self, client: redis.Redis, index: int) -> None:
        self.store = Store(client, GAMES)
        self.index = index
        self.games = 0
        self.update_id = index * 1_000_000_000
        self.latencies: list[float] = []

    def next_update(self, command: Command) -> int | None:
        """A fresh Telegram update id; timers (workers) fire without one."""
        if isinstance(command, Timeout):
            return None
        self.update_id += 1
        return self.update_id

    def play(self, until: float) -> None:
        """Play games until the clock passes `until`."""
        while time.perf_counter() < until:
            self.games += 1
            chat = -(self.index * 10_000_000 + self.games)
            moves = game(chat, self.index * 100_000_000 + self.games * 10)
            command, now = next(moves)
            while True:
                started = time.perf_counter()
                outcome = self.store.execute(
                    chat, command, update_id=self.next_update(command), now=now
                )
                self.latencies.append(time.perf_counter() - started)
                if time.perf_counter() >= until:
                    return
                try:
                    command, now = moves.send(outcome.room)
                except StopIteration:
                    break


def client_process(
    url: str, indices: list[int], seconds: float, ready: Any, go: Any, out: Any
) -> None:
    """One process of clients, a thread each: connect, wait for the start, play, report."""
    client = redis.Redis.from_url(url, max_connections=len(indices) + 1)
    players = [Player(client, index) for index in indices]
    client.ping()
    ready.put(indices)
    go.wait()
    started = time.perf_counter()
    threads = [threading.Thread(target=p.play, args=(started + seconds,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies = [x for p in players for x in p.latencies]
    out.put((len(latencies), elapsed, latencies, sum(p.store.conflicts for p in players)))


def run_clients(
    url: str, clients: int, processes: int, seconds: float
) -> tuple[float, list[float], int]:
    """Commands per second over all clients, every latency, and the conflicts.

    The clients are spread over `processes` processes, as threads within each.
    """
    context = multiprocessing.get_context("spawn")
    ready, go, out = context.Queue(), context.Event(), context.Queue()
    groups = [list(range(1 + p, clients + 1, processes)) for p in range(processes)]
    workers = [
        context.Process(target=client_process, args=(url, group, seconds, ready, go, out))
        for group in groups
        if group
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=60)
    go.set()
    reports = [out.get(timeout=seconds + 60) for _ in workers]
    for worker in workers:
        worker.join()
    commands = sum(r[0] for r in reports)
    elapsed = max(r[1] for r in reports)
    latencies = [x for r in reports for x in r[2]]
    return commands / elapsed, latencies, sum(r[3] for r in reports)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def room_bytes(client: redis.Redis, chat: int) -> tuple[int, int, int]:
    """MEMORY USAGE summed over every key of a room; its state hash alone; how many keys."""
    names = list(client.scan_iter(match=keys.room_prefix(chat) + "*"))
    total = sum(client.memory_usage(name, samples=0) or 0 for name in names)
    state = client.memory_usage(keys.room(chat), samples=0) or 0
    return total, state, len(names)


def mid_round_room(client: redis.Redis, chat: int, round_no: int) -> tuple[int, int, int]:
    """Play an 8-seat game to the middle of the vote of round `round_no`; measure the room."""
    player = Player(client, 99)
    moves = game(chat, 990_000_000 + abs(chat) * 10)
    command, now = next(moves)
    while True:
        update_id = player.next_update(command)
        room = player.store.execute(chat, command, update_id=update_id, now=now).room
        assert room is not None
        rnd = round_of(room)
        voted = len(rnd.votes) if rnd is not None else -1
        if phase_of(room) is Phase.VOTING and rnd is not None and rnd.no == round_no and voted == 3:
            return room_bytes(client, chat)
        command, now = moves.send(room)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="Redis server URL (default: $REDIS_URL)")
    parser.add_argument("--db", type=int, help="database number to use and empty (default 14)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each run")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument(
        "--processes", type=int, help="processes the clients are spread over (default: cores)"
    )
    args = parser.parse_args()
    url = bench_url(args.url, args.db)
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        processes = args.processes or min(args.clients, os.cpu_count() or 1)
        single_rate, single_latencies, _ = run_clients(url, 1, 1, args.seconds)
        client.flushdb()
        rate, latencies, conflicts = run_clients(url, args.clients, processes, args.seconds)
        client.flushdb()
        sizes = {
            name: mid_round_room(client, -n, n)
            for n, name in ((1, "first"), (8, "mid_game"), (16, "last"))
        }
    finally:
        client.flushdb()
    n = args.clients
    print(f"redis_url={url}")
    print(f"clients={args.clients}")
    print(f"client_processes={processes}")
    print(f"commands_per_s_1_client={single_rate:.0f}")
    print(f"p50_ms_1_client={percentile(single_latencies, 0.5) * 1000:.2f}")
    print(f"commands_per_s_{n}_clients={rate:.0f}")
    print(f"p50_ms_{n}_clients={percentile(latencies, 0.5) * 1000:.2f}")
    print(f"p99_ms_{n}_clients={percentile(latencies, 0.99) * 1000:.2f}")
    print(f"commands_{n}_clients={len(latencies)}")
    print(f"conflicts_{n}_clients={conflicts}")
    print(f"bytes_per_room={sizes['first'][0]}")
    print(f"bytes_per_room_state_only={sizes['first'][1]}")
    print(f"keys_per_room={sizes['first'][2]}")
    for name in ("mid_game", "last"):
        print(f"bytes_per_room_{name}_round={sizes[name][0]}")
        print(f"keys_per_room_{name}_round={sizes[name][2]}")


if __name__ == "__main__":
    main()
