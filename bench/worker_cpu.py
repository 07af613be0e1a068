"""Worker CPU per update: what the workers spend from an update to its answers at Telegram.

A redis-server, the Bot API double (in this process, Telegram's flood limits scaled as in the
end-to-end tests) and the Procfile's web and worker processes. Players act the way the
end-to-end tests play (`tests/e2e/`, as `bench/capacity.py` does): each one as soon as the
bot's message that asks for it is there, so nearly every update is a drain job of its own and
its messages a delivery of their own, the dearest way for the workers (a busy bot batches). Each
game is played in a group of its own, all 4 seats acting: `--hintrigue` Hintrigue games (one
rotation), then one game of Guess What! and one of Hues and Cues (unless `--games` says
otherwise). One unmeasured game of each kind comes first, so that what a process does once
(a catalog compiled, the fonts loaded, the first getMe) is not counted.

Measured: the CPU time (user + system, from /proc) of the worker processes, each with its
scheduler (its process group), from the first update of a game until the bot made no Bot API
call for a while after "Game over", divided by the updates the webhook took in meanwhile (the
lobby's included). `worker_cpu_ms_per_update=` is over the Hintrigue games; each kind of game
has its own `<game>_worker_cpu_ms_per_update=`. The split comes from a hook loaded into the
workers only by this bench (a `sitecustomize` on their PYTHONPATH) that adds up the process's
CPU time across each job (run by RQ, or by the worker itself: `run_own_job`), by job function:
`apply` (drain: the update handled, its command applied and committed), `delivery` (flush: the
outbox delivered to the Bot API), `timers`
(fire_timer, ai_move, remind, lobby_tick), `pictures` (drawing the pictures that delivery
sends, out of `delivery`) and `outside_jobs` (what the worker does between
jobs: waiting for work, taking an inbox, RQ's bookkeeping, the sweeper, the scheduler's
process). `worker_idle_cpu_ms_per_s=` is what the workers spend per second while nothing
happens (their scheduler and sweeper); it is part of every window, and
`worker_cpu_ms_per_update_less_idle=` takes it out.

With `--profile DIR`, py-spy samples the workers while the games are played (not while idle)
and the top functions by own time (self) and by time spent under them (total) are printed,
the raw collapsed stacks kept in DIR. Profiling slows the workers: its CPU figures are not the
bench's.

Prints `name=value` lines. Run: `.venv/bin/python bench/worker_cpu.py [--hintrigue 4]
[--games hintrigue,guesswhat,huescues] [--workers 2] [--profile DIR] [--top 25]`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import capacity  # noqa: E402
from bench.harness import group_cpu  # noqa: E402
from tests.conftest import RedisServer  # noqa: E402
from tests.e2e import players, procs  # noqa: E402
from tests.e2e import test_guesswhat as guesswhat  # noqa: E402
from tests.e2e import test_huescues as huescues  # noqa: E402
from tests.e2e import test_hunch as hunch  # noqa: E402
from tests.e2e.procs import ProcStack, start_stack  # noqa: E402
from tests.harness import without_join_timer  # noqa: E402

WORKERS = 2
IDLE_S = 10.0
FIRST_GROUP = -1001000001000
# Modules whose functions name the group they play in (`GROUP`): each game gets its own.
PLAYING = (procs, players, guesswhat, huescues, hunch, capacity)
KINDS = {
    "workers.jobs.drain": "apply",
    "workers.jobs.flush": "delivery",
    "deliver": "delivery",
    "drain": "apply",
    "workers.jobs.fire_timer": "timers",
    "workers.jobs.ai_move": "timers",
    "workers.jobs.remind": "timers",
    "workers.jobs.lobby_tick": "timers",
    "pictures": "pictures",
}
TRIP = "trip|"  # a count of Redis round trips, by where they were made (`--trips`)
COMMAND = TRIP + "cmd|"  # a count of the commands they sent, by where and name
SPLIT = ("apply", "delivery", "pictures", "timers", "outside_jobs")

# Loaded by every Python process of the stack; in a worker (`rq worker`), it adds up the
# process's CPU time across each job by function (run by RQ or by the worker itself), written
# to $WORKER_CPU_DIR/<pid>.json once a second.
HOOK = '''
import os, sys
if os.path.basename(sys.argv[0]) == "rq" and "worker" in sys.argv[1:2]:
    import json, threading, time
    from rq.worker import BaseWorker, SimpleWorker

    _spent, _runs, _lock = {}, {}, threading.Lock()
    _open = []  # CPU of the measures within the one in progress, by measure
    _path = os.path.join(os.environ["WORKER_CPU_DIR"], f"{os.getpid()}.json")

    def _measured(name, call, *args, **kwargs):
        # The process's CPU time across the call, less that of the measures within it.
        began = time.process_time()
        _open.append(0.0)
        try:
            return call(*args, **kwargs)
        finally:
            total = time.process_time() - began
            inner = _open.pop()
            if _open:
                _open[-1] += total
            with _lock:
                _spent[name] = _spent.get(name, 0.0) + total - inner
                _runs[name] = _runs.get(name, 0) + 1

    def _wrap(module, name, label):
        original = getattr(module, name, None)
        if original is not None and not getattr(original, "measured", False):
            def wrapper(*args, **kwargs):
                return _measured(label, original, *args, **kwargs)
            wrapper.measured = True
            setattr(module, name, wrapper)

    _execute = SimpleWorker.execute_job
    SimpleWorker.execute_job = lambda self, job, queue: _measured(
        job.func_name or "?", _execute, self, job, queue)
    _work = BaseWorker.work
    _own = []  # the worker's own way of running its jobs, where the code has one

    def work(self, *args, **kwargs):
        # The drains a worker runs without an RQ job, and the deliveries a job does itself
        # (where the code has them), measured apart from the job around them.
        import tgbot.pictures as pictures
        import workers.jobs as jobs
        run_own = getattr(type(self), "run_own_job", None)
        if run_own is not None and not _own:
            _own.append(run_own)
            type(self).run_own_job = lambda self, job, queue: _measured(
                job.func_name or "?", run_own, self, job, queue)
        _wrap(jobs, "drain", "drain")
        _wrap(jobs, "deliver", "deliver")
        _wrap(pictures, "render", "pictures")
        return _work(self, *args, **kwargs)

    BaseWorker.work = work

    _trips = {}  # Redis round trips, by the project's function that made them
    WRITE_EVERY = 1.0  # a write (a file opened, written, renamed) costs the worker's CPU too

    if os.environ.get("WORKER_TRIPS"):
        import redis.client as _client
        from redis.connection import AbstractConnection

        _send = AbstractConnection.send_packed_command
        _root = os.environ["WORKER_TRIPS"]

        def _count(what):
            # Counted under the project's function nearest the call (not a library's).
            frame = sys._getframe(2)
            while frame is not None and (not frame.f_code.co_filename.startswith(_root)
                                         or "site-packages" in frame.f_code.co_filename):
                frame = frame.f_back
            where = "outside" if frame is None else (
                f"{os.path.relpath(frame.f_code.co_filename, _root)}:{frame.f_code.co_name}")
            key = where if what is None else f"cmd|{where} {what}"  # a COMMAND's
            with _lock:
                _trips[key] = _trips.get(key, 0) + 1

        def send_packed_command(self, command, check_health=True):
            _count(None)
            return _send(self, command, check_health)

        AbstractConnection.send_packed_command = send_packed_command

        def _counting(original):
            def execute_command(self, *args, **kwargs):
                _count(str(args[0]).split()[0].lower() if args else "?")
                return original(self, *args, **kwargs)
            return execute_command

        _client.Redis.execute_command = _counting(_client.Redis.execute_command)
        _client.Pipeline.execute_command = _counting(_client.Pipeline.execute_command)

    def _write():
        written = None
        while True:
            time.sleep(WRITE_EVERY)
            with _lock:
                now = json.dumps({"cpu": _spent, "jobs": _runs, "trips": _trips})
            if now != written:
                with open(_path + ".new", "w") as out:
                    out.write(now)
                os.replace(_path + ".new", _path)
                written = now

    threading.Thread(target=_write, daemon=True, name="worker-cpu-hook").start()
'''


@dataclass
class Reading:
    """The workers' CPU, their jobs' CPU by kind, the updates taken in, and when."""

    cpu: float
    system: float
    jobs: dict[str, float]
    counts: dict[str, int]
    updates: int
    commands: dict[str, int]
    at: float = field(default_factory=time.monotonic)


def hook_totals(directory: Path) -> tuple[dict[str, float], dict[str, int]]:
    spent: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for path in directory.glob("*.json"):
        data = json.loads(path.read_text())
        for name, seconds in data["cpu"].items():
            spent[KINDS.get(name, "timers")] += seconds
        for name, number in data["jobs"].items():
            counts[name] += number
        for where, number in data.get("trips", {}).items():
            counts[TRIP + where] += number
    return dict(spent), dict(counts)


def redis_commands(stack: ProcStack) -> dict[str, int]:
    """The Redis server's count of each command so far (every client's: the web's too)."""
    stats = stack.client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(entry["calls"]) for name, entry in stats.items()}


