"""Configuration from the environment, read once by the composition root."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_REDIS_URL = "redis://localhost:6379/0"


@dataclass(frozen=True)
class Config:
    """Everything the web and worker processes need to know about their surroundings."""

    token: str
    api_url: str = DEFAULT_API_URL
    webhook_url: str = ""
    webhook_secret: str = ""
    redis_url: str = DEFAULT_REDIS_URL
    port: int = 8000
    timer_scale: float = 1.0
    queue: str = "hintrigue"

    @property
    def api_base(self) -> str:
        """The base URL python-telegram-bot appends the token and method to."""
        return f"{self.api_url.rstrip('/')}/bot"

    @property
    def signing_key(self) -> bytes:
        """The key that signs callback data (stable across processes and restarts)."""
        return (self.webhook_secret or self.token).encode()


def from_env(environ: dict[str, str] | None = None) -> Config:
    """Read the configuration from environment variables."""
    env = os.environ if environ is None else environ
    token = env.get("TELEGRAM_BOT_TOKEN", "")
    if not token:
        raise SystemExit("TELEGRAM_BOT_TOKEN is not set")
    return Config(
        token=token,
        api_url=env.get("TELEGRAM_API_URL", DEFAULT_API_URL),
        webhook_url=env.get("WEBHOOK_URL", ""),
        webhook_secret=env.get("WEBHOOK_SECRET", ""),
        redis_url=env.get("REDIS_URL", DEFAULT_REDIS_URL),
        port=int(env.get("PORT", "8000")),
        timer_scale=float(env.get("TIMER_SCALE", "1")),
        queue=env.get("RQ_QUEUE", "hintrigue"),
    )
