"""Configuration from the environment, read once by the composition root."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_REDIS_URL = "redis://localhost:6379/0"
# How long a write waits for a replica to confirm it (only when the primary has a replica).
DEFAULT_REPLICA_WAIT_MS = 300


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
    sentinels: tuple[tuple[str, int], ...] = ()
    sentinel_master: str = ""
    replica_wait_ms: int = DEFAULT_REPLICA_WAIT_MS
    metrics_token: str = ""

    @property
    def api_base(self) -> str:
        """The base URL python-telegram-bot appends the token and method to."""
        return f"{self.api_url.rstrip('/')}/bot"

    @property
    def bot_id(self) -> str:
        """The bot's numeric id: the part of the token before the colon."""
        return bot_id(self.token)

    @property
    def secret(self) -> str:
        """The secret token Telegram sends with each update: WEBHOOK_SECRET, or one derived
        from the bot token when it is not set, the same in every process (the webhook never
        runs open)."""
        return self.webhook_secret or _derive(self.token, "webhook secret")

    @property
    def secret_derived(self) -> bool:
        """Whether the webhook secret is derived from the token (WEBHOOK_SECRET not set)."""
        return not self.webhook_secret

    @property
    def signing_key(self) -> bytes:
        """The key that signs callback data: derived from the bot token, so rotating the
        webhook secret leaves every button of every running game valid."""
        return _derive(self.token, "button signatures").encode()

    @property
    def earlier_signing_keys(self) -> tuple[bytes, ...]:
        """Keys buttons were signed with before (the webhook secret, else the token): still
        accepted, so buttons sent before they changed keep working."""
        return ((self.webhook_secret or self.token).encode(),)


def bot_id(token: str) -> str:
    """A bot's numeric id: the part of its token before the colon."""
    return token.partition(":")[0]


def default_queue(token: str) -> str:
    """The RQ queue of a bot: its name carries the bot's id (bots may share a Redis)."""
    return f"hintrigue-{bot_id(token)}"


def parse_sentinels(value: str) -> tuple[tuple[str, int], ...]:
    """REDIS_SENTINELS: comma-separated host:port (port 26379 when left out)."""
    found = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        host, colon, port = part.rpartition(":")
        if not colon:
            host, port = part, "26379"
        if not host or not port.isdigit():
            raise SystemExit(f"REDIS_SENTINELS: {part!r} is not host:port")
        found.append((host.strip("[]"), int(port)))
    return tuple(found)


def sentinel_env(env: Mapping[str, str]) -> tuple[tuple[tuple[str, int], ...], str]:
    """REDIS_SENTINELS and REDIS_SENTINEL_MASTER: the Sentinels and the primary's name."""
    sentinels = parse_sentinels(env.get("REDIS_SENTINELS", ""))
    master = env.get("REDIS_SENTINEL_MASTER", "")
    if sentinels and not master:
        raise SystemExit("REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not")
    return sentinels, master


def _derive(token: str, purpose: str) -> str:
    """A secret of Telegram's secret-token alphabet ([A-Za-z0-9_-]), derived from the token."""
    digest = hmac.new(token.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def from_env(environ: Mapping[str, str] | None = None) -> Config:
    """Read the configuration from environment variables."""
    env = os.environ if environ is None else environ
    token = env.get("TELEGRAM_BOT_TOKEN", "")
    if not token:
        raise SystemExit("TELEGRAM_BOT_TOKEN is not set")
    sentinels, master = sentinel_env(env)
    return Config(
        token=token,
        api_url=env.get("TELEGRAM_API_URL", DEFAULT_API_URL),
        webhook_url=env.get("WEBHOOK_URL", ""),
        webhook_secret=env.get("WEBHOOK_SECRET", ""),
        redis_url=env.get("REDIS_URL", DEFAULT_REDIS_URL),
        port=int(env.get("PORT", "8000")),
        timer_scale=float(env.get("TIMER_SCALE", "1")),
        queue=env.get("RQ_QUEUE") or default_queue(token),
        sentinels=sentinels,
        sentinel_master=master,
        replica_wait_ms=int(env.get("REDIS_REPLICA_WAIT_MS", str(DEFAULT_REPLICA_WAIT_MS))),
        metrics_token=env.get("METRICS_TOKEN", ""),
    )
