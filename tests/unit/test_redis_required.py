"""Without a Redis, the tests that need one stop the session at once with a short message;
the unit tests still run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


def pytest_without_redis(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_integration_tests_without_redis_stop_early_saying_how_to_start_one() -> None:
    done = pytest_without_redis(
        "tests/integration/test_devclean.py", "tests/unit/hintrigue/test_scoring.py"
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "No Redis answers on redis://127.0.0.1:" in output, output
    assert "redis-server --daemonize yes" in output and "bash .ci/run" in output, output
    assert "Traceback" not in output and "passed" not in output, output
    assert len(output.splitlines()) < 15, output


def test_unit_tests_run_without_redis() -> None:
    done = pytest_without_redis("tests/unit/hintrigue/test_scoring.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No Redis answers" not in done.stdout