def read(stack: ProcStack, leaders: list[int], directory: Path) -> Reading:
    time.sleep(1.1)  # the hook's last write (`WRITE_EVERY`)
    spent, counts = hook_totals(directory)
    with stack._answers_lock:
        updates = stack.answers[200]
    return Reading(sum(group_cpu(pid) for pid in leaders),
                   sum(group_cpu(pid, system=True) for pid in leaders), spent, counts, updates,
                   redis_commands(stack))  # fmt: skip


@dataclass
class Window:
    """What the workers spent over some games."""

    cpu: float = 0.0
    system: float = 0.0
    jobs: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)
    updates: int = 0
    seconds: float = 0.0

    def add(self, before: Reading, after: Reading) -> None:
        self.cpu += after.cpu - before.cpu
        self.system += after.system - before.system
        self.updates += after.updates - before.updates
        self.seconds += after.at - before.at
        for kind in SPLIT[:-1]:
            self.jobs[kind] += after.jobs.get(kind, 0.0) - before.jobs.get(kind, 0.0)
        for name in set(after.counts) | set(before.counts):
            self.counts[name] += after.counts.get(name, 0) - before.counts.get(name, 0)
        for name, calls in after.commands.items():
            # less the INFO that read `after` itself
            self.commands[name] += calls - before.commands.get(name, 0) - (name == "info")

    def figures(self, prefix: str, idle_per_s: float) -> dict[str, float]:
        per = 1000 / max(self.updates, 1)
        outside = self.cpu - sum(self.jobs.values())
        out = {
            f"{prefix}worker_cpu_ms_per_update": self.cpu * per,
            f"{prefix}worker_cpu_ms_per_update_less_idle": (self.cpu - idle_per_s * self.seconds)
            * per,
            **{f"{prefix}{kind}_ms_per_update": self.jobs[kind] * per for kind in SPLIT[:-1]},
            f"{prefix}outside_jobs_ms_per_update": outside * per,
            f"{prefix}system_share": self.system / max(self.cpu, 1e-9),
            f"{prefix}updates": self.updates,
            f"{prefix}drains": self.counts["drain"],
            f"{prefix}rq_jobs": sum(n for name, n in self.counts.items()
                                    if "." in name and not name.startswith(TRIP)),
            f"{prefix}flush_jobs": self.counts["workers.jobs.flush"],
            f"{prefix}seconds": self.seconds,
            f"{prefix}redis_commands_per_update": sum(self.commands.values()) * per / 1000,
        }
        return out

    def trip_figures(self, top: int = 40) -> dict[str, str]:
        """The workers' Redis round trips per update, by the function that made them; and the
        commands they sent (a pipeline's each, a script's call one), by function and name."""
        trips = Counter({name.removeprefix(TRIP): n for name, n in self.counts.items()
                         if name.startswith(TRIP) and not name.startswith(COMMAND)})  # fmt: skip
        sent = Counter({name.removeprefix(COMMAND): n for name, n in self.counts.items()
                        if name.startswith(COMMAND)})  # fmt: skip
        per = 1 / max(self.updates, 1)
        return {"redis_round_trips_per_update": f"{sum(trips.values()) * per:.2f}",
                **{f"trips_{rank:02d}": f"{n * per:6.2f}  {where}"
                   for rank, (where, n) in enumerate(trips.most_common(top), 1)},
                "workers_redis_commands_per_update": f"{sum(sent.values()) * per:.2f}",
                **{f"commands_{rank:02d}": f"{n * per:6.2f}  {where}"
                   for rank, (where, n) in enumerate(sent.most_common(top), 1)}}

    def command_figures(self, top: int = 12) -> dict[str, str]:
        """The Redis commands most sent per update (web and workers together)."""
        return {f"redis_{rank:02d}": f"{calls / max(self.updates, 1):6.2f}  {name}"
                for rank, (name, calls) in enumerate(self.commands.most_common(top), 1)}


