"""Metrics a host can scrape: counted in every process, added up in Redis, served by `web`.

The bot runs any number of `web` and `worker` processes, possibly on several machines, so the
client's multiprocess mode (files in a directory shared by the processes of one machine) cannot
see them all. Each process counts in memory instead (`TALLY`) and adds what it counted to one
Redis hash about once a second (`HINCRBYFLOAT`, one round trip), so nothing is paid per update;
`web` reads that hash, and the backlogs and running games straight from Redis, whenever
`/metrics` is scraped. Every `web` serves the bot's totals: scrape one of them (or several
and take `max`, never `sum`). A process killed outright loses at most its last second of counts.

Histograms are kept as a count per bucket plus a sum, and served cumulative.
"""

from __future__ import annotations

import bisect
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

import redis
import redis.asyncio as aioredis
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector, CollectorRegistry

from engine.roomid import RoomId
from engine.store import keys

log = logging.getLogger(__name__)

PREFIX = "hintrigue_"
FLUSH_EVERY = 1.0
LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BUCKETS: dict[str, tuple[float, ...]] = {
    "update_handling_seconds": LATENCY,
    "delivery_seconds": LATENCY,
    "picture_render_seconds": LATENCY,
    "timer_lateness_seconds": (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
    "retry_after_seconds": (1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0),
}
COUNTERS: dict[str, str] = {
    "updates": "Updates taken into an inbox, by kind",
    "webhook_answers": "Answers of the webhook to Telegram, by HTTP status",
    "deliveries": "Messages Telegram took (sent or edited), by method",
    "delivery_failures": "Messages sent without their picture (a drawing failed: picture) or "
    "dropped (their delivery failed for no reason Redis or Telegram gave: message)",
    "telegram_429": "Bot API calls Telegram refused with 429 Too Many Requests",
    "rate_handovers": "Free slots at the global rate limit handed to the group that had "
    "waited longest, whose room the worker holding the slot delivered itself",
    "timers": "Timer jobs run, by what they did (fired, stale, too_early, …)",
    "ai_moves": "AI move jobs run, by what they did (played, nothing, stale, …)",
}
HISTOGRAMS: dict[str, str] = {
    "update_handling_seconds": "Time a worker took to handle one update, by outcome",
    "delivery_seconds": "Time of the Bot API call that delivered a message, by method",
    "picture_render_seconds": "Time the worker took to draw a picture before sending it",
    "timer_lateness_seconds": "How long after its deadline a timer took effect",
    "retry_after_seconds": "retry_after that Telegram asked for with a 429",
}
_SUM = ":sum"


def _field(name: str, labels: dict[str, str]) -> str:
    """`name|k=v|k=v`, labels sorted (label values never hold `|` or `=`)."""
    return "|".join([name, *(f"{k}={v}" for k, v in sorted(labels.items()))])


def _parse_field(field: str) -> tuple[str, dict[str, str]]:
    name, *pairs = field.split("|")
    return name, dict(pair.split("=", 1) for pair in pairs)


class Tally:
    """What this process counted since it last added it to Redis."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, float] = defaultdict(float)
        self._flushed = time.monotonic()

    def count(self, name: str, by: float = 1, **labels: str) -> None:
        """Add to a counter."""
        with self._lock:
            self._pending[_field(name, labels)] += by

    def observe(self, name: str, value: float, **labels: str) -> None:
        """Put one observation in a histogram."""
        bounds = BUCKETS[name]
        index = bisect.bisect_left(bounds, value)
        le = repr(bounds[index]) if index < len(bounds) else "+Inf"
        with self._lock:
            self._pending[_field(name, {**labels, "le": le})] += 1
            self._pending[_field(name + _SUM, labels)] += value

    def _take(self) -> dict[str, float]:
        with self._lock:
            taken, self._pending = self._pending, defaultdict(float)
            self._flushed = time.monotonic()
        return taken

    def _put_back(self, taken: dict[str, float]) -> None:
        with self._lock:
            for field, value in taken.items():
                self._pending[field] += value

    @property
    def due(self) -> bool:
        """Whether a second has passed since the last flush."""
        return time.monotonic() - self._flushed >= FLUSH_EVERY

    def flush(self, client: redis.Redis) -> None:
        """Add what was counted to Redis (kept for the next try when Redis does not answer)."""
        taken = self._take()
        if not taken:
            return
        try:
            pipe = client.pipeline(transaction=False)
            for field, value in taken.items():
                pipe.hincrbyfloat(keys.metrics(), field, value)
            pipe.execute()
        except redis.RedisError:
            self._put_back(taken)

    async def aflush(self, client: aioredis.Redis) -> None:
        """`flush` for the web process's asyncio client."""
        taken = self._take()
        if not taken:
            return
        try:
            async with client.pipeline(transaction=False) as pipe:
                for field, value in taken.items():
                    pipe.hincrbyfloat(keys.metrics(), field, value)
                await pipe.execute()
        except redis.RedisError:
            self._put_back(taken)


TALLY = Tally()
"""This process's counts."""


def _totals(raw: dict[Any, Any]) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """The Redis hash as {name: {labels: value}}."""
    found: dict[str, dict[tuple[tuple[str, str], ...], float]] = defaultdict(dict)
    for field, value in raw.items():
        name, labels = _parse_field(field.decode() if isinstance(field, bytes) else field)
        found[name][tuple(sorted(labels.items()))] = float(value)
    return found


def _histograms(totals: dict[str, dict[tuple[tuple[str, str], ...], float]]) -> Iterator[Metric]:
    for name, text in HISTOGRAMS.items():
        family = HistogramMetricFamily(PREFIX + name, text, labels=None)
        series: dict[tuple[tuple[str, str], ...], dict[str, float]] = defaultdict(dict)
        for labels, value in totals.get(name, {}).items():
            rest = tuple(kv for kv in labels if kv[0] != "le")
            series[rest][dict(labels)["le"]] = value
        for rest, per_bucket in sorted(series.items()):
            running, buckets = 0.0, []
            for bound in [*(repr(b) for b in BUCKETS[name]), "+Inf"]:
                running += per_bucket.get(bound, 0.0)
                buckets.append((bound, running))
            total = totals.get(name + _SUM, {}).get(rest, 0.0)
            family.add_sample(PREFIX + name + "_sum", dict(rest), total)
            for bound, count in buckets:
                family.add_sample(PREFIX + name + "_bucket", {**dict(rest), "le": bound}, count)
            family.add_sample(PREFIX + name + "_count", dict(rest), running)
        yield family


class Snapshot(Collector):
    """What `/metrics` shows, read from Redis just before."""

    def __init__(self, raw: dict[Any, Any], gauges: dict[str, tuple[str, float]],
                 running: dict[str, int]) -> None:  # fmt: skip
        self.totals = _totals(raw)
        self.gauges = gauges
        self.running = running

    def collect(self) -> Iterable[Metric]:
        for name, text in COUNTERS.items():
            family = CounterMetricFamily(PREFIX + name, text, labels=None)
            for labels, value in sorted(self.totals.get(name, {}).items()):
                family.add_sample(PREFIX + name + "_total", dict(labels), value)
            yield family
        yield from _histograms(self.totals)
        for name, (text, value) in self.gauges.items():
            yield GaugeMetricFamily(PREFIX + name, text, value=value)
        games = GaugeMetricFamily(PREFIX + "games_running", "Games being played, by game",
                                  labels=["game"])  # fmt: skip
        for game, count in sorted(self.running.items()):
            games.add_metric([game], count)
        yield games


def registry(snapshot: Snapshot) -> CollectorRegistry:
    """A registry holding one snapshot, for `generate_latest`."""
    found = CollectorRegistry(auto_describe=False)
    found.register(snapshot)
    return found


BACKLOG_LIMIT = 1000  # inboxes and outboxes looked into per scrape, the longest-waiting first


async def read_snapshot(client: aioredis.Redis, games: Iterable[str]) -> Snapshot:
    """Read the counters, the backlogs and the running `games` from Redis (two round trips)."""
    games = list(games)
    async with client.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.metrics())
        pipe.zrange(keys.pending_inboxes(), 0, BACKLOG_LIMIT - 1, withscores=True)
        pipe.zcard(keys.pending_inboxes())
        pipe.zrange(keys.pending_deliveries(), 0, BACKLOG_LIMIT - 1)
        pipe.zcard(keys.pending_deliveries())
        for game in games:
            pipe.scard(keys.running_games(game))
        pipe.time()
        raw, inboxes, inbox_count, outboxes, outbox_count, *running, now = await pipe.execute()
    async with client.pipeline(transaction=False) as pipe:
        for chat, _ in inboxes:
            pipe.llen(keys.inbox(_text(chat)))
        for chat in outboxes:
            pipe.llen(keys.outbox(RoomId.parse(_text(chat))))
        lengths = await pipe.execute()
    seconds = now[0] + now[1] / 1e6
    oldest = max((seconds - score for _, score in inboxes), default=0.0)
    gauges = {
        "inbox_updates": ("Updates waiting in inboxes for a worker", sum(lengths[:len(inboxes)])),
        "inboxes_waiting": ("Inboxes (rooms) with updates waiting", inbox_count),
        "inbox_oldest_seconds": ("Seconds the longest-waiting inbox has not moved on", oldest),
        "outbox_messages": ("Messages waiting for delivery", sum(lengths[len(inboxes):])),
        "outboxes_waiting": ("Chats with messages waiting for delivery", outbox_count),
    }
    return Snapshot(raw, gauges, {game: int(n) for game, n in zip(games, running, strict=True)})


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
