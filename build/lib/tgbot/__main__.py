"""`python -m tgbot [web|poll|set-webhook|dev]`: the bot's processes.

Without TELEGRAM_BOT_TOKEN, `python -m tgbot` runs `dev`: the bot on this machine against a
local Telegram stand-in, with a play page.
"""

from __future__ import annotations

import asyncio
import os
import sys

from tgbot import logs
from tgbot.config import from_env


def main(argv: list[str]) -> None:
    """Run one of the bot's processes."""
    no_token = not os.environ.get("TELEGRAM_BOT_TOKEN")
    if argv[:1] == ["dev"] or (no_token and (not argv or argv[0].startswith("-"))):
        from tgbot.dev import main as dev

        dev(argv[1:] if argv[:1] == ["dev"] else argv)
        return
    mode = argv[0] if argv else "web"
    os.environ.setdefault("HINTRIGUE_PROCESS", "release" if mode == "set-webhook" else mode)
    logs.setup()
    config = from_env()
    if mode == "web":
        import uvicorn

        from tgbot.web import create_app

        uvicorn.run(
            create_app(config),
            host=os.environ.get("WEB_HOST", "0.0.0.0"),  # every interface, as hosts need it
            port=config.port,
            log_level="info",
            access_log=os.environ.get("ACCESS_LOG", "") == "1",  # a line per update costs
            proxy_headers=True,
            timeout_graceful_shutdown=20,
            # uvicorn's loggers write through the root handler (`logs.setup`).
            log_config=None,
        )
    elif mode == "poll":
        from tgbot.polling import run_polling

        run_polling(config)
    elif mode == "set-webhook":
        from tgbot.release import release

        asyncio.run(release(config))
    else:
        raise SystemExit(f"unknown mode {mode!r}: web, poll, set-webhook or dev")


if __name__ == "__main__":
    main(sys.argv[1:])
