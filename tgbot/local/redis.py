"""Redis for `python -m tgbot dev`: the one on REDIS_URL (only when the environment sets it),
an own redis-server, or fakeredis.

Without REDIS_URL the run never looks at `localhost:6379/0`, the default a production bot
uses: its own Redis listens on a free port.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import redis

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "")
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _prctl() -> Callable[..., int] | None:
    """The C library's prctl (Linux only), looked up once, before any fork."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL = _prctl()


def die_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` for children of the local run: on Linux the child gets SIGTERM when the
    thread that started it (the run's main thread) dies, even by SIGKILL. None elsewhere."""
    prctl = _PRCTL
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        with contextlib.suppress(Exception):  # best effort: the child starts regardless
            prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
            if os.getppid() != parent:  # the parent died before the signal was asked for
                os.kill(os.getpid(), signal.SIGTERM)

    return preexec


@dataclass(frozen=True)
class RedisChoice:
    """The Redis a run uses; `shared` when it was already there (other data may live in it)."""

    url: str
    description: str
    shared: bool


def answers(url: str) -> bool:
    """Whether a Redis server answers PING on `url`."""
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError, ValueError):
        return False
    finally:
        client.close()


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _own_port(url: str | None) -> tuple[int, str]:
    """The port of a local REDIS_URL when it is free (else any free port), and the db path."""
    if url is None:
        return free_port(), "/0"
    parsed = urlparse(url)
    port = parsed.port or 6379
    if (parsed.hostname or "") not in LOCAL_HOSTS or not _port_free(port):
        port = free_port()
    return port, parsed.path if parsed.path not in ("", "/") else "/0"


def _wait_for(url: str, process: subprocess.Popen[bytes] | None = None) -> None:
    for _ in range(100):
        if answers(url):
            return
        if process is not None and process.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit(f"the Redis started for this run does not answer on {url}")


@contextmanager
def _redis_server(binary: str, url: str | None, workdir: Path) -> Iterator[RedisChoice]:
    port, db = _own_port(url)
    directory = workdir / "redis"
    directory.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(directory), "--logfile", str(workdir / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=die_with_parent(),
    )  # fmt: skip
    own_url = f"redis://127.0.0.1:{port}{db}"
    try:
        _wait_for(own_url, process)
        yield RedisChoice(own_url, "redis-server started by this run", shared=False)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def _embedded(url: str | None) -> Iterator[RedisChoice]:
    try:
        from fakeredis import TcpFakeServer
    except ImportError as exc:
        raise SystemExit(
            "No Redis answers, redis-server is not installed and fakeredis is missing: install "
            "redis-server, or `pip install -e '.[local]'` for the embedded fallback."
        ) from exc
    port, db = _own_port(url)
    server = TcpFakeServer(("127.0.0.1", port), server_type="redis")
    thread = threading.Thread(target=server.serve_forever, name="fakeredis", daemon=True)
    thread.start()
    own_url = f"redis://127.0.0.1:{port}{db}"
    try:
        _wait_for(own_url)
        yield RedisChoice(own_url, "embedded fakeredis started by this run", shared=False)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def provide_redis(mode: str, url: str | None, workdir: Path) -> Iterator[RedisChoice]:
    """Attach to `url` (REDIS_URL; mode "auto", when it is set and answers) or start a Redis
    this run owns."""
    if mode == "auto" and url is not None and answers(url):
        yield RedisChoice(url, "already running; this run uses fresh ids", shared=True)
        return
    binary = shutil.which("redis-server")
    if mode == "embedded" or binary is None:
        if mode == "server":
            raise SystemExit("--redis server: redis-server is not installed")
        with _embedded(url) as choice:
            yield choice
        return
    with _redis_server(binary, url, workdir) as choice:
        yield choice
