"""The fixture most integration tests play on (a module may define its own `stack`)."""

from __future__ import annotations

import pytest

from tests.conftest import test_redis_url
from tests.harness import running_stack


@pytest.fixture
def stack(real_redis, tmp_path):
    """The bot, its worker and the stand-in Bot API on the test database."""
    with running_stack(test_redis_url(), tmp_path) as running:
        yield running
