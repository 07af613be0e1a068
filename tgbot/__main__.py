"""`python -m tgbot [web|set-webhook|poll|dev]`: the bot's processes.

Without TELEGRAM_BOT_TOKEN in the environment, `python -m tgbot` runs `dev`: the bot on this
machine against a local Telegram stand-in, with a play page.
"""

from __future__ import annotations

import asyncio
import os
import sys

USAGE = """\
usage: python -m tgbot [web | set-webhook | poll | dev [options]]

  web          the webhook: takes Telegram's updates into Redis (uvicorn on $PORT)
  set-webhook  the release step: registers the webhook and the command menu with Telegram
  poll         takes updates by long polling instead of a webhook: no public URL needed
  dev          the whole bot on this machine against a Telegram stand-in, with a play page
               (`python -m tgbot dev --help` lists its options)

With TELEGRAM_BOT_TOKEN in the environment, no mode means `web`; without it, `dev`. Every
mode but `dev` also reads .env. The workers run with `rq worker` (see the Procfile). Settings:
docs/hosting.md.
"""
MODES = ("web", "set-webhook", "poll", "dev")


def main(argv: list[str]) -> None:
    """Run one of the bot's processes."""
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        print(USAGE, end="")
        return
    no_token = not os.environ.get("TELEGRAM_BOT_TOKEN")
    if argv[:1] == ["dev"] or (no_token and (not argv or argv[0].startswith("-"))):
        from tgbot.local.dev import main as dev

        dev(argv[1:] if argv[:1] == ["dev"] else argv)
        return
    mode = argv[0] if argv else "web"
    if mode not in MODES or argv[1:]:
        print(f"hintrigue: unknown command {' '.join(argv)!r}\n\n{USAGE}", end="", file=sys.stderr)
        raise SystemExit(2)
    os.environ.setdefault("HINTRIGUE_PROCESS", "release" if mode == "set-webhook" else mode)
    from tgbot.ops import logs
    from tgbot.ops.config import load

    config = load()
    logs.setup(config=config)  # before anything logs; a .env's secrets masked too
    if mode == "web":
        import uvicorn

        from engine.games.registry import GAMES
        from tgbot.games.registry import LINEUP
        from tgbot.ingress.web import create_app

        uvicorn.run(
            create_app(config, games=GAMES, lineup=LINEUP),
            host=config.web_host,
            port=config.port,
            log_level="info",
            access_log=config.access_log,
            proxy_headers=True,
            timeout_graceful_shutdown=20,
            # uvicorn's loggers write through the root handler (`logs.setup`).
            log_config=None,
        )
    elif mode == "poll":
        from engine.games.registry import GAMES
        from tgbot.ingress.polling import run_polling
        from workers.dispatch import RqDispatch  # the entry point sits above workers too

        run_polling(config, lambda client: RqDispatch(client, config.queue, GAMES))
    else:
        from tgbot.ops.release import release

        asyncio.run(release(config))


if __name__ == "__main__":
    main(sys.argv[1:])
