"""The local runner as a process: its Redis choices, driven through the stand-in's control API
(no browser), and how it stops."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

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


def run_ids(runner: Runner) -> set[str]:
    """The chat, user and update ids of a run, and its queue (as the worker was told)."""
    state = view(runner)
    ids = {str(c["id"]) for c in state["chats"]} | {str(u["id"]) for u in state["users"]}
    worker = next(pid for pid, line in descendants(runner.process.pid).items()
                  if "rq worker" in line)  # fmt: skip
    environ = Path(f"/proc/{worker}/environ").read_bytes().split(b"\0")
    queue = next(v[9:].decode() for v in environ if v.startswith(b"RQ_QUEUE="))
    return ids | {queue}


def test_the_runner_shares_a_running_redis_without_stale_state(
    runner_factory: Any, real_redis: Any
) -> None:
    url = test_redis_url()
    real_redis.set("unrelated", "kept")  # another program's data in the same database
    first = runner_factory("--limits", "relaxed", redis_url=url)
    assert any("already running" in line for line in first.lines), first.lines
    open_lobby_and_join(first)
    ids = run_ids(first)
    assert len([k for k in real_redis.scan_iter() if k != b"unrelated"]) > 10, "the game's keys"
    check_stopped(first)  # the Redis it found still answers, with nothing of the run left
    assert real_redis.get("unrelated") == b"kept"
    left = [key.decode() for key in real_redis.scan_iter() if key != b"unrelated"]
    named = [k for k in left if set(re.split(r"[:{}_]", k)) & ids]
    assert not named, f"keys of the run left behind: {named}"
    lasting = [k for k in left if real_redis.ttl(k) < 0]
    assert not lasting, f"keys left without an expiry: {lasting}"
    second = runner_factory("--limits", "relaxed", redis_url=url)
    open_lobby_and_join(second)  # a fresh group, fresh players, fresh update ids


def test_without_redis_url_the_runner_never_uses_the_default_redis(runner_factory: Any) -> None:
    """`localhost:6379/0` is where a production bot's data lives by default: a run without
    REDIS_URL starts its own Redis on a port of its own, even when one answers there."""
    runner = runner_factory("--limits", "relaxed", set_redis_url=False)
    line = next(line for line in runner.lines if line.strip().startswith("Redis:"))
    assert "started by this run" in line, runner.lines
    assert ":6379/" not in runner.redis_url, runner.redis_url
    open_lobby_and_join(runner)


def test_quick_timers_start_the_lobby_with_a_minute_to_join(runner_factory: Any) -> None:
    runner = runner_factory("--limits", "relaxed", "--quick")
    assert any("Timers:     quick" in line for line in runner.lines), runner.lines
    state = view(runner)
    group = next(c["id"] for c in state["chats"] if c["type"] == "supergroup")
    ann = state["users"][0]["id"]
    wait(runner, bot_says(group, "I run Hintrigue"), "the introduction")
    post(runner, "send", {"user_id": ann, "chat_id": group, "text": "/newgame guesswhat"})
    lobby = wait(runner, bot_says(group, "a new game is open"), "the lobby")
    assert "clue 30 s" in lobby["text"] and "guess 30 s" in lobby["text"], lobby["text"]


# ----- how the runner stops ------------------------------------------------------------------


def descendants(pid: int) -> dict[int, str]:
    """The processes below `pid` (children, grandchildren …) with their command lines."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = {}, [pid]
    while todo:
        parent = todo.pop()
        for child, of in parents.items():
            if of == parent and child not in found:
                found[child] = command_line(child)
                todo.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def alive(pid: int, command: str) -> bool:
    """Whether the process still runs (not a zombie, not a new process with its number)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z" and command_line(pid) == command


def wait_gone(processes: dict[int, str], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(alive(pid, command) for pid, command in processes.items()):
            return
        time.sleep(0.1)
    left = {pid: cmd for pid, cmd in processes.items() if alive(pid, cmd)}
    raise AssertionError(f"still running {timeout:g} s after the runner stopped: {left}")


def started_processes(runner: Runner) -> dict[int, str]:
    """The runner's children once the web process, the worker and (its own) Redis run."""
    processes = descendants(runner.process.pid)
    wanted = ["tgbot web", "rq worker"] + (["redis-server"] if runner.owns_redis else [])
    for what in wanted:
        assert any(what in command for command in processes.values()), (what, processes)
    return processes


def listening(port: int) -> set[str]:
    """The local addresses (hex, as in /proc/net/tcp*) that listen on a TCP port."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, _, hex_port = fields[1].rpartition(":")
            if fields[3] == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.add(address)
    return found


LOOPBACK = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_closing_the_terminal_stops_everything_and_keeps_the_logs(runner_factory: Any) -> None:
    runner = runner_factory("--limits", "relaxed", log_dir=False)
    processes = started_processes(runner)
    web = next(pid for pid, command in processes.items() if "tgbot web" in command)
    environ = Path(f"/proc/{web}/environ").read_bytes().split(b"\0")
    port = int(next(v[5:] for v in environ if v.startswith(b"PORT=")))
    addresses = listening(port)
    assert addresses and addresses <= LOOPBACK, f"the web process listens on {addresses}"
    runner.process.send_signal(signal.SIGHUP)  # what a closed terminal sends
    try:
        status = runner.process.wait(timeout=40)
    except subprocess.TimeoutExpired:
        raise AssertionError("the runner did not stop on SIGHUP") from None
    assert status == 0, "\n".join(runner.lines) + runner.logs()
    wait_gone(processes)
    time.sleep(0.2)  # the reader thread takes the last lines
    assert runner.lines[-1] == f"stopped; logs kept in {runner.log_dir}", runner.lines
    assert (runner.log_dir / "web.log").is_file() and (runner.log_dir / "worker.log").is_file()
    shutil.rmtree(runner.log_dir)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads Linux's /proc")
def test_a_killed_runner_leaves_no_process_behind(runner_factory: Any) -> None:
    runner = runner_factory("--limits", "relaxed")
    processes = started_processes(runner)
    runner.process.kill()  # no chance to stop anything itself
    runner.process.wait(timeout=10)
    wait_gone(processes)
