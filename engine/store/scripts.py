"""Lua scripts registered once per Redis client: redis-py's `register_script` hashes the
script's source each time it is called, which functions called per update did."""

from __future__ import annotations

import redis
from redis.commands.core import Script

_ATTRIBUTE = "_registered_scripts"  # kept on the client: they go when it goes


def script(client: redis.Redis, source: str) -> Script:
    """`source` registered with `client`, once."""
    kept: dict[str, Script] | None = getattr(client, _ATTRIBUTE, None)
    if kept is None:
        kept = {}
        setattr(client, _ATTRIBUTE, kept)
    found = kept.get(source)
    if found is None:
        found = kept[source] = client.register_script(source)
    return found
