"""Processes of the end-to-end benchmark and the handle the measurements use."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
import redis.asyncio as aioredis

from bench.players import Game, RawHttp, Updates
from engine.store import keys
from tgbot.ops.config import Config, bot_id
from tgbot.standin import DEFAULT_TOKEN

ROOT = Path(__file__).resolve().parent.parent
QUEUE = "bench"


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def group_cpu(leader: int, system: bool = False) -> float:
    """User + system CPU seconds of a process group so far: its live processes, and the
    children its leader reaped (`system`: the system part alone)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) != leader:  # pgrp
            continue
        total += int(fields[12]) + (0 if system else int(fields[11]))
        if int(entry.name) == leader:
            total += int(fields[14]) + (0 if system else int(fields[13]))
    return total / tick


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def procfile(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        kind, _, command = line.partition(":")
        if kind.strip() == name:
            return command.strip()
    raise SystemExit(f"no {name} process in the Procfile")


def wait_until_up(port: int, process: subprocess.Popen[bytes], path: str = "/healthz") -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"a process on port {port} exited with {process.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}{path}", trust_env=False, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answers on port {port}")


def wait_for_replica(url: str) -> None:
    """Wait until the primary at `url` has a replica that confirms writes."""
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if client.set("bench:probe", 1) and client.wait(1, 100) == 1:
                client.delete("bench:probe")
                return
        except redis.ConnectionError:
            pass
        time.sleep(0.1)
    raise SystemExit("the replica did not sync")


@dataclass
class Bench:
    """What a measurement needs: ports, secrets, Redis, and a way to register players."""

    web_port: int
    bare_port: int
    double_port: int
    secret: str
    timer_scale: float
    redis_url: str
    worker_groups: list[int] = field(default_factory=list)
    """The worker processes' process groups (each with its scheduler)."""
    _users: Iterator[int] = field(default_factory=lambda: itertools.count(10_000_000))
    _updates: Updates = field(default_factory=lambda: Updates(10**12))
    _double: RawHttp | None = None
    _redis: aioredis.Redis | None = None

    @property
    def secret_headers(self) -> dict[str, str]:
        return {"X-Telegram-Bot-Api-Secret-Token": self.secret}

    def worker_cpu(self) -> float:
        """The worker processes' CPU seconds so far, their schedulers' included."""
        return sum(group_cpu(group) for group in self.worker_groups)

    async def control(self, path: str, body: dict[str, Any]) -> Any:
        if self._double is None:
            self._double = RawHttp("127.0.0.1", self.double_port, 8)
            await self._double.open()
        status, answer, _ = await self._double.post(path, body)
        assert status == 200, (status, answer[:200])
        return json.loads(answer)

    async def redis_info(self, section: str) -> dict[str, Any]:
        """A section of the bench's Redis INFO."""
        client = aioredis.Redis.from_url(self.redis_url)
        try:
            info: dict[str, Any] = await client.info(section)
            return info
        finally:
            await client.aclose()

    async def control_get(self, path: str) -> Any:
        """GET a control endpoint of the double."""
        async with httpx.AsyncClient(trust_env=False, timeout=60) as client:
            response = await client.get(f"http://127.0.0.1:{self.double_port}{path}")
            response.raise_for_status()
            return response.json()

    async def press(self, user: int, chat: int, data: str) -> dict[str, Any]:
        """A press the double knows of (so the bot may answer it), as an update to deliver."""
        body = {"presses": [{"user_id": user, "chat_id": chat, "data": data}]}
        updates: list[dict[str, Any]] = (await self.control("/_standin/presses", body))["updates"]
        return updates[0]

    def game(self, chat_id: int, players: int = 4) -> Game:
        if self._redis is None:
            self._redis = aioredis.Redis.from_url(self.redis_url)
        users = [next(self._users) for _ in range(players)]
        key = Config(token=DEFAULT_TOKEN, webhook_secret=self.secret).signing_key
        return Game(chat_id, users, self._updates, self._redis, key, self.press)

    async def register(self, games: list[Game]) -> None:
        """Players who started the bot, and groups with the bot in them, as the double sees it."""
        semaphore = asyncio.Semaphore(8)

        async def add(path: str, body: dict[str, Any]) -> None:
            async with semaphore:
                await self.control(path, body)

        calls = [add("/_standin/chats", {"chat_id": g.chat_id, "type": "supergroup",
                                         "title": f"Bench {-g.chat_id}"}) for g in games]
        calls += [add("/_standin/users", {"id": u, "first_name": f"P{u}", "started": True})
                  for g in games for u in g.users]  # fmt: skip
        await asyncio.gather(*calls)


@contextmanager
def start_processes(path: Path, workers: int, replica: bool = False) -> Iterator[Bench]:
    """redis-server (with a replica of its own if asked), the double, the web and worker
    processes and the bare baseline app."""
    keys.use_bot(bot_id(DEFAULT_TOKEN))  # read the bot's keys as its processes name them
    with ExitStack() as stack:
        started: list[subprocess.Popen[bytes]] = []
        names: dict[str, subprocess.Popen[bytes]] = {}

        def spawn(name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
            log = (path / f"{name}.log").open("ab")
            stack.callback(log.close)
            process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
            started.append(process)
            names[name] = process
            return process

        def stop_all() -> None:
            for name, process in names.items():
                cpu = cpu_seconds(process.pid)
                if cpu is not None:
                    print(f"cpu_{name}_s={cpu:.1f}")
            for process in reversed(started):
                if process.poll() is None:
                    os.killpg(process.pid, 15)
            for process in reversed(started):
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, 9)

        stack.callback(stop_all)
        redis_port = free_port()
        binary = shutil.which("redis-server") or "redis-server"
        spawn("redis", [binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--dir", str(path),
                        "--repl-diskless-sync-delay", "0"], dict(os.environ))  # fmt: skip
        redis_url = f"redis://127.0.0.1:{redis_port}/0"
        if replica:
            # A replica on the same machine: what WAIT costs, without a network's round trip.
            spawn("replica", [binary, "--port", str(free_port()), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", str(path),
                              "--replicaof", "127.0.0.1", str(redis_port)],
                  dict(os.environ))  # fmt: skip
            wait_for_replica(redis_url)
        double_port = free_port()
        # The double stands in for Telegram's servers, which are not on the bot's machine: it
        # runs at the workers' lower priority, so serving their calls does not take the CPU
        # from the processes measured.
        double = spawn("double", ["nice", "-n", "10", sys.executable, "-m", "tgbot.standin",
                                  "--port", str(double_port)],
                       {**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        wait_until_up(double_port, double, f"/bot{DEFAULT_TOKEN}/getMe")
        secret = secrets.token_urlsafe(24)
        web_port = free_port()
        bin_dir = str(Path(sys.executable).parent)
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": DEFAULT_TOKEN, "PYTHONPATH": str(ROOT),
               "TELEGRAM_API_URL": f"http://127.0.0.1:{double_port}", "REDIS_URL": redis_url,
               "RQ_QUEUE": QUEUE, "WEBHOOK_SECRET": secret, "TIMER_SCALE": "1",
               "PORT": str(web_port), "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        web = spawn("web", ["/bin/sh", "-c", "exec " + procfile("web")], env)
        wait_until_up(web_port, web)
        for number in range(workers):
            spawn(f"worker{number}", ["/bin/sh", "-c", "exec " + procfile("worker")], env)
        bare_port = free_port()
        bare = spawn("bare", [sys.executable, str(ROOT / "bench" / "bare_webhook.py"),
                              str(bare_port), DEFAULT_TOKEN, f"http://127.0.0.1:{double_port}"],
                     env)  # fmt: skip
        wait_until_up(bare_port, bare, "/")
        yield Bench(web_port, bare_port, double_port, secret, 1.0, redis_url,
                    [names[f"worker{number}"].pid for number in range(workers)])
