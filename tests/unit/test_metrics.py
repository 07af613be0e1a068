"""Metrics: counts of several processes added up in Redis, served in Prometheus's format."""

from __future__ import annotations

import asyncio

import fakeredis
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from engine.games.registry import DEFAULT_GAME as GAME
from engine.games.registry import GAMES
from engine.store import keys
from tgbot.ops.metrics import Tally, read_snapshot, registry


def served(server: fakeredis.FakeServer) -> dict[str, float]:
    """What /metrics would show, by `name{labels}` (labels sorted)."""
    client = fakeredis.aioredis.FakeRedis(server=server)
    text = generate_latest(registry(asyncio.run(read_snapshot(client, GAMES)))).decode()
    return {
        sample.name + "{" + ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items())) + "}":
        sample.value
        for family in text_string_to_metric_families(text) for sample in family.samples
    }  # fmt: skip


def test_the_counts_of_two_processes_add_up_and_histograms_are_cumulative():
    server = fakeredis.FakeServer()
    client = fakeredis.FakeRedis(server=server)
    web, worker = Tally(), Tally()
    web.count("updates", kind="message")
    web.count("updates", kind="message")
    web.count("webhook_answers", status="403")
    worker.observe("update_handling_seconds", 0.003, outcome="done")
    worker.observe("update_handling_seconds", 0.2, outcome="done")
    worker.observe("update_handling_seconds", 99, outcome="done")
    web.flush(client)
    worker.flush(client)
    worker.flush(client)  # nothing new: adds nothing
    found = served(server)
    assert found["hintrigue_updates_total{kind=message}"] == 2
    assert found["hintrigue_webhook_answers_total{status=403}"] == 1
    handled = "hintrigue_update_handling_seconds"
    assert found[f"{handled}_bucket{{le=0.005,outcome=done}}"] == 1
    assert found[f"{handled}_bucket{{le=0.25,outcome=done}}"] == 2
    assert found[f"{handled}_bucket{{le=10.0,outcome=done}}"] == 2
    assert found[f"{handled}_bucket{{le=+Inf,outcome=done}}"] == 3
    assert found[f"{handled}_count{{outcome=done}}"] == 3
    assert abs(found[f"{handled}_sum{{outcome=done}}"] - 99.203) < 1e-9


def test_backlogs_and_running_games_are_read_from_redis():
    server = fakeredis.FakeServer()
    client = fakeredis.FakeRedis(server=server)
    now = client.time()[0]
    client.rpush(keys.inbox(-1), b"a", b"b", b"c")
    client.zadd(keys.pending_inboxes(), {"-1": now - 30})
    client.rpush(keys.outbox(-2), b"m")
    client.zadd(keys.pending_deliveries(), {"-2": now})
    client.sadd(keys.running_games(GAME), -1, -3)
    found = served(server)
    assert found["hintrigue_inbox_updates{}"] == 3
    assert 29 <= found["hintrigue_inbox_oldest_seconds{}"] < 40
    assert found["hintrigue_outbox_messages{}"] == 1
    assert found["hintrigue_games_running{game=hintrigue}"] == 2


def test_counts_stay_for_the_next_flush_while_redis_does_not_answer():
    tally = Tally()
    tally.count("telegram_429")
    away = fakeredis.FakeServer()
    away.connected = False
    tally.flush(fakeredis.FakeRedis(server=away))
    server = fakeredis.FakeServer()
    tally.flush(fakeredis.FakeRedis(server=server))
    assert served(server)["hintrigue_telegram_429_total{}"] == 1
