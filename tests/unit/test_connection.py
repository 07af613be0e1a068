"""Where every process finds Redis: REDIS_URL, or the primary the Sentinels name."""

from __future__ import annotations

import pytest
from redis.sentinel import SentinelConnectionPool

from tgbot.ops.config import from_env, parse_sentinels
from tgbot.ops.connection import describe, rq_settings, sync_client

TOKEN = "123:abc"
SENTINELS = "s1.internal:26379, s2.internal:26380,s3.internal"


def test_sentinels_are_host_port_pairs_26379_by_default():
    assert parse_sentinels(SENTINELS) == (
        ("s1.internal", 26379),
        ("s2.internal", 26380),
        ("s3.internal", 26379),
    )
    assert parse_sentinels("") == ()
    with pytest.raises(SystemExit):
        parse_sentinels("s1:port")


def test_sentinels_need_the_name_of_the_primary():
    with pytest.raises(SystemExit, match="REDIS_SENTINEL_MASTER"):
        from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_SENTINELS": SENTINELS})


def test_with_redis_url_alone_everything_connects_there_as_before():
    config = from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_URL": "redis://h:7000/3"})
    assert rq_settings(config) == {"REDIS_URL": "redis://h:7000/3"}
    assert describe(sync_client(config)) == "h:7000/3"


def test_with_sentinels_the_primary_is_asked_for_by_name_with_redis_urls_database_and_password():
    config = from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_SENTINELS": SENTINELS,
                       "REDIS_SENTINEL_MASTER": "hintrigue",
                       "REDIS_URL": "redis://:pw@ignored:1/2"})  # fmt: skip
    client = sync_client(config)
    pool = client.connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "hintrigue"
    assert pool.connection_kwargs["db"] == 2 and pool.connection_kwargs["password"] == "pw"
    assert "host" not in pool.connection_kwargs
    assert "s2.internal:26380" in describe(client)
    settings = rq_settings(config)
    assert settings["REDIS_URL"] is None
    sentinel = settings["SENTINEL"]
    assert sentinel["INSTANCES"] == list(config.sentinels)
    assert (sentinel["MASTER_NAME"], sentinel["DB"], sentinel["PASSWORD"]) == ("hintrigue", 2, "pw")
