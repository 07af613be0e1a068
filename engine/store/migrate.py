"""Moving a bot's keys to names that carry its id (they had none before): run by `release`.

Idempotent: a key is moved only when the new name is free (a sorted set the workers already
wrote under the new name takes the old one's members). Moving a room moves all of its keys,
inbox and outbox included, so a game running during the deploy goes on; its overdue timer and
its waiting deliveries are picked up by the workers' sweeper, whose sets move too.
"""

from __future__ import annotations

import logging

import redis

from engine.store import keys

log = logging.getLogger(__name__)

PER_ROOM = "{room:"  # every key of a room starts with its hash tag
PER_USER = ("player:", "stats:user:", "started:")
SINGLE = ("bot:username",)
SORTED_SETS = ("sweep:timers", "sweep:deliveries", "sweep:inboxes")


def _text(key: bytes | str) -> str:
    return key.decode() if isinstance(key, bytes) else key


def migrate_keys(client: redis.Redis) -> int:
    """Move the keys named before names carried the bot's id; returns how many moved."""
    prefix = keys.namespace()
    if not prefix:
        return 0
    moved = 0
    old_names = [PER_ROOM + "*", *(p + "*" for p in PER_USER)]
    for pattern in old_names:
        for raw in client.scan_iter(match=pattern, count=1000):
            old = _text(raw)
            new = "{" + prefix + old[1:] if old.startswith("{") else prefix + old
            moved += bool(client.renamenx(old, new))
    for old in SINGLE:
        if client.exists(old):
            moved += bool(client.renamenx(old, prefix + old))
    for old in SORTED_SETS:
        if client.exists(old):
            pipe = client.pipeline(transaction=True)
            pipe.zunionstore(prefix + old, [prefix + old, old], aggregate="MIN")
            pipe.delete(old)
            pipe.execute()
            moved += 1
    if moved:
        log.info("moved %d keys to names carrying the bot's id (%s)", moved, prefix)
    return moved
