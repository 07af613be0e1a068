"""The bot as the Procfile runs it: web and worker processes, a redis-server, the Bot API double.

The double runs in the test process (its world is what the players see); everything else is a
separate process started from the Procfile's own command lines, in its own session so that a
test can kill it like a crashed machine would (the whole process group at once).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis

from engine.games.registry import GAMES
from engine.model import Room
from engine.store import Store
from tests.conftest import RedisServer, free_port
from tests.e2e.sentinel import SentinelRedis
from tests.harness import (
    ROOT,
    SECRET,
    process_env,
    procfile_command,
    wait_for,
    without_join_timer,
)
from tgbot.standin import MessageRecord, RateLimits, StandinServer, World
from tgbot.standin.delivery import deliver

GROUP = -1001000000077
QUEUE = "e2e"

# Telegram's limits scaled alike on both sides so the tests stay short: 20 messages a second
# per chat (bursts of 3), 400 new messages a minute per group, 300 a second overall.
LIMITS = RateLimits(per_chat_per_second=20, per_chat_burst=3, per_group_per_minute=400,
                    global_per_second=300)  # fmt: skip
LIMITS_ENV = {"RATE_CHAT_PER_SECOND": "20", "RATE_CHAT_BURST": "3",
              "RATE_GROUP_PER_MINUTE": "400", "RATE_GLOBAL_PER_SECOND": "300"}  # fmt: skip


@dataclass
class Proc:
    """One Procfile process."""

    kind: str
    process: subprocess.Popen[bytes]
    port: int | None = None

    def kill(self, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send a signal to the whole process group (a worker's scheduler included)."""
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            return
        if sig is signal.SIGKILL:
            self.process.wait(timeout=10)


@dataclass
class ProcStack:
    """Started processes and the world they talk to."""

    world: World
    double: StandinServer
    redis: RedisServer | SentinelRedis
    log_dir: Path
    timer_scale: float
    extra_env: dict[str, str] = field(default_factory=dict)  # for every process
    procs: list[Proc] = field(default_factory=list)
    answers: Counter[int] = field(default_factory=Counter)  # the webhooks' answers, by status
    seen: dict[int, int] = field(default_factory=dict)
    """By chat, the last message id `find` passes over: a second game's player reads its own
    prompts (a first game's prompts keep their buttons once answered)."""
    _answers_lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis.url)

    def env(self, **extra: str) -> dict[str, str]:
        return process_env({
            **os.environ, **LIMITS_ENV,
            "TELEGRAM_BOT_TOKEN": self.world.token, "TELEGRAM_API_URL": self.double.url,
            **self.redis.env, "RQ_QUEUE": QUEUE, "WEBHOOK_SECRET": SECRET,
            "TIMER_SCALE": str(self.timer_scale), "PYTHONPATH": str(ROOT), **self.extra_env,
            **extra,
        })  # fmt: skip

    def spawn(self, kind: str, **extra: str) -> subprocess.Popen[bytes]:
        number = sum(p.kind == kind for p in self.procs)
        with (self.log_dir / f"{kind}{number}.log").open("ab") as log:
            return subprocess.Popen(
                procfile_command(kind),
                env=self.env(**extra),
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def start_web(self, port: int | None = None) -> Proc:
        """Start a web process (on a new port unless given) and wait until it answers."""
        port = port or free_port()
        proc = Proc("web", self.spawn("web", PORT=str(port)), port)
        self.procs.append(proc)
        url = f"http://127.0.0.1:{port}/healthz"

        def healthy() -> bool:
            if proc.process.poll() is not None:
                raise AssertionError(f"the web process exited with {proc.process.returncode}")
            try:
                return httpx.get(url, trust_env=False, timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(healthy, 30, "the web process")
        return proc

    def start_worker(self) -> Proc:
        proc = Proc("worker", self.spawn("worker"))
        self.procs.append(proc)
        return proc

    def release(self, web: Proc) -> None:
        """The Procfile's release step, registering `web` as the webhook."""
        process = self.spawn("release", WEBHOOK_URL=f"http://127.0.0.1:{web.port}/webhook")
        assert process.wait(timeout=30) == 0, "the release step failed"

    def webs(self) -> list[Proc]:
        return [p for p in self.procs if p.kind == "web" and p.process.poll() is None]

    def workers(self) -> list[Proc]:
        return [p for p in self.procs if p.kind == "worker" and p.process.poll() is None]

    def stop(self) -> None:
        for proc in self.procs:
            proc.kill(signal.SIGTERM)
        for proc in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.process.wait(timeout=15)
            proc.kill(signal.SIGKILL)

    # -- Telegram's side ---------------------------------------------------------------------

    def deliver(self, update: dict[str, Any], web: int | None = None, retry: bool = False) -> int:
        """POST an update to the webhook (or to one web process); with `retry`, repeat it until
        it is taken, as Telegram does while the webhook fails."""
        deadline = time.monotonic() + 60
        while True:
            url = None
            if web is not None:
                url = f"http://127.0.0.1:{self.webs()[web % len(self.webs())].port}/webhook"
            result = deliver(self.world, update, 30, url)
            with self._answers_lock:
                self.answers[result.status or 0] += 1
            if result.ok or not retry or time.monotonic() > deadline:
                return result.status or 0
            time.sleep(0.2)

    def say(self, user: int, chat: int, text: str, **options: Any) -> int:
        return self.deliver(self.world.user_message(user, chat, text), **options)

    def press(self, user: int, message: MessageRecord, data: str, **options: Any) -> str:
        """Press a button; return the callback answer's text."""
        update = self.world.press(user, message.chat_id, message.message_id, data)
        self.deliver(update, **options)
        query = update["callback_query"]["id"]
        answer = wait_for(lambda: self.world.callback_answer(query), 15, "a callback answer")
        return answer.text or ""

    def find(self, chat_id: int, pattern: str) -> MessageRecord | None:
        """The latest bot message in a chat whose text matches a pattern."""
        for message in reversed(self.world.bot_messages(chat_id)):
            if message.message_id <= self.seen.get(chat_id, 0):
                return None
            if re.search(pattern, message.plain_text or message.text, re.S):
                return message
        return None

    def wait_find(self, chat_id: int, pattern: str, timeout: float = 30) -> MessageRecord:
        return wait_for(lambda: self.find(chat_id, pattern), timeout, f"{pattern!r} in {chat_id}")

    def room(self) -> Room:
        room = Store(self.client, GAMES).load(GROUP)
        assert room is not None
        return room


def start_stack(redis_server: RedisServer | SentinelRedis, log_dir: Path, *, timer_scale: float,
                webs: int = 1, workers: int = 1,
                env: dict[str, str] | None = None) -> ProcStack:  # fmt: skip
    """Start redis-server, the double and the Procfile's processes (`env` added to their
    environment); run the release step. The workers are started first: nothing reaches them
    before the webhook is set, and their start-up overlaps the web processes' wait."""
    redis_server.start()
    world = World(rate_limits=LIMITS, enforce_rate_limits=True)
    double = StandinServer(world)
    double.start()
    stack = ProcStack(world, double, redis_server, log_dir, timer_scale, dict(env or {}))
    try:
        for _ in range(workers):  # they start up while the web processes do
            stack.start_worker()
        for _ in range(webs):
            stack.start_web()
        stack.release(stack.webs()[0])
        world.add_chat(GROUP, "supergroup", title="E2E", bot_status="left")
        without_join_timer(stack.client, GROUP)
    except BaseException:
        stack.stop()
        double.stop()
        raise
    return stack
