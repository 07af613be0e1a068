"""With a replica, an update is answered 200 and a command committed only once the replica has
it (WAIT); a replica that does not confirm in time makes the webhook answer 503 and the commit
fail, so Telegram, or the worker, tries again.

A primary and a replica of the test's own; the replica is frozen (SIGSTOP) to stop confirming:
the primary still counts it as connected, as it would a replica on a slow network.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
import redis

from engine.commands import Join, OpenLobby
from engine.games.registry import GAMES
from engine.store import Store, keys
from engine.store.replicas import NotReplicated, Replicas
from tests.conftest import RedisServer
from tests.harness import wait_for
from tgbot.ingress.web import SECRET_HEADER, create_app
from tgbot.ops.config import Config
from tgbot.standin import World, serve_app

SECRET = "s3cret-token_ok"
GROUP = -100778
WAIT_MS = 300


@pytest.fixture
def replicated(redis_server_factory) -> Iterator[tuple[RedisServer, RedisServer]]:
    primary = redis_server_factory("--repl-diskless-sync-delay", "0")  # sync the replica at once
    primary.start()
    replica = redis_server_factory("--replicaof", "127.0.0.1", str(primary.port))
    replica.start()
    confirming(primary)
    yield primary, replica


def confirming(primary: RedisServer) -> None:
    """Wait until the primary's replica confirms writes."""
    probe = redis.Redis.from_url(primary.url)
    wait_for(lambda: probe.set("probe", 1) and probe.wait(1, 100) == 1, 20,
             "the replica to confirm writes")  # fmt: skip


@contextmanager
def frozen(replica: RedisServer, primary: RedisServer) -> Iterator[None]:
    """The replica stops (it confirms nothing), then goes on and catches up."""
    assert replica.process is not None
    os.kill(replica.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(replica.process.pid, signal.SIGCONT)
    confirming(primary)


def test_the_webhook_answers_200_once_the_replica_has_the_update_else_503(replicated):
    primary, replica = replicated
    world = World()
    world.add_chat(GROUP, "supergroup", title="G")
    user = world.add_user(first_name="Ann").id
    config = Config(token="1:x", webhook_secret=SECRET, redis_url=primary.url, queue="wait",
                    replica_wait_ms=WAIT_MS)  # fmt: skip
    with serve_app(create_app(config), lifespan="on") as url:

        def post(update: dict) -> int:
            return httpx.post(f"{url}/webhook", content=json.dumps(update).encode(),
                              headers={SECRET_HEADER: SECRET}).status_code  # fmt: skip

        first = world.user_message(user, GROUP, "/newgame")
        assert post(first) == 200
        on_replica = redis.Redis(port=replica.port)
        assert on_replica.llen(keys.inbox(GROUP)) == 1  # there the moment the 200 left
        late = world.user_message(user, GROUP, "/help")
        with frozen(replica, primary):
            assert post(late) == 503
            assert post(late) == 503  # repeated: taken in already, still not confirmed
        assert post(late) == 200  # Telegram's next try
        assert on_replica.llen(keys.inbox(GROUP)) == 2


def test_a_commit_the_replica_does_not_confirm_fails_and_is_applied_once_when_repeated(
    replicated,
):
    primary, replica = replicated
    store = Store(redis.Redis.from_url(primary.url), GAMES, replicas=Replicas(WAIT_MS))
    command = OpenLobby(user_id=7, name="Ann", title="G", chat_id=GROUP, seed=1)
    with frozen(replica, primary), pytest.raises(NotReplicated):
        store.execute(GROUP, command, update_id=41, now=1000.0)
    outcome = store.execute(GROUP, command, update_id=41, now=1000.0)
    assert outcome.duplicate  # it was applied on the primary: once is enough
    joined = store.execute(GROUP, Join(user_id=8, name="Bob"), update_id=42, now=1000.0)
    assert not joined.duplicate
    room = Store(redis.Redis(port=replica.port), GAMES).load(GROUP)
    assert room is not None and room.version == store.load(GROUP).version


def test_without_a_replica_nothing_waits(redis_server_factory):
    server = redis_server_factory()
    server.start()
    replicas = Replicas(WAIT_MS)
    assert not replicas.refresh(redis.Redis.from_url(server.url))
