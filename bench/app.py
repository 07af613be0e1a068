"""The board app's benchmark (SPEC 16), through the Procfile's web and worker processes
(`bench.harness`: its own redis-server, the Bot API double, one web, `--workers` workers).

A game of Wunchunk (4 seats, a board of 8: 169 cells, the largest the app draws) is opened,
seated and started in the store, its players known to the double. Then:

1. first load: what a phone fetches to show the board, from the web process: the page, its
   style and script, the game's script and the first view of the seat on turn
   (`first_load_bytes` as sent, the page and scripts gzipped; `first_load_raw_bytes`
   unpacked; `first_load_ms`: one request after the other on one connection, as a webview on
   a fast network; Telegram's own script comes from Telegram and is not counted).
2. taps: the seat on turn places a stone and takes it back, `--taps` times in all; each tap is
   timed from its request to the app's next view showing it (`tap_p50_ms`, `tap_p99_ms`):
   the request waits for the workers' answer, which comes once the room is committed.
3. the webhook beside open apps: updates POSTed to the webhook at `--rate` a second (Poisson,
   each to one of 50 groups) for `--seconds`, timed from sending to 200 (`webhook_p50_ms`,
   `webhook_p99_ms`); then the same again while `--apps` apps poll their view once a second
   (`webhook_apps_p50_ms`, `webhook_apps_p99_ms`, and the apps' own `poll_p99_ms`).

Prints `name=value` lines. Run: `.venv/bin/python bench/app.py [--taps 100] [--apps 100]
[--rate 100] [--seconds 15] [--workers 2]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import Bench, percentile, start_processes  # noqa: E402
from bench.players import RawHttp, Updates  # noqa: E402
from engine.commands import ChangeSettings, Join, OpenLobby, StartGame  # noqa: E402
from engine.games.registry import GAMES  # noqa: E402
from engine.games.wunchunk.model import State  # noqa: E402
from engine.roomid import RoomId  # noqa: E402
from engine.store import Store  # noqa: E402
from tgbot.ops.config import Config  # noqa: E402
from tgbot.standin import DEFAULT_TOKEN  # noqa: E402
from tgbot.standin.miniapp import sign_init_data  # noqa: E402
from tgbot.webapp.trust import room_token  # noqa: E402

GROUP = -1_009_000_000_001
FIRST_USER = 9_000_000_001


def init_data(user: int) -> str:
    person = json.dumps({"id": user, "first_name": f"P{user}"}, separators=(",", ":"))
    return sign_init_data({"auth_date": str(int(time.time())), "user": person}, DEFAULT_TOKEN)


async def seat_a_game(bench: Bench) -> tuple[str, int]:
    """A started 4-seat game of Wunchunk on a board of 8; its room token and its seats' users."""
    await bench.control("/_standin/chats", {"chat_id": GROUP, "type": "supergroup",
                                             "title": "App bench"})  # fmt: skip
    for user in range(FIRST_USER, FIRST_USER + 4):
        await bench.control("/_standin/users", {"id": user, "first_name": f"P{user}",
                                                "started": True})  # fmt: skip
    store = Store(redis.Redis.from_url(bench.redis_url), GAMES)
    store.execute(GROUP, OpenLobby(chat_id=GROUP, user_id=FIRST_USER, name="P0", seed=7,
                                   game="wunchunk", game_settings={"size": 8}))  # fmt: skip
    for user in range(FIRST_USER + 1, FIRST_USER + 4):
        store.execute(GROUP, Join(user_id=user, name=f"P{user}"))
    store.execute(GROUP, ChangeSettings(user_id=FIRST_USER, changes={"timers": False}))
    store.execute(GROUP, StartGame(user_id=FIRST_USER))
    room = store.load(GROUP)
    assert room is not None and isinstance(room.play, State)
    key = Config(token=DEFAULT_TOKEN, webhook_secret=bench.secret).signing_key
    return room_token(key, RoomId(GROUP), room.game_id), FIRST_USER


async def first_load(web: httpx.AsyncClient, token: str, user: int) -> dict[str, Any]:
    auth = {"Authorization": f"tma {init_data(user)}"}
    started = time.perf_counter()
    answers = [await web.get(path)
               for path in ("/app/", "/app/app.css", "/app/app.js", "/app/games/wunchunk.js")]
    view = await web.post("/app/api/view", json={"room": token}, headers=auth)
    assert view.status_code == 200, view.status_code
    elapsed = time.perf_counter() - started
    answers.append(view)
    assert all(a.status_code == 200 for a in answers)
    return {"first_load_bytes": sum(a.num_bytes_downloaded for a in answers),
            "first_load_raw_bytes": sum(len(a.content) for a in answers),
            "first_load_ms": elapsed * 1000, "first_view_bytes": len(view.content)}  # fmt: skip


