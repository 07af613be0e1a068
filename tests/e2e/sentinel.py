"""A Redis that fails over: a primary, its replica and three Sentinels, each its own process."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from redis.sentinel import Sentinel

from tests.conftest import RedisServer, free_port
from tests.harness import wait_for

MASTER = "hintrigue"
SENTINELS = 3
DOWN_AFTER_MS = 1000  # how long the primary must not answer before the Sentinels agree it is down


class SentinelRedis:
    """A primary, one replica and three Sentinels (quorum 2) on ports chosen now."""

    def __init__(self, server: Callable[..., RedisServer], directory: Path) -> None:
        self.primary = server("--repl-diskless-sync-delay", "0")  # sync the replica at once
        self.replica = server("--replicaof", "127.0.0.1", str(self.primary.port))
        self.directory = directory
        self.ports = [free_port() for _ in range(SENTINELS)]
        self.sentinels: list[subprocess.Popen[bytes]] = []

    @property
    def env(self) -> dict[str, str]:
        """What the bot's processes are given: the Sentinels, and a REDIS_URL whose host
        nothing listens on (only its database is used)."""
        return {
            "REDIS_SENTINELS": ",".join(f"127.0.0.1:{port}" for port in self.ports),
            "REDIS_SENTINEL_MASTER": MASTER,
            "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
        }

    @property
    def url(self) -> str:
        """The URL of the primary the Sentinels name now."""
        host, port = self.sentinel().discover_master(MASTER)
        return f"redis://{host}:{port}/0"

    def sentinel(self) -> Sentinel:
        return Sentinel([("127.0.0.1", port) for port in self.ports], socket_timeout=1)

    def start(self) -> None:
        """Start the primary and the replica, then the Sentinels; wait until they all know
        each other."""
        self.primary.start()
        self.replica.start()
        replica = redis.Redis(port=self.replica.port)
        wait_for(lambda: replica.info("replication").get("master_link_status") == "up", 20,
                 "the replica to sync")  # fmt: skip
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed")
        for port in self.ports:
            conf = self.directory / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.directory}\n"
                f"sentinel monitor {MASTER} 127.0.0.1 {self.primary.port} 2\n"
                f"sentinel down-after-milliseconds {MASTER} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {MASTER} 10000\n"
            )
            self.sentinels.append(subprocess.Popen([binary, str(conf), "--sentinel"],
                                                   stdout=subprocess.DEVNULL,
                                                   stderr=subprocess.DEVNULL))  # fmt: skip

        def acquainted() -> bool:
            for port in self.ports:
                try:
                    state = redis.Redis(port=port).sentinel_master(MASTER)
                except redis.RedisError:
                    return False
                if state["num-slaves"] < 1 or state["num-other-sentinels"] < SENTINELS - 1:
                    return False
            return True

        wait_for(acquainted, 30, "the Sentinels to know the replica and each other")

    def kill_primary(self) -> int:
        """Kill the primary outright (SIGKILL); returns the port it was on."""
        port = self.primary.port
        self.primary.kill()
        return port

    def promoted(self, old_port: int) -> bool:
        """Whether the Sentinels name another primary than the one on `old_port`, and it
        takes writes."""
        try:
            host, port = self.sentinel().discover_master(MASTER)
            if port == old_port:
                return False
            return bool(redis.Redis(host=host, port=port).set("failover:probe", 1))
        except redis.RedisError:
            return False

    def kill(self) -> None:
        for process in self.sentinels:
            process.kill()
            process.wait()
        self.sentinels.clear()
        self.primary.kill()
        self.replica.kill()
