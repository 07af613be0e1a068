"""`/metrics` during a game: what the web serves matches what Telegram's side saw."""

from __future__ import annotations

import json
import re

import httpx

from tests.e2e.players import play_round, seat_players, start
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import wait_for

NAMES = ["Ann", "Bob", "Cy"]


def scrape(stack: ProcStack, web: int = 0) -> dict[str, float]:
    """The samples of one web process's /metrics, by `name{labels}`."""
    port = stack.webs()[web].port
    response = httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False, timeout=5)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def total(samples: dict[str, float], prefix: str) -> float:
    """The sum of the samples of one metric, over all its labels."""
    return sum(v for k, v in samples.items() if re.fullmatch(rf"{prefix}(\{{.*\}})?", k))


def delivered(stack: ProcStack) -> int:
    """Messages the double took: sent, or edited (the final is a photo)."""
    methods = ("sendMessage", "editMessageText", "sendPhoto", "editMessageMedia",
               "editMessageCaption")  # fmt: skip
    return sum(call.ok for method in methods for call in stack.world.calls_of(method))


def test_metrics_count_what_telegram_saw_during_a_game(launch, monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")  # the processes' environment: JSON log lines
    stack = launch(timer_scale=0.05, webs=2)
    users = seat_players(stack, NAMES, "rotations=1 timers=off reveal=20")
    start(stack, users)
    play_round(stack, users, 1)

    # Mid-game: one game runs, and each web serves the bot's totals, workers' counts included.
    # A worker adds its counts to Redis once a second: they show within a second or two.
    def mid_game() -> dict[str, float] | None:
        samples = scrape(stack, 1)
        counted = (total(samples, "hintrigue_update_handling_seconds_count") > 0
                   and total(samples, "hintrigue_deliveries_total") > 0)  # fmt: skip
        running = samples['hintrigue_games_running{game="hintrigue"}'] == 1
        return samples if running and counted else None

    wait_for(mid_game, 10, "the running game and the workers' counts in /metrics")

    for number in (2, 3):
        play_round(stack, users, number)
    stack.wait_find(GROUP, "Game over")

    def settled() -> dict[str, float] | None:
        samples = scrape(stack)
        posted = stack.answers[200]
        if samples.get('hintrigue_webhook_answers_total{status="200"}') != posted:
            return None
        if total(samples, "hintrigue_deliveries_total") != delivered(stack):
            return None
        return samples

    after = wait_for(settled, 15, "the counters to match what the double saw")
    assert after['hintrigue_games_running{game="hintrigue"}'] == 0
    # Every update taken in was handled, and the inboxes and outboxes are empty.
    assert total(after, "hintrigue_updates_total") == total(
        after, "hintrigue_update_handling_seconds_count"
    )
    assert after["hintrigue_inbox_updates"] == 0
    assert after["hintrigue_outbox_messages"] == 0
    assert total(after, "hintrigue_timers_total") >= 3  # the reveals' timers, at least
    assert after["hintrigue_timer_lateness_seconds_count"] >= 3
    assert scrape(stack, 1) == after  # every web serves the same totals

    # Every process wrote JSON lines, one object per line.
    stack.stop()
    lines = [line for log in stack.log_dir.glob("*.log")
             for line in log.read_text().splitlines() if line.strip()]  # fmt: skip
    kinds = set()
    for line in lines:
        found = json.loads(line)
        assert {"time", "level", "process", "message"} <= found.keys(), line
        kinds.add(found["process"].split(".")[0])
    assert kinds == {"web", "worker", "release"}
