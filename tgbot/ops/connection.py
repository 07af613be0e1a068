"""Every Redis connection of every process comes from here: REDIS_URL, or the primary that
Redis Sentinel names.

With REDIS_SENTINELS and REDIS_SENTINEL_MASTER, a client asks the Sentinels for the primary when
it connects, and again whenever a connection breaks or the server it reaches has become a
replica (a failover): redis-py's Sentinel pools follow the primary by themselves. REDIS_URL
still gives the database, the credentials and TLS; its host and port are ignored.

The RQ worker's own connection is built by RQ's command line from a settings module
(`workers.rqsettings`), which reads the same settings through `rq_settings`.
"""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio as aioredis
from redis.asyncio.sentinel import Sentinel as AsyncSentinel
from redis.connection import SSLConnection, parse_url
from redis.sentinel import Sentinel

from tgbot.ops.config import Config

# Asking a Sentinel is quick or the Sentinel is gone: try the next one soon.
SENTINEL_TIMEOUT = 1.0
# A primary that was killed refuses at once; one that vanished with its machine must not hold
# a process much longer than a failover takes.
CONNECT_TIMEOUT = 2.0


def _server_options(url: str) -> dict[str, Any]:
    """REDIS_URL's database, credentials and TLS options, without its host and port."""
    options: dict[str, Any] = parse_url(url)  # type: ignore[no-untyped-call]
    for name in ("host", "port", "path", "unix_socket_path"):
        options.pop(name, None)
    if options.pop("connection_class", None) is SSLConnection:
        options["ssl"] = True
    return options


def _sentinel_options(config: Config) -> dict[str, Any]:
    """How to reach the Sentinels themselves: REDIS_URL's TLS setting, and short timeouts."""
    options: dict[str, Any] = {"socket_timeout": SENTINEL_TIMEOUT,
                               "socket_connect_timeout": SENTINEL_TIMEOUT}  # fmt: skip
    if _server_options(config.redis_url).get("ssl"):
        options["ssl"] = True
    return options


def _client(config: Config, redis_class: Any, sentinel_class: Any, options: dict[str, Any]
            ) -> Any:  # fmt: skip
    options.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
    if not config.sentinels:
        return redis_class.from_url(config.redis_url, **options)
    sentinel = sentinel_class(list(config.sentinels), sentinel_kwargs=_sentinel_options(config))
    return sentinel.master_for(config.sentinel_master, redis_class=redis_class,
                               **{**_server_options(config.redis_url), **options})  # fmt: skip


def sync_client(config: Config, **options: Any) -> redis.Redis:
    """A Redis client for the primary, following failovers when Sentinels are configured."""
    client: redis.Redis = _client(config, redis.Redis, Sentinel, options)
    return client


def async_client(config: Config, **options: Any) -> aioredis.Redis:
    """The asyncio twin of `sync_client`, for the web process."""
    client: aioredis.Redis = _client(config, aioredis.Redis, AsyncSentinel, options)
    return client


def rq_settings(config: Config) -> dict[str, Any]:
    """The settings RQ's command line builds its connection from (`rq worker -c`)."""
    if not config.sentinels:
        return {"REDIS_URL": config.redis_url}
    server = _server_options(config.redis_url)
    extra = {k: v for k, v in server.items() if k not in ("db", "username", "password", "ssl")}
    return {
        "REDIS_URL": None,
        "SENTINEL": {
            "INSTANCES": list(config.sentinels),
            "MASTER_NAME": config.sentinel_master,
            "DB": server.get("db", 0),
            "USERNAME": server.get("username"),
            "PASSWORD": server.get("password"),
            "SSL": bool(server.get("ssl")),
            "SENTINEL_KWARGS": _sentinel_options(config),
            "CONNECTION_KWARGS": {"socket_connect_timeout": CONNECT_TIMEOUT, **extra},
        },
    }


def describe(client: redis.Redis) -> str:
    """Where a client's Redis is, for a log line (no credentials)."""
    pool = client.connection_pool
    name = getattr(pool, "service_name", None)
    if name is not None:
        sentinels = ", ".join(f"{s.connection_pool.connection_kwargs.get('host')}:"
                              f"{s.connection_pool.connection_kwargs.get('port')}"
                              for s in pool.sentinel_manager.sentinels)  # type: ignore[attr-defined]
        return f"the primary {name!r} of the Sentinels at {sentinels}"
    options = pool.connection_kwargs
    return f"{options.get('host')}:{options.get('port')}/{options.get('db', 0)}"
