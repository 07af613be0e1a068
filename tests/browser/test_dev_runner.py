"""The local runner's Redis choices, driven through the stand-in's control API (no browser)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.browser.conftest import Runner, check_stopped
from tests.conftest import test_redis_url

View = dict[str, Any]


def view(runner: Runner) -> View:
    return httpx.get(runner.url + "_standin/view", timeout=5, trust_env=False).json()


def post(runner: Runner, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(runner.url + "_standin/" + path, json=body, timeout=30, trust_env=False)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    assert data.get("delivery", {}).get("ok", True), data
    return data


def wait(runner: Runner, found: Callable[[View], Any], what: str, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = found(view(runner))
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}:\n{runner.logs()}")


def chat(state: View, chat_id: int) -> dict[str, Any]:
    return next((c for c in state["chats"] if c["id"] == chat_id), {"messages": []})


def bot_says(chat_id: int, text: str) -> Callable[[View], dict[str, Any] | None]:
    def find(state: View) -> dict[str, Any] | None:
        found = [m for m in chat(state, chat_id)["messages"]
                 if m["from_user_id"] is None and text in m["text"]]  # fmt: skip
        return found[-1] if found else None

    return find


def open_lobby_and_join(runner: Runner) -> None:
    """The first player opens a lobby; the second presses Join, follows the link and joins."""
    state = view(runner)
    group = next(c["id"] for c in state["chats"] if c["type"] == "supergroup")
    ann, bob = (u["id"] for u in state["users"][:2])
    wait(runner, bot_says(group, "I run Hintrigue"), "the introduction")
    post(runner, "send", {"user_id": ann, "chat_id": group, "text": "/newgame"})
    lobby = wait(runner, bot_says(group, "a new game is open"), "the lobby")
    join = next(b for row in lobby["keyboard"] for b in row if b["text"] == "Join")
    pressed = post(runner, "press", {"user_id": bob, "chat_id": group,
                                     "message_id": lobby["message_id"],
                                     "data": join["callback_data"]})  # fmt: skip
    query = pressed["update"]["callback_query"]["id"]
    answer = wait(runner, lambda s: next((a for a in s["answers"] if a["id"] == query), None),
                  "the answer to Join")  # fmt: skip
    assert answer["url"] == f"https://t.me/{state['bot']['username']}?start=j{group}"
    post(runner, "start", {"user_id": bob, "payload": f"j{group}"})
    wait(runner, bot_says(bob, "You joined the game"), "Bob's welcome")
    wait(runner, bot_says(group, "• Bob"), "Bob in the lobby")


def test_the_runner_falls_back_to_an_embedded_redis(runner_factory: Any) -> None:
    runner = runner_factory("--redis", "embedded", "--limits", "relaxed")
    assert any("embedded fakeredis" in line for line in runner.lines), runner.lines
    open_lobby_and_join(runner)  # the web process and a worker, on fakeredis (Lua included)


def test_the_runner_shares_a_running_redis_without_stale_state(
    runner_factory: Any, real_redis: Any
) -> None:
    url = test_redis_url()
    first = runner_factory("--limits", "relaxed", redis_url=url)
    assert any("already running" in line for line in first.lines), first.lines
    open_lobby_and_join(first)
    check_stopped(first)  # the Redis it found still answers, with the first run's game in it
    second = runner_factory("--limits", "relaxed", redis_url=url)
    open_lobby_and_join(second)  # a fresh group, fresh players, fresh update ids