def in_group(group: int) -> None:
    """Have the players' functions play in `group`."""
    for module in PLAYING:
        module.GROUP = group  # type: ignore[attr-defined]


def play(stack: ProcStack, name: str, group: int) -> None:
    """One whole game of `name` in a group of its own, until the bot is done with it."""
    in_group(group)
    stack.world.add_chat(group, "supergroup", title=f"Bench {-group}", bot_status="left")
    without_join_timer(stack.client, group)
    seat, game = capacity.GAMES[name]
    users = seat(stack, capacity.seats_for(name, 4))
    game(stack, users)
    stack.wait_find(group, "Game over", 60)
    capacity.quiet(stack)


@contextmanager
def sampled(leaders: list[int], directory: Path | None) -> Iterator[None]:
    """py-spy recording the workers meanwhile (when profiling)."""
    if directory is None:
        yield
        return
    spy = str(Path(sys.executable).parent / "py-spy")
    recorders = [
        subprocess.Popen([spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "1000",
                          "--nonblocking", "--gil",
                          "--output", str(directory / f"{pid}.{time.time_ns()}.txt")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for pid in leaders
    ]  # fmt: skip
    try:
        yield
    finally:
        for recorder in recorders:
            recorder.send_signal(signal.SIGINT)
        for recorder in recorders:
            recorder.wait(timeout=60)


def frame_name(frame: str) -> str:
    """`function (path/to/module.py:line)` → `function (module.py)`: one name per function."""
    function, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    parts = Path(path).parts
    if Path(path).is_relative_to(ROOT):  # the project's own: named from its root
        parts = Path(path).relative_to(ROOT).parts
    for anchor in ("site-packages", "lib"):
        if anchor in parts:
            parts = parts[parts.index(anchor) + 1:]
            break
    return f"{function} ({'/'.join(parts[-3:])})"


IDLE_FRAMES = ("select (", "poll (", "epoll", "wait (threading.py", "_wait_for_tstate_lock",
               "sleep (", "read_response", "recv_into", "blpop", "_worker (concurrent")


def profile_top(directory: Path, top: int) -> list[str]:
    """Lines of the top functions by own samples and by samples under them, from py-spy's
    collapsed stacks (idle waits left out: py-spy counts a thread blocked in a call)."""
    own: Counter[str] = Counter()
    under: Counter[str] = Counter()
    total = 0
    for path in directory.glob("*.txt"):
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = [frame_name(f) for f in stack.split(";") if " (" in f]
            if not frames:
                continue
            total += int(count)
            own[frames[-1]] += int(count)
            for name in set(frames):
                under[name] += int(count)
    lines = [f"profile_samples={total}"]
    for label, counts in (("self", own), ("total", under)):
        for rank, (name, count) in enumerate(counts.most_common(top), 1):
            lines.append(f"profile_{label}_{rank:02d}={100 * count / max(total, 1):5.1f}%  {name}")
    return lines


def measure(directory: Path, games: list[str], hintrigue: int, workers: int,
            profile: Path | None, trips: bool) -> dict[str, float]:  # fmt: skip
    hook = directory / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    cpu_dir = directory / "cpu"
    cpu_dir.mkdir()
    env = {"PYTHONPATH": f"{hook}{os.pathsep}{ROOT}", "WORKER_CPU_DIR": str(cpu_dir)}
    if trips:
        env["WORKER_TRIPS"] = f"{ROOT}{os.sep}"
    server = RedisServer(directory)
    stack = start_stack(server, directory, timer_scale=0.05, workers=workers, env=env)
    groups = iter(range(FIRST_GROUP, FIRST_GROUP - 10_000, -1))
    try:
        leaders = [proc.process.pid for proc in stack.workers()]
        for name in games:  # not measured: what a process does once
            play(stack, name, next(groups))
        quiet_from = read(stack, leaders, cpu_dir)
        time.sleep(IDLE_S)
        quiet_to = read(stack, leaders, cpu_dir)
        idle_per_s = (quiet_to.cpu - quiet_from.cpu) / (quiet_to.at - quiet_from.at)
        windows: dict[str, Window] = {name: Window() for name in games}
        plan = [name for name in games for _ in range(hintrigue if name == "hintrigue" else 1)]
        with sampled(leaders, profile):
            for name in plan:
                before = read(stack, leaders, cpu_dir)
                play(stack, name, next(groups))
                windows[name].add(before, read(stack, leaders, cpu_dir))
        refused = sum(not call.ok for call in stack.world.calls)
    finally:
        stack.stop()
        stack.double.stop()
        server.kill()
    figures: dict[str, float] = {}
    if "hintrigue" in windows:
        figures.update(windows["hintrigue"].figures("", idle_per_s))
    for name, window in windows.items():
        figures.update(window.figures(f"{name}_", idle_per_s))
    every = Window()
    for window in windows.values():
        every.cpu += window.cpu
        every.system += window.system
        every.updates += window.updates
        every.seconds += window.seconds
        every.jobs.update(window.jobs)
        every.counts.update(window.counts)
        every.commands.update(window.commands)
    figures.update(every.figures("all_", idle_per_s))
    figures["worker_idle_cpu_ms_per_s"] = idle_per_s * 1000
    figures["hintrigue_games"] = hintrigue if "hintrigue" in games else 0
    figures["workers"] = workers
    figures["refused_calls"] = refused
    figures.update(windows[plan[0]].command_figures())
    if trips:
        figures.update(windows[plan[0]].trip_figures())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hintrigue", type=int, default=4, help="Hintrigue games measured")
    parser.add_argument("--games", default=",".join(capacity.GAMES),
                        help="comma-separated, of: " + ", ".join(capacity.GAMES))  # fmt: skip
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--profile", type=Path, help="sample the workers with py-spy into DIR")
    parser.add_argument("--top", type=int, default=25, help="profile lines of each kind")
    parser.add_argument("--trips", action="store_true",
                        help="count the workers' Redis round trips and commands by where "
                             "(slows them)")
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="hintrigue-worker-cpu-"))
    try:
        figures = measure(directory, args.games.split(","), args.hintrigue, args.workers,
                             args.profile, args.trips)  # fmt: skip
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    for key, value in figures.items():
        print(f"{key}={value:.2f}" if isinstance(value, float) else f"{key}={value}")
    if args.profile is not None:
        print("\n".join(profile_top(args.profile, args.top)))


if __name__ == "__main__":
    main()
