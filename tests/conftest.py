"""Shared fixtures: a fake Redis for unit tests, the real one for integration tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import fakeredis
import pytest
import redis

from engine.store import keys
from tgbot.ops.config import bot_id
from tgbot.standin import DEFAULT_TOKEN

# Integration tests use their own database on the Redis server named by REDIS_URL, so they
# never touch the data of a bot running on the same server. Under pytest-xdist each worker
# (gw0, gw1, …) takes the next database down, so parallel tests never empty each other's.
XDIST_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
TEST_DB = int(os.environ.get("TEST_REDIS_DB", "13")) - XDIST_WORKER
if TEST_DB < 1:
    raise RuntimeError(f"TEST_REDIS_DB leaves no database for xdist worker {XDIST_WORKER}")
TESTS = Path(__file__).resolve().parent
NEED_REDIS_DIRS = (TESTS / "integration",)  # e2e and browser tests start a redis-server each


# Whole processes, browsers, a real Redis: seconds each by nature.
SLOW_DIRS = (TESTS / "e2e", TESTS / "browser", TESTS / "integration")


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, hand the tests out one at a time in the order below (`--maxschedchunk
    1`, unless asked otherwise): by default xdist first gives each process a run of a quarter of
    its share in a row, and the first process got every long test at the head of the order."""
    if getattr(config.option, "numprocesses", None) and config.option.maxschedchunk is None:
        config.option.maxschedchunk = 1


def distributed(config: pytest.Config) -> bool:
    """Whether this collection is a pytest-xdist worker's (the controller does not collect)."""
    return hasattr(config, "workerinput")


def cost_rank(item: pytest.Item) -> int:
    """The longest tests first: a browser with the whole bot behind it, the Procfile's
    processes, the long seeded playthroughs, then the Redis and RQ integration tests (a few
    seconds each), then the rest (milliseconds)."""
    if item.path.is_relative_to(TESTS / "browser"):
        return 0
    if item.path.is_relative_to(TESTS / "e2e"):
        return 1
    if item.path.is_relative_to(TESTS / "integration"):
        return 3
    return 2 if item.get_closest_marker("slow") else 4


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that take seconds `slow` (`pytest -m "not slow"` runs the rest in
    seconds) and order the run: in one process the browser tests go last (Playwright's sync
    API drives an event loop on the main thread, which other tests' `asyncio.run` must not
    meet; its fixture is per module, so the loop is gone when a module ends); under
    pytest-xdist the longest go first (`cost_rank`), so they start early and the short ones
    fill the gaps at the end. Stop at once when tests that need the Redis on REDIS_URL were
    collected and nothing answers there."""
    for item in items:
        if any(item.path.is_relative_to(directory) for directory in SLOW_DIRS):
            item.add_marker(pytest.mark.slow)
    if distributed(config):
        items.sort(key=cost_rank)
    else:
        items.sort(key=lambda item: "tests/browser/" in item.nodeid)
    if not config.option.collectonly:
        require_redis(items)


def needs_redis(item: pytest.Item) -> bool:
    """Whether a test uses the Redis server on REDIS_URL (its test database)."""
    return "real_redis" in getattr(item, "fixturenames", ()) or any(
        item.path.is_relative_to(directory) for directory in NEED_REDIS_DIRS
    )


def require_redis(items: list[pytest.Item]) -> None:
    """End the session with one short message, instead of a traceback per test."""
    needing = sum(1 for item in items if needs_redis(item))
    if not needing:
        return
    url = test_redis_url()
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
        return
    except (redis.RedisError, OSError):
        pass
    finally:
        client.close()
    pytest.exit(
        f"No Redis answers on {url}, and {needing} of the collected tests need it (the "
        "integration tests and those using the `real_redis` fixture; they use database "
        f"{TEST_DB} of the server on REDIS_URL). Start one with `redis-server --daemonize yes`, "
        "or point REDIS_URL at one, or run `bash .ci/run`, which starts one and runs the whole "
        "suite. The unit tests alone need none: `pytest tests/unit`.",
        returncode=pytest.ExitCode.USAGE_ERROR,
    )


# The stand-in's bot, named at import too: processes a test spawns import this module.
keys.use_bot(bot_id(DEFAULT_TOKEN))


@pytest.fixture(autouse=True)
def bot_keys() -> Iterator[None]:
    """Key names of the stand-in's bot, as the bot's processes name them; a test that builds
    an app for another token names that bot for its own duration."""
    keys.use_bot(bot_id(DEFAULT_TOKEN))
    yield
    keys.use_bot(bot_id(DEFAULT_TOKEN))


def test_redis_url() -> str:
    """The URL of the test database on the real Redis server."""
    base = os.environ.get("REDIS_URL", "redis://localhost:6379/0")
    head, _, _ = base.rpartition("/")
    return f"{head}/{TEST_DB}"


test_redis_url.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


@pytest.fixture
def fake_redis() -> Iterator[fakeredis.FakeRedis]:
    """A fresh in-memory Redis with Lua support."""
    client = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    yield client
    client.close()


@pytest.fixture
def real_redis() -> Iterator[redis.Redis]:
    """The real Redis server's test database, emptied before and after the test."""
    client = redis.Redis.from_url(test_redis_url())
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A redis-server process owned by a test, started and stopped at will."""

    def __init__(self, directory: Path, *extra: str) -> None:
        self.directory = directory
        self.port = free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def env(self) -> dict[str, str]:
        """How the bot's processes are told where it is."""
        return {"REDIS_URL": self.url}

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (.ci/run installs it)")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--save",
                "",
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        pytest.fail("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server_factory() -> Iterator[type[RedisServer]]:
    """Start redis-server processes of the test's own (killed at the end)."""
    servers: list[RedisServer] = []
    directory = Path(tempfile.mkdtemp(prefix="hintrigue-redis-"))

    def make(*extra: str) -> RedisServer:
        server = RedisServer(directory, *extra)
        servers.append(server)
        return server

    yield make  # type: ignore[misc]
    for server in servers:
        server.kill()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def head_parses(monkeypatch) -> list[bytes | str]:
    """The outbox entries whose heads delivery parses from now on (none kept from before)."""
    from collections import OrderedDict

    from tgbot.egress import delivery
    from tgbot.egress.outgoing import Head

    monkeypatch.setattr(delivery, "_parsed", OrderedDict())
    seen: list[bytes | str] = []
    original = Head.model_validate_json.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Head], raw: bytes | str, *args: object, **kwargs: object) -> Head:
        seen.append(raw)
        return original(cls, raw, *args, **kwargs)

    monkeypatch.setattr(Head, "model_validate_json", classmethod(counted))
    return seen
