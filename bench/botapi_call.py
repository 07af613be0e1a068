"""CPU per Bot API call: the calling thread's CPU time per `editMessageText` through the workers'
Bot (`workers.botapi.WorkerBot`) against the Bot API double, which runs in other threads of
this process and is not counted. The loop runs what goes to the executor in its own thread, as
the workers' does (`workers.runtime.InlineExecutor`), so that work is counted too.

Clients: `aiohttp` (the workers', `workers.botapi.AiohttpRequest`) and `httpx`
(python-telegram-bot's `HTTPXRequest`). Prints `<client>_cpu_us_per_call=` lines. Run:
`.venv/bin/python bench/botapi_call.py [--calls 2000] [aiohttp httpx]`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram.request import BaseRequest, HTTPXRequest  # noqa: E402

from tgbot.standin.server import StandinServer, run_double  # noqa: E402
from workers.botapi import AiohttpRequest, WorkerBot  # noqa: E402
from workers.runtime import InlineExecutor  # noqa: E402

GROUP, ALICE = -1001000000001, 11
WARM_UP = 200


def client(kind: str) -> BaseRequest:
    if kind == "httpx":
        return HTTPXRequest(connect_timeout=3.0, read_timeout=5.0, write_timeout=5.0)
    return AiohttpRequest(connect_timeout=3.0, read_timeout=5.0, write_timeout=5.0)


async def measure(double: StandinServer, kind: str, calls: int) -> float:
    asyncio.get_running_loop().set_default_executor(InlineExecutor(max_workers=1))
    async with WorkerBot(double.token, base_url=double.api_base, request=client(kind)) as bot:
        await bot.send_message(GROUP, "first")
        for i in range(WARM_UP):
            await bot.edit_message_text(f"{kind} warm-up {i}", chat_id=GROUP, message_id=1)
        start = time.thread_time()
        for i in range(calls):
            await bot.edit_message_text(f"{kind} {i}", chat_id=GROUP, message_id=1)
        return (time.thread_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("clients", nargs="*", default=["aiohttp", "httpx"])
    args = parser.parse_args()
    with run_double() as double:
        double.world.add_user(ALICE, "Alice")
        double.world.bot_added(GROUP, ALICE)
        for kind in args.clients:
            cpu = asyncio.run(measure(double, kind, args.calls))
            print(f"{kind}_cpu_us_per_call={cpu:.0f}", flush=True)


if __name__ == "__main__":
    main()
