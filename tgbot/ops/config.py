"""Configuration from the environment (and a `.env` file), read once by each entry point.

`Settings` reads and checks the variables with pydantic-settings; `Config` is what the
processes are built from (tests build one directly).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_API_URL = "https://api.telegram.org"
DEFAULT_REDIS_URL = "redis://localhost:6379/0"
# How long a write waits for a replica to confirm it (only when the primary has a replica).
DEFAULT_REPLICA_WAIT_MS = 300
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
APP_PATH = "/app/"


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
    web_host: str = "0.0.0.0"  # every interface, as hosts need it
    access_log: bool = False  # a line per update costs
    quick_timers: bool = False
    """Lobbies start from quicker timers (`tgbot.local.quick`): the local run's quick mode."""
    app_url: str = ""
    """The board app's public address (APP_URL; unset: the web process's `/app/` at
    WEBHOOK_URL's origin). Private prompts carry a button to it when it is HTTPS (Telegram
    opens no other), or on this machine (the local run)."""
    app_link: str = ""
    """The app's direct link as registered with BotFather (APP_LINK, `https://t.me/<bot>/<app>`):
    the group's board messages carry a link to it for watching; unset: none."""
    app_script: str = TELEGRAM_SCRIPT
    """The script the app's page loads for `window.Telegram.WebApp` (the local run's shim)."""

    @property
    def board_app_url(self) -> str:
        """Where private prompts open the board app, or "" when they cannot."""
        url = self.app_url
        if not url and self.webhook_url.startswith("https://"):
            parts = urlsplit(self.webhook_url)
            url = f"https://{parts.netloc}{APP_PATH}"
        parts = urlsplit(url)
        local = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
        return url if parts.scheme == "https" or local else ""

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


class ConfigError(SystemExit):
    """A setting the bot cannot run with. Entry points print it as one line and exit 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _sentinel_pairs(value: str) -> tuple[tuple[str, int], ...]:
    found = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        host, colon, port = part.rpartition(":")
        if not colon:
            host, port = part, "26379"
        if not host or not port.isdigit():
            raise ValueError(f"{part!r} is not host:port")
        found.append((host.strip("[]"), int(port)))
    return tuple(found)


def parse_sentinels(value: str) -> tuple[tuple[str, int], ...]:
    """REDIS_SENTINELS: comma-separated host:port (port 26379 when left out)."""
    try:
        return _sentinel_pairs(value)
    except ValueError as problem:
        raise ConfigError(f"REDIS_SENTINELS: {problem}") from None


class Settings(BaseSettings):
    """The environment (and a `.env` file in the working directory), typed and checked."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    telegram_bot_token: str = ""
    telegram_api_url: str = DEFAULT_API_URL
    webhook_url: str = ""
    webhook_secret: str = ""
    redis_url: str = DEFAULT_REDIS_URL
    redis_sentinels: str = ""
    redis_sentinel_master: str = ""
    redis_replica_wait_ms: int = Field(DEFAULT_REPLICA_WAIT_MS, ge=0)
    metrics_token: str = ""
    port: int = Field(8000, ge=1, le=65535)
    web_host: str = "0.0.0.0"
    access_log: bool = False
    rq_queue: str = ""
    timer_scale: float = Field(1.0, gt=0, allow_inf_nan=False)
    quick_timers: bool = False
    app_url: str = ""
    app_link: str = ""
    app_script_url: str = TELEGRAM_SCRIPT

    @field_validator("app_link")
    @classmethod
    def _app_link_is_direct(cls, value: str) -> str:
        if value and not re.fullmatch(r"https://t\.me/\w{5,32}/\w{3,30}", value, re.ASCII):
            raise ValueError("not a direct link like https://t.me/<bot>/<app>")
        return value

    @field_validator("redis_sentinels")
    @classmethod
    def _sentinels_are_host_port(cls, value: str) -> str:
        _sentinel_pairs(value)
        return value

    @model_validator(mode="after")
    def _sentinels_name_their_primary(self) -> Settings:
        if self.redis_sentinels.strip(", ") and not self.redis_sentinel_master:
            raise ValueError("REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER is not")
        return self


class _Given(Settings):
    """The settings of an environment given as a mapping, and of nothing else (neither the
    process's environment nor `.env`)."""

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:  # fmt: skip
        return (init_settings,)


def _one_line(error: ValidationError) -> str:
    """A validation error as one line naming each bad variable and what it was given."""
    parts = []
    for item in error.errors():
        name = "_".join(str(part) for part in item["loc"]).upper()
        message = str(item["msg"]).removeprefix("Value error, ")
        if name:
            parts.append(f"{name}={item['input']!r}: {message}")
        else:
            parts.append(message)
    return "; ".join(parts)


def read_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from `environ`, or from the process's environment and `.env`.

    Raises:
        ConfigError: a value of the wrong type or out of range, named in one line.
    """
    try:
        if environ is None:
            return Settings()
        names = Settings.model_fields
        given = {k.lower(): v for k, v in environ.items() if k.lower() in names and v != ""}
        return _Given(**given)
    except ValidationError as error:
        raise ConfigError(_one_line(error)) from None


def _derive(token: str, purpose: str) -> str:
    """A secret of Telegram's secret-token alphabet ([A-Za-z0-9_-]), derived from the token."""
    digest = hmac.new(token.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def from_env(environ: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
    """The configuration from environment variables (and `.env` when `environ` is None).

    Raises:
        ConfigError: TELEGRAM_BOT_TOKEN is missing (when required) or a value is bad.
    """
    env = read_settings(environ)
    token = env.telegram_bot_token
    if require_token and not token:
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set")
    return Config(
        token=token,
        api_url=env.telegram_api_url,
        webhook_url=env.webhook_url,
        webhook_secret=env.webhook_secret,
        redis_url=env.redis_url,
        port=env.port,
        timer_scale=env.timer_scale,
        queue=env.rq_queue or default_queue(token),
        sentinels=_sentinel_pairs(env.redis_sentinels),
        sentinel_master=env.redis_sentinel_master,
        replica_wait_ms=env.redis_replica_wait_ms,
        metrics_token=env.metrics_token,
        web_host=env.web_host,
        access_log=env.access_log,
        quick_timers=env.quick_timers,
        app_url=env.app_url,
        app_link=env.app_link,
        app_script=env.app_script_url,
    )


def load(environ: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
    """`from_env` for an entry point: a bad configuration is one line on stderr, exit 2."""
    try:
        return from_env(environ, require_token=require_token)
    except ConfigError as problem:
        print(f"hintrigue: configuration: {problem}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
