"""Log lines: readable text by default, one JSON object per line with LOG_FORMAT=json.

A JSON line carries the time (UTC, ISO 8601), the level, the process (its Procfile kind and
pid), the chat and the update id the process was busy with when it logged (`about`), the logger
and the message, and the traceback when there is one. Every process sets it up the same way and
first (`setup`): `python -m tgbot` in its `main`, the RQ worker when RQ reads its settings module
(`workers.rqsettings`, whose `DICT_CONFIG` is the same). No line holds a secret
(`tgbot.ops.redact`).
"""

from __future__ import annotations

import json
import logging
import logging.config
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from tgbot.ops.config import Config
from tgbot.ops.redact import Redactor, guard, secrets_of

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
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["error"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False, default=str)


def wants_json(env: Mapping[str, str]) -> bool:
    """Whether LOG_FORMAT asks for JSON lines."""
    return env.get("LOG_FORMAT", "").strip().lower() == "json"


def dict_config(env: Mapping[str, str], config: Config | None = None) -> dict[str, Any]:
    """The `logging.config.dictConfig` of every process, text or JSON lines: one handler on
    the root logger (RQ's and uvicorn's loggers then add none of their own), masking every
    secret (`tgbot.ops.redact`), with httpx and httpcore (a line per request, URL and so token
    included) at WARNING."""
    line: dict[str, Any] = {"()": JsonFormatter} if wants_json(env) else {"format": TEXT_FORMAT}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": Redactor, "secrets": secrets_of(env, config)}},
        "formatters": {"line": line},
        "handlers": {
            "out": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["redact"]}
        },
        "root": {"level": "INFO", "handlers": ["out"]},
        "loggers": {"httpx": {"level": "WARNING"}, "httpcore": {"level": "WARNING"}},
    }


def setup(env: Mapping[str, str] | None = None, config: Config | None = None) -> None:
    """Configure a process's logging, before it logs anything (`python -m tgbot`, and the RQ
    worker through `workers.rqsettings`). A library's `logging.basicConfig` (wordllama calls
    one on import) then finds the root handler in place and does nothing. The secrets to mask
    come from the environment and from `config` when given."""
    env = os.environ if env is None else env
    logging.config.dictConfig(dict_config(env, config))
    logging.captureWarnings(True)  # warnings as lines of the same format, masked too
    guard(Redactor(secrets_of(env, config)))


def configured() -> bool:
    """Whether `setup` configured this process's logging (its root handler masks secrets)."""
    root = logging.getLogger()
    return any(isinstance(f, Redactor) for h in root.handlers for f in h.filters)
