"""`python -m tgbot [web|poll|set-webhook]`: the bot's processes."""

from __future__ import annotations

import asyncio
import logging
import sys

from tgbot.config import from_env


def main(argv: list[str]) -> None:
    """Run one of the bot's processes."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    mode = argv[0] if argv else "web"
    config = from_env()
    if mode == "web":
        import uvicorn

        from tgbot.web import create_app

        uvicorn.run(
            create_app(config),
            host="0.0.0.0",
            port=config.port,
            log_level="info",
            proxy_headers=True,
        )
    elif mode == "poll":
        from tgbot.polling import run_polling

        run_polling(config)
    elif mode == "set-webhook":
        from tgbot.release import set_webhook

        asyncio.run(set_webhook(config))
    else:
        raise SystemExit(f"unknown mode {mode!r}: web, poll or set-webhook")


if __name__ == "__main__":
    main(sys.argv[1:])
