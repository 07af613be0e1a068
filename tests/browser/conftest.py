"""The local runner (`python -m tgbot` without a token) and headless Chromium for page tests."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import free_port
from tgbot.local.redis import answers

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@dataclass
class Runner:
    """A running `python -m tgbot` (the local runner) and what it printed."""

    process: subprocess.Popen[str]
    redis_url: str
    owns_redis: bool
    log_dir: Path
    lines: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The play page's address, as printed."""
        for line in self.lines:
            if "Play page:" in line:
                return line.split("Play page:", 1)[1].strip()
        raise AssertionError(f"no page address in {self.lines}")

    def logs(self) -> str:
        """The ends of the processes' logs, for failure reports."""
        parts = []
        for path in sorted(self.log_dir.glob("*.log")):
            tail = path.read_text(errors="replace").splitlines()[-40:]
            parts.append(f"--- {path.name}\n" + "\n".join(tail))
        return "\n".join(parts)


def start_runner(
    tmp_path: Path,
    *args: str,
    redis_url: str | None = None,
    log_dir: bool = True,
    set_redis_url: bool = True,
) -> Runner:
    """Start the runner; without `redis_url`, REDIS_URL names a port nobody answers on, so it
    starts a Redis of its own (without `set_redis_url`, REDIS_URL is not set at all). Without
    `log_dir` it picks its own log folder."""
    owns_redis = redis_url is None
    redis_url = redis_url or f"redis://127.0.0.1:{free_port()}/0"
    env = {k: v for k, v in os.environ.items()
           if k not in ("TELEGRAM_BOT_TOKEN", "RQ_QUEUE", "REDIS_URL")}  # fmt: skip
    env.update(TIMER_SCALE="1", PYTHONUNBUFFERED="1")
    if set_redis_url:
        env["REDIS_URL"] = redis_url
    logs = tmp_path / "logs"
    log_args = ["--log-dir", str(logs)] if log_dir else []
    process = subprocess.Popen(
        [sys.executable, "-m", "tgbot", "--port", "0", *log_args, *args],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    runner = Runner(process, redis_url, owns_redis, logs)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            runner.lines.append(line.rstrip("\n"))
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
            if line.strip().startswith("Logs:"):
                runner.log_dir = Path(line.split("Logs:", 1)[1].strip())
            if line.strip().startswith("Redis:"):
                runner.redis_url = line.split()[1]
            if "Ctrl-C" in line:
                return runner
        except queue.Empty:
            if process.poll() is not None:
                break
    stop_runner(runner)
    raise AssertionError("the runner did not start:\n" + "\n".join(runner.lines) + runner.logs())


def stop_runner(runner: Runner) -> int:
    """Ctrl-C the runner and wait for it; returns its exit status."""
    if runner.process.poll() is None:
        runner.process.send_signal(signal.SIGINT)
    try:
        return runner.process.wait(timeout=40)
    except subprocess.TimeoutExpired:
        runner.process.kill()
        runner.process.wait()
        raise AssertionError("the runner did not stop within 40 s") from None


def check_stopped(runner: Runner) -> None:
    """The runner exited cleanly; a Redis it started is gone, one it found still answers."""
    status = stop_runner(runner)
    assert status == 0, "\n".join(runner.lines) + runner.logs()
    assert runner.lines[-1] == f"stopped; logs kept in {runner.log_dir}", runner.lines
    assert (runner.log_dir / "web.log").is_file(), "the logs are kept"
    assert not any("Traceback" in line for line in runner.lines), runner.lines
    assert answers(runner.redis_url) != runner.owns_redis, "Redis after the run"


@pytest.fixture
def runner_factory(tmp_path: Path) -> Iterator[Callable[..., Runner]]:
    """Start runners for a test; each is stopped (Ctrl-C) and checked at the end."""
    started: list[Runner] = []

    def make(*args: str, redis_url: str | None = None, log_dir: bool = True,
             set_redis_url: bool = True) -> Runner:  # fmt: skip
        runner = start_runner(tmp_path / f"run{len(started)}", *args, redis_url=redis_url,
                              log_dir=log_dir, set_redis_url=set_redis_url)  # fmt: skip
        started.append(runner)
        return runner

    yield make
    for runner in started:
        if runner.process.returncode is None:
            check_stopped(runner)


@pytest.fixture(scope="module")  # Playwright's loop must be gone before other tests run
def chromium() -> Iterator[Any]:
    """Headless Chromium from the OS packages, driven by Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[dev]'")
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        pytest.fail("chromium is not installed (.ci/run installs it: apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Remember each phase's report on the test item, so fixtures can see a failure."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page; on failure its screenshot goes to artifacts/browser/failure-<test>.png."""
    context = chromium.new_context(viewport={"width": 1280, "height": 820})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"failure-{request.node.name}.png"))
    context.close()
    assert not errors, f"errors in the page's script: {errors}"


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
