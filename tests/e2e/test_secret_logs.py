"""No line any Procfile process writes holds a secret, in text and in JSON lines: through an AI
game (the AI's model library configures logging of its own), Telegram's 429 and 400, an error
page that echoes the request path, and a `getMe` refused with 401 (a revoked token) or 404 (a
wrong TELEGRAM_API_URL path), with the worker's and RQ's failure lines and the release step's
crash."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from rq import Queue
from rq.job import JobStatus

from engine.games.hintrigue.model import round_of
from tests.conftest import RedisServer
from tests.e2e.players import give_hint, play_decoy, seat_players, start, table
from tests.e2e.procs import GROUP, QUEUE, Proc, ProcStack, start_stack
from tests.harness import SECRET, button, wait_for
from tgbot.ops.config import Config

# Bots whose getMe is refused: another bot id each, so their sweepers leave the stack's keys be.
REVOKED = "700000001:AAE-revoked_TokenOfAnotherKind-0123456"
MISPLACED = "700000002:AAF-misplaced_TokenBehindAWrongPath-99"


def secrets(stack: ProcStack) -> set[str]:
    """Every secret of every process the stack ran, each also as its URL-encoded form."""
    found: set[str] = {SECRET}
    for token in (stack.world.token, REVOKED, MISPLACED):
        config = Config(token=token, webhook_secret=SECRET)
        found |= {token, token.partition(":")[2], config.signing_key.decode(),
                  Config(token=token).secret}  # fmt: skip
    return found | {quote(s, safe="") for s in found}


def logs(stack: ProcStack, since: dict[str, int] | None = None) -> dict[str, str]:
    """What each process wrote (after `since`, where each log ended before)."""
    since = since or {}
    return {path.name: path.read_text(errors="replace")[since.get(path.name, 0):]
            for path in stack.log_dir.glob("*.log")}  # fmt: skip


def assert_no_secret(stack: ProcStack, since: dict[str, int] | None = None) -> None:
    """No log holds a secret; with LOG_FORMAT=json, every line is a JSON object."""
    json_lines = stack.extra_env.get("LOG_FORMAT") == "json"
    written = logs(stack, since)
    assert written
    for name, text in written.items():
        for secret in secrets(stack):
            assert secret not in text, f"{name} holds a secret: {text[-3000:]}"
        if json_lines:
            for line in text.splitlines():
                if line.strip():
                    assert isinstance(json.loads(line), dict), f"{name}: {line}"


def in_logs(stack: ProcStack, *parts: str) -> bool:
    """Whether one line of one process's log holds all `parts`."""
    return any(all(p in line for p in parts) for text in logs(stack).values()
               for line in text.splitlines())  # fmt: skip


@pytest.fixture
def since(stack: ProcStack) -> dict[str, int]:
    """Where each log ended when the test began: what a test checks is what it made written."""
    return {name: len(text) for name, text in logs(stack).items()}


@pytest.fixture(scope="module", params=["text", "json"])
def stack(request: Any, tmp_path_factory: Any) -> Iterator[ProcStack]:
    """One stack per log format, shared by the module's tests."""
    directory: Path = tmp_path_factory.mktemp(f"logs-{request.param}")
    server = RedisServer(directory)
    running = start_stack(server, directory, timer_scale=0.05,
                          env={"LOG_FORMAT": request.param})  # fmt: skip
    yield running
    running.stop()
    running.double.stop()
    server.kill()


def test_an_ai_game_logs_no_secret(stack):
    [ann] = seat_players(stack, ["Ann"], "rotations=1 timers=off")
    for seated in ("🤖 Iris", "🤖 Otto"):
        lobby = stack.wait_find(GROUP, "a new game is open")
        assert stack.press(ann, lobby, button(lobby, "Add AI")) == "An AI player took a seat."
        wait_for(lambda s=seated: s in stack.find(GROUP, "a new game is open").plain_text, 20,
                 f"{seated} in the lobby")  # fmt: skip
    start(stack, [ann])
    room = wait_for(lambda: round_of(r := stack.room()) is not None and r, 30, "round 1")
    if room.seats[round_of(room).storyteller].user_id == ann:
        give_hint(stack, [ann], 1)  # the AI seats play their decoys
    else:
        play_decoy(stack, ann, 1)  # after an AI seat's hint
    table(stack, 1)
    assert_no_secret(stack)


def test_telegrams_refusals_and_an_error_page_echoing_the_path_log_no_secret(stack, since):
    world = stack.world
    world.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
    world.fail_next("sendMessage", 400, "Bad Request: chat not found")
    world.fail_next("sendMessage", 502, "Bad Gateway", page=True)
    bea = world.add_user(first_name="Bea", username="bea").id
    for _ in range(3):
        assert stack.deliver(world.start_private(bea)) == 200
    wait_for(lambda: not world.failures, 30, "the injected failures")
    wait_for(lambda: in_logs(stack, "network error, retrying", "[redacted]"), 20,
             "the error page's warning, masked")  # fmt: skip
    assert in_logs(stack, "Telegram asks to wait") and in_logs(stack, "refused: Chat not found")
    assert_no_secret(stack, since)


def test_a_refused_get_me_logs_no_secret(stack, since):
    refused = {
        "revoked": {"TELEGRAM_BOT_TOKEN": REVOKED, "RQ_QUEUE": f"{QUEUE}-revoked"},
        "misplaced": {"TELEGRAM_BOT_TOKEN": MISPLACED, "RQ_QUEUE": f"{QUEUE}-misplaced",
                      "TELEGRAM_API_URL": f"{stack.double.url}/no/such/path"},
    }  # fmt: skip
    jobs = []
    for env in refused.values():
        release = stack.spawn("release", WEBHOOK_URL="http://127.0.0.1:9/webhook", **env)
        assert release.wait(timeout=60) != 0
        stack.procs.append(Proc("worker", stack.spawn("worker", **env)))
        # A job of its queue fails too: RQ logs the failure with its traceback, and keeps it.
        queue = Queue(env["RQ_QUEUE"], connection=stack.client)
        jobs.append(queue.enqueue("workers.jobs.flush", "-1009", 0))
    # RQ logs a job's failure before it marks the job failed.
    wait_for(lambda: all(j.get_status(refresh=True) == JobStatus.FAILED for j in jobs)
             and logs_count(stack, "tending failed", since) >= 2, 60,
             "the refused workers' failures")  # fmt: skip
    assert logs_count(stack, "exception raised while executing (workers.jobs.flush)", since) == 2
    assert in_logs(stack, "InvalidToken")
    assert_no_secret(stack, since)
    for job in jobs:
        kept = job.latest_result()
        assert kept is not None and "InvalidToken" in (kept.exc_string or "")
        assert not any(secret in kept.exc_string for secret in secrets(stack))


def logs_count(stack: ProcStack, part: str, since: dict[str, int] | None = None) -> int:
    """How many times the logs hold `part` (after `since`)."""
    return sum(text.count(part) for text in logs(stack, since).values())
