"""Log lines: readable text by default, one JSON object per line with LOG_FORMAT=json.

A JSON line carries the time (UTC, ISO 8601), the level, the process (its Procfile kind and
pid), the chat and the update id the process was busy with when it logged (`about`), the logger
and the message, and the traceback when there is one. Every process sets it up the same way:
`python -m tgbot` through `setup`, the RQ worker through its settings module's `DICT_CONFIG`.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"

# What the process is busy with: {"chat": …, "update_id": …}, set around each update.
_ABOUT: ContextVar[dict[str, int] | None] = ContextVar("log_about", default=None)


@contextmanager
def about(chat: int | str | None = None, update_id: int | None = None) -> Iterator[None]:
    """Name the chat (or a forum topic's room, `<chat>_<topic>`) and update that what is
    logged meanwhile concerns."""
    current = dict(_ABOUT.get() or {})
    if chat is not None:
        current["chat"] = int(chat) if isinstance(chat, str) and chat.lstrip("-").isdigit() \
            else chat  # fmt: skip
    if update_id is not None:
        current["update_id"] = update_id
    token = _ABOUT.set(current)
    try:
        yield
    finally:
        _ABOUT.reset(token)


def process_name() -> str:
    """The Procfile kind of this process and its pid, e.g. `worker.4711`."""
    kind = os.environ.get("HINTRIGUE_PROCESS") or _guess_kind()
    return f"{kind}.{os.getpid()}"


def _guess_kind() -> str:
    argv = " ".join(sys.argv)
    if "rq" in os.path.basename(sys.argv[0]) or " worker" in argv:
        return "worker"
    if "set-webhook" in argv:
        return "release"
    return "web"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "process": process_name(),
            **(_ABOUT.get() or {}),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def wants_json(env: Mapping[str, str]) -> bool:
    """Whether LOG_FORMAT asks for JSON lines."""
    return env.get("LOG_FORMAT", "").strip().lower() == "json"


def setup(env: Mapping[str, str] | None = None, level: int = logging.INFO) -> None:
    """Configure the root logger of a `python -m tgbot` process."""
    env = os.environ if env is None else env
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if wants_json(env) else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def rq_dict_config(env: Mapping[str, str]) -> dict[str, Any] | None:
    """A `logging.config.dictConfig` for the RQ worker: JSON lines on the root logger (RQ's
    loggers then add no handler of their own), or None to leave RQ's text lines as they are."""
    if not wants_json(env):
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"out": {"class": "logging.StreamHandler", "formatter": "json"}},
        "root": {"level": "INFO", "handlers": ["out"]},
        "loggers": {"httpx": {"level": "WARNING"}},
    }
