"""Lua scripts registered once per Redis client (`engine.store.scripts`)."""

from __future__ import annotations

import gc
import weakref

import fakeredis

from engine.store import scripts

SOURCE = "return ARGV[1] .. redis.call('GET', KEYS[1])"


def test_a_script_is_registered_once_per_client_and_runs_on_it() -> None:
    first, second = fakeredis.FakeRedis(), fakeredis.FakeRedis()
    first.set("k", "1")
    once = scripts.script(first, SOURCE)
    assert scripts.script(first, SOURCE) is once
    assert once(keys=["k"], args=["x"]) == b"x1"
    other = scripts.script(second, SOURCE)
    assert other is not once and other.registered_client is second


def test_a_client_gone_takes_its_scripts_with_it() -> None:
    client = fakeredis.FakeRedis()
    gone = weakref.ref(scripts.script(client, SOURCE))
    del client
    gc.collect()
    assert gone() is None
