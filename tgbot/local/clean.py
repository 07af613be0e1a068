"""What a local run wrote to a Redis it shares, removed when the run stops.

A run on a Redis it found (`RedisChoice.shared`) plays with fresh chat, user and update ids
and an RQ queue of its own. Once its processes have stopped, `clean_run` deletes every key that
names one of those ids or the queue, the RQ jobs of the queue, the bot's username and its
workers' records, and takes the run's chats out of the sweepers' sorted sets. Keys are matched
by the ids they contain rather than by a list of key names, so a key added or renamed later
goes too. Nothing else in the database is touched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import redis

from tgbot.standin import World

_NUMBER = re.compile(r"-?\d+")
_SEGMENT = re.compile(r"[:{}]")
SWEEP_PREFIX = ":sweep:"  # the sweepers' sorted sets (`engine.store.keys.pending_*`), by chat id
RUNNING_PREFIX = ":running:"  # the sets of running games (`engine.store.keys.running_games`)
METRICS_SUFFIX = ":metrics"  # the bot's counters (`engine.store.keys.metrics`)
RQ_JOB_PREFIX = "rq:job:"
RQ_WORKER_PREFIX = "rq:worker:"
RQ_WORKERS = "rq:workers"
RQ_QUEUES = "rq:queues"


@dataclass(frozen=True)
class RunIds:
    """The ids one local run used: its chats (groups and private chats), users, updates,
    RQ queue and bot."""

    chats: frozenset[int]
    users: frozenset[int]
    updates: frozenset[int]
    queue: str
    bot_id: int

    @classmethod
    def of(cls, world: World, queue: str) -> RunIds:
        """Everything the stand-in's world knows, players added on the page included."""
        with world.lock:
            users = frozenset(world.users)
            return cls(
                chats=frozenset(world.chats) | users,  # a private chat's id is the user's
                users=users,
                updates=frozenset(int(u["update_id"]) for u in world.updates),
                queue=queue,
                bot_id=world.bot.id,
            )

    def names(self, key: str) -> bool:
        """Whether a key names a chat, user or update of the run, or its queue."""
        numbers = {int(n) for n in _NUMBER.findall(key)}
        if numbers & (self.chats | self.users | self.updates):
            return True
        if self.queue in _SEGMENT.split(key):
            return True
        if key == f"b{self.bot_id}{METRICS_SUFFIX}":  # the counts of the run's bot
            return True
        bot_key = key.startswith("bot:") or ":bot:" in key  # b<id>:bot:username, or of old
        return bot_key and ("username" in key or self.bot_id in numbers)


def _text(value: bytes | str | None) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else (value or "")


def _types(client: redis.Redis, names: list[str]) -> dict[str, str]:
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.type(name)
    return {name: _text(kind) for name, kind in zip(names, pipe.execute(), strict=True)}


def _fields(client: redis.Redis, names: Iterable[str], field: str) -> dict[str, str]:
    names = list(names)
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.hget(name, field)
    return {name: _text(value) for name, value in zip(names, pipe.execute(), strict=True)}


def clean_run(client: redis.Redis, run: RunIds) -> int:
    """Delete what the run wrote; returns how many keys went. Call it once the run's web and
    worker processes have stopped, so that nothing writes behind it."""
    found = [_text(key) for key in client.scan_iter(count=1000)]
    doomed = {key for key in found if run.names(key)}
    kinds = _types(client, [k for k in found if k.startswith((RQ_JOB_PREFIX, RQ_WORKER_PREFIX))
                            or SWEEP_PREFIX in f":{k}" or RUNNING_PREFIX in k])  # fmt: skip
    hashes = [key for key, kind in kinds.items() if kind == "hash"]
    # RQ jobs of the run's queue (ids such as UUIDs name no chat) and what hangs off them:
    # `rq:results:<id>`, `rq:executions:<id>`, `rq:job:<id>:dependents` …
    origins = _fields(client, (k for k in hashes if k.startswith(RQ_JOB_PREFIX)), "origin")
    jobs = {key[len(RQ_JOB_PREFIX) :] for key, origin in origins.items() if origin == run.queue}
    doomed |= {key for key in found if jobs & set(key.split(":"))}
    # Workers listening on the run's queue (a worker that stopped cleanly has gone already).
    queues = _fields(client, (k for k in hashes if k.startswith(RQ_WORKER_PREFIX)), "queues")
    workers = [key for key, names in queues.items() if run.queue in names.split(",")]
    doomed |= set(workers)
    pipe = client.pipeline(transaction=False)
    for key in sorted(doomed):
        pipe.delete(key)
    if workers:
        pipe.srem(RQ_WORKERS, *workers)
    pipe.srem(RQ_QUEUES, f"rq:queue:{run.queue}")
    sweeps = [key for key, kind in kinds.items() if kind == "zset" and key not in doomed]
    running = [key for key, kind in kinds.items() if kind == "set" and key not in doomed]
    members = [str(chat) for chat in sorted(run.chats)]
    for key in sweeps:
        if members:
            pipe.zrem(key, *members)
    for key in running:
        if members:
            pipe.srem(key, *members)
    results = pipe.execute()
    return sum(int(n) for n in results[: len(doomed)])
