"""What waiting for a replica costs one update: the webhook's push alone, with and without one.

Starts a redis-server (and, for the second measure, a replica of it on the same machine), then
pushes updates one after the other through the web process's `WebInbox`, each waiting for its
answer, as a lone update does (under load, updates that arrive together share one WAIT).
Prints `name=value` lines: `push_p50_ms`/`push_p99_ms` alone, and `..._replica` with a replica.

Run: `.venv/bin/python bench/wait.py [--pushes 3000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import redis.asyncio as aioredis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import percentile  # noqa: E402
from engine.store import keys  # noqa: E402
from engine.store.replicas import Replicas  # noqa: E402
from tgbot.ingress.inbox import WebInbox  # noqa: E402
from tgbot.ops.config import DEFAULT_REPLICA_WAIT_MS  # noqa: E402

WARMUP = 300


def server(directory: Path, *extra: str) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    binary = shutil.which("redis-server") or "redis-server"
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save",
                                "", "--dir", str(directory), *extra],
                               stdout=subprocess.DEVNULL)  # fmt: skip
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            return process, port
        except redis.ConnectionError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


async def pushes(port: int, count: int) -> list[float]:
    """Seconds each lone push took, after a warm-up."""
    client = aioredis.Redis(port=port)
    inbox = WebInbox(client, "bench-wait", Replicas(DEFAULT_REPLICA_WAIT_MS))
    took = []
    for update in range(count + WARMUP):
        started = time.perf_counter()
        await inbox.push(update, b'{"update_id": %d}' % update, -100 - update % 50, 7)
        took.append(time.perf_counter() - started)
    await client.aclose()
    return took[WARMUP:]


def measure(directory: Path, count: int, replica: bool) -> list[float]:
    primary, port = server(directory, "--repl-diskless-sync-delay", "0")
    started = [primary]
    try:
        if replica:
            started.append(server(directory, "--replicaof", "127.0.0.1", str(port))[0])
            probe = redis.Redis(port=port)
            while not (probe.set("probe", 1) and probe.wait(1, 100) == 1):
                time.sleep(0.1)
        return asyncio.run(pushes(port, count))
    finally:
        for process in started:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pushes", type=int, default=3000)
    args = parser.parse_args()
    keys.use_bot("1")
    with tempfile.TemporaryDirectory(prefix="hintrigue-wait-") as directory:
        for replica in (False, True):
            took = measure(Path(directory), args.pushes, replica)
            suffix = "_replica" if replica else ""
            print(f"push_p50_ms{suffix}={percentile(took, 50) * 1000:.3f}")
            print(f"push_p99_ms{suffix}={percentile(took, 99) * 1000:.3f}")


if __name__ == "__main__":
    main()
