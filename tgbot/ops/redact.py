"""No log line holds a secret, whatever a library puts in its messages or exceptions.

python-telegram-bot puts the token in its URLs and in `InvalidToken`'s message, httpx logs every
URL, and an error page may echo the request path back: the bot token, its secret half (what
follows the colon, left even when the colon is URL-encoded), the webhook secret, the key that
signs buttons, the metrics token and the Redis password are masked in every record's message,
traceback and stack before any handler writes it, also in their URL-encoded, JSON and repr
spellings.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlsplit

from tgbot.ops.config import Config

MASK = "[redacted]"
_PERCENT = re.compile(r"%[0-9A-F]{2}")


def secrets_of(env: Mapping[str, str], config: Config | None = None) -> list[str]:
    """Every secret the process's environment (and its configuration, when it has read one:
    settings may come from elsewhere) holds or derives."""
    configs = [Config(token=env.get("TELEGRAM_BOT_TOKEN", ""),
                      webhook_secret=env.get("WEBHOOK_SECRET", ""),
                      redis_url=env.get("REDIS_URL", ""),
                      metrics_token=env.get("METRICS_TOKEN", ""))]  # fmt: skip
    found = [s for c in [*configs, *([config] if config else [])] for s in _secrets(c)]
    return [s for s in dict.fromkeys(found) if s]


def _secrets(config: Config) -> list[str]:
    found = [config.webhook_secret, config.metrics_token]
    if config.token:
        found += [config.token, config.token.partition(":")[2], config.secret,
                  config.signing_key.decode()]  # fmt: skip
    with contextlib.suppress(ValueError):  # not a URL: nothing to hide in it
        found.append(unquote(urlsplit(config.redis_url).password or ""))
    return found


def spellings(secret: str) -> set[str]:
    """The ways a secret may be written in a line: as is, URL-encoded, JSON- or repr-escaped."""
    encoded = {quote(secret, safe=""), quote_plus(secret, safe="")}
    lower = {_PERCENT.sub(lambda m: m.group().lower(), e) for e in encoded}
    return {secret, *encoded, *lower, json.dumps(secret)[1:-1], repr(secret)[1:-1]}


class Redactor(logging.Filter):
    """A handler filter that masks the secrets in a record (message, traceback, stack)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        forms = sorted({f for s in secrets if s for f in spellings(s)}, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, forms))) if forms else None

    def redact(self, text: str) -> str:
        """The text with every secret masked."""
        return self._pattern.sub(MASK, text) if self._pattern is not None else text

    def filter(self, record: logging.LogRecord) -> bool:
        """Mask the record's secrets in place; never drop a record."""
        if self._pattern is None:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what there is, masked
            message = f"{record.msg} {record.args}"
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info:
            # Formatters write `exc_text` when it is set; the live exception goes.
            record.exc_text = record.exc_text or logging.Formatter().formatException(
                record.exc_info
            )
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


_active: Redactor | None = None


def _factory(make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if _active is not None:
            _active.filter(record)
        return record

    factory.redacting = True  # type: ignore[attr-defined]
    return factory


def mask(text: str) -> str:
    """The text with the secrets of this process (`guard`'s) masked: for what a library
    keeps rather than logs (RQ's stored tracebacks)."""
    return _active.redact(text) if _active is not None else text


def guard(redactor: Redactor) -> None:
    """Mask records whichever handler they reach (one a library adds later, too), and log
    uncaught exceptions (main thread and others) through logging rather than bare stderr."""
    global _active
    _active = redactor
    make = logging.getLogRecordFactory()
    if not getattr(make, "redacting", False):
        logging.setLogRecordFactory(_factory(make))

    def uncaught(kind: type[BaseException], error: BaseException,
                 trace: TracebackType | None) -> None:  # fmt: skip
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, trace)
            return
        logging.getLogger("uncaught").critical("uncaught exception",
                                               exc_info=(kind, error, trace))  # fmt: skip

    def uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None and not issubclass(args.exc_type, SystemExit):
            logging.getLogger("uncaught").critical(
                "uncaught exception in thread %s", getattr(args.thread, "name", "?"),
                exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
            )  # fmt: skip

    sys.excepthook = uncaught
    threading.excepthook = uncaught_in_thread