async def taps(web: httpx.AsyncClient, token: str, users: int, count: int) -> dict[str, Any]:
    """The seat on turn places a stone and takes it back, over and over."""
    times: list[float] = []
    seen: dict[str, Any] = {}
    for user in range(users, users + 4):
        seen = (await web.post("/app/api/view", json={"room": token},
                               headers={"Authorization": f"tma {init_data(user)}"})).json()
        if seen["can"] == "place":
            break
    auth = {"Authorization": f"tma {init_data(user)}"}
    taken = {stone[0] for stone in seen["stones"]}
    empty = next(i for i in range(len(seen["cells"])) if i not in taken)
    for number in range(count):
        move = ({"do": "place", "cell": empty, "colour": seen["own"]} if number % 2 == 0
                else {"do": "undo"})  # fmt: skip
        started = time.perf_counter()
        answer = await web.post("/app/api/tap", headers=auth,
                                json={"room": token, "nonce": f"bench-{number:06d}", "tap": move})
        assert answer.status_code == 200 and not answer.json()["pending"], answer.text
        while True:  # the app's next view, until it shows the tap
            view = await web.post("/app/api/view", json={"room": token}, headers=auth)
            assert view.status_code == 200, view.status_code
            if view.json()["placed"] == (1 if number % 2 == 0 else 0):
                break
            await asyncio.sleep(0.05)
        times.append(time.perf_counter() - started)
        await asyncio.sleep(1.0)  # a person's pace: the app asks about twice a second at most
    return {"taps": len(times), "tap_p50_ms": percentile(times, 50) * 1000,
            "tap_p99_ms": percentile(times, 99) * 1000}  # fmt: skip


async def webhook_load(bench: Bench, rate: float, seconds: float) -> list[float]:
    """Updates at `rate` a second (Poisson) to 50 groups; each one's time to 200."""
    http = RawHttp("127.0.0.1", bench.web_port, 32, bench.secret_headers)
    await http.open()
    updates = Updates(10**13 + random.randrange(10**9))
    times: list[float] = []

    async def one(update: dict[str, Any]) -> None:
        status, _, elapsed = await http.post("/webhook", update)
        assert status == 200, status
        times.append(elapsed)

    pending = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        chat = -1_009_100_000_000 - random.randrange(50)
        user = 9_100_000_000 + random.randrange(500)
        pending.append(asyncio.create_task(one(updates.message(user, chat, "hello there"))))
        await asyncio.sleep(random.expovariate(rate))
    await asyncio.gather(*pending)
    await http.close()
    return times


async def apps_polling(bench: Bench, token: str, apps: int, stop: asyncio.Event,
                       polls: list[float]) -> None:  # fmt: skip
    """`apps` watchers' apps, each asking for its view once a second (since its version)."""
    limits = httpx.Limits(max_connections=apps, max_keepalive_connections=apps)
    base = f"http://127.0.0.1:{bench.web_port}"
    async with httpx.AsyncClient(base_url=base, limits=limits, trust_env=False,
                                 timeout=30) as web:  # fmt: skip

        async def app(user: int) -> None:
            auth = {"Authorization": f"tma {init_data(user)}"}
            version = None
            await asyncio.sleep(random.random())
            while not stop.is_set():
                started = time.perf_counter()
                answer = await web.post("/app/api/view", headers=auth,
                                        json={"room": token, "since": version})  # fmt: skip
                polls.append(time.perf_counter() - started)
                assert answer.status_code == 200, answer.status_code
                version = answer.json().get("version", version)
                await asyncio.sleep(1.0)

        await asyncio.gather(*(app(9_200_000_000 + n) for n in range(apps)))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, start_processes(Path(tmp), args.workers) as bench:
        token, users = await seat_a_game(bench)
        base = f"http://127.0.0.1:{bench.web_port}"
        async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30) as web:
            figures = await first_load(web, token, users)
            figures.update(await taps(web, token, users, args.taps))
        alone = await webhook_load(bench, args.rate, args.seconds)
        stop, polls = asyncio.Event(), []
        polling = asyncio.create_task(apps_polling(bench, token, args.apps, stop, polls))
        await asyncio.sleep(2)  # every app has asked once
        beside = await webhook_load(bench, args.rate, args.seconds)
        stop.set()
        await polling
        figures.update({
            "webhook_p50_ms": percentile(alone, 50) * 1000,
            "webhook_p99_ms": percentile(alone, 99) * 1000,
            "webhook_apps_p50_ms": percentile(beside, 50) * 1000,
            "webhook_apps_p99_ms": percentile(beside, 99) * 1000,
            "apps": args.apps, "polls": len(polls),
            "poll_p50_ms": percentile(polls, 50) * 1000,
            "poll_p99_ms": percentile(polls, 99) * 1000,
        })  # fmt: skip
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--apps", type=int, default=100)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for name, value in asyncio.run(measure(args)).items():
        print(f"{name}={value:.1f}" if isinstance(value, float) else f"{name}={value}")


if __name__ == "__main__":
    main()
