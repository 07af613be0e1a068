"""`python -m tgbot.standin [--port N] [--limits telegram|off] [--scale X]`: serve the double.

Runs until it is terminated. Telegram's flood limits are enforced unless `--limits off`;
`--scale X` makes them X times as generous (a test that scales the bot's limits alike stays
short). The first line printed is the double's base URL. It accepts only its own bot token,
`123456789:STANDIN-test-token`.

Update and user ids start from the time it starts, as the local run's do: a bot whose Redis
kept an earlier run's data (its seen updates, its players' seats) takes the new run's updates
as new and its players as new people.
"""

from __future__ import annotations

import argparse
import signal
import threading
import time

from tgbot.standin.ratelimit import RateLimits
from tgbot.standin.server import StandinServer
from tgbot.standin.world import World


def scaled(scale: float) -> RateLimits:
    """Telegram's limits made `scale` times as generous."""
    base = RateLimits()
    return RateLimits(
        per_chat_per_second=base.per_chat_per_second * scale,
        per_chat_burst=max(1, round(base.per_chat_burst * scale)),
        per_group_per_minute=max(1, round(base.per_group_per_minute * scale)),
        global_per_second=max(1, round(base.global_per_second * scale)),
    )


def main(argv: list[str] | None = None) -> None:
    """Serve the double on 127.0.0.1 until SIGTERM or SIGINT."""
    parser = argparse.ArgumentParser(prog="python -m tgbot.standin")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--limits", choices=["telegram", "off"], default="telegram")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args(argv)
    stamp = int(time.time())
    world = World(
        rate_limits=scaled(args.scale),
        enforce_rate_limits=args.limits == "telegram",
        first_update_id=stamp * 1000,
        first_user_id=5_000_000_000 + (stamp % 1_000_000) * 1000,
    )
    server = StandinServer(world, port=args.port)
    server.start()
    print(server.url, flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    server.stop()


if __name__ == "__main__":
    main()
