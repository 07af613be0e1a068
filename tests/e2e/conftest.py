"""Fixtures of the end-to-end suite: the Procfile's processes against a redis-server of their own.

A redis-server of the test's own (not the shared test database) lets these tests run beside any
other test run on the same machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.procs import ProcStack, start_stack


@pytest.fixture
def launch(redis_server_factory: Any, tmp_path: Path) -> Iterator[Callable[..., ProcStack]]:
    """Start a stack: `launch(timer_scale=…, webs=…, workers=…, redis_args=…)`; stopped after
    the test."""
    started: list[ProcStack] = []

    def make(redis_args: tuple[str, ...] = (), **options: Any) -> ProcStack:
        stack = start_stack(redis_server_factory(*redis_args), tmp_path, **options)
        started.append(stack)
        return stack

    yield make
    for stack in started:
        stack.stop()
        stack.double.stop()
