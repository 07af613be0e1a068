"""No log line holds a secret: the token, its secret half, the webhook secret, the signing key,
the metrics token and the Redis password are masked in messages, tracebacks and stacks, in
every spelling a URL, a JSON string or a repr gives them, whichever handler writes the line."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
import warnings
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from tgbot.ops import logs
from tgbot.ops.config import Config
from tgbot.ops.redact import MASK, Redactor, secrets_of

TOKEN = "123456789:AAH-secret_half.of+the/token"
ENV = {
    "TELEGRAM_BOT_TOKEN": TOKEN,
    "WEBHOOK_SECRET": "hook-secret-42",
    "METRICS_TOKEN": "metrics-secret-7",
    "REDIS_URL": "redis://:p%40ss-word@db:6379/0",
}
HALF = TOKEN.partition(":")[2]


def logged(redactor: Redactor, message: str, *args: object, exc: bool = False) -> str:
    """A record through the filter, formatted as a text line."""
    record = logging.LogRecord("httpx", logging.INFO, __file__, 1, message, args,
                               sys.exc_info() if exc else None)  # fmt: skip
    assert redactor.filter(record)
    return logging.Formatter(logs.TEXT_FORMAT).format(record)


def test_every_secret_of_the_environment_is_known_the_derived_ones_too():
    config = Config(token=TOKEN, webhook_secret="hook-secret-42")
    found = secrets_of(ENV)
    assert {TOKEN, HALF, "hook-secret-42", "metrics-secret-7", "p@ss-word"} <= set(found)
    assert config.signing_key.decode() in found
    # Without WEBHOOK_SECRET the webhook's secret is derived from the token.
    assert Config(token=TOKEN).secret in secrets_of({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert secrets_of({}) == []
    # Settings read from elsewhere (a file) count as well.
    assert {TOKEN, HALF, "hook-secret-42"} <= set(secrets_of({}, config))


def test_a_url_with_the_token_is_masked_as_is_and_url_encoded():
    redactor = Redactor(secrets_of(ENV))
    line = logged(redactor, "HTTP Request: POST %s", f"https://api.telegram.org/bot{TOKEN}/getMe")
    assert TOKEN not in line and HALF not in line and f"/bot{MASK}/getMe" in line
    encoded = logged(redactor, "page: %s", quote(f"/bot{TOKEN}/getMe", safe=""))
    assert quote(HALF, safe="") not in encoded and MASK in encoded
    lower = logged(redactor, "page: %s", quote(TOKEN, safe="").lower())
    assert HALF.lower() not in lower
    for secret in ("hook-secret-42", "metrics-secret-7", "p@ss-word", quote("p@ss-word")):
        assert secret not in logged(redactor, "echoed %r", secret)


def test_a_traceback_holding_the_token_is_masked():
    redactor = Redactor(secrets_of(ENV))
    try:
        raise ValueError(f"The token `{TOKEN}` was rejected by the server.")
    except ValueError:
        line = logged(redactor, "tending failed", exc=True)
    assert "ValueError: The token `[redacted]` was rejected" in line and HALF not in line


def test_a_json_line_is_masked_and_stays_json():
    redactor = Redactor(secrets_of(ENV))
    try:
        raise RuntimeError(f'{{"path": "/bot{TOKEN}/x"}}')
    except RuntimeError:
        record = logging.LogRecord("rq.worker", logging.ERROR, __file__, 1, "job failed: %s",
                                   (json.dumps({"token": TOKEN}),), sys.exc_info())  # fmt: skip
    redactor.filter(record)
    line = logs.JsonFormatter().format(record)
    assert HALF not in line and json.loads(line)["error"].count(MASK) == 1


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The process's logging as `logs.setup` leaves it, writing to a buffer; restored after."""
    root = logging.getLogger()
    saved = ([h for h in root.handlers if not type(h).__module__.startswith("_pytest")],
             root.level, logging.getLogRecordFactory(), sys.excepthook, threading.excepthook,
             logging.getLogger("httpx").level)  # fmt: skip
    logs.setup(ENV)
    stream = io.StringIO()
    [handler] = [h for h in root.handlers if any(isinstance(f, Redactor) for f in h.filters)]
    handler.setStream(stream)  # type: ignore[attr-defined]
    yield stream
    root.removeHandler(handler)
    for old in saved[0]:
        root.addHandler(old)
    root.setLevel(saved[1])
    logging.setLogRecordFactory(saved[2])
    logging.captureWarnings(False)
    sys.excepthook, threading.excepthook = saved[3], saved[4]
    logging.getLogger("httpx").setLevel(saved[5])


def test_after_setup_a_librarys_basic_config_changes_nothing_and_httpx_stays_quiet(configured):
    handlers = logging.getLogger().handlers[:]
    logging.basicConfig(level=logging.INFO)  # what importing wordllama does
    assert logging.getLogger().handlers == handlers
    logging.getLogger("httpx").info("HTTP Request: POST https://x/bot%s/sendMessage", TOKEN)
    logging.getLogger("httpcore.http11").info("send_request_headers.started")
    logging.getLogger("workers.jobs").warning("page: /bot%s/sendMessage", TOKEN)
    written = configured.getvalue()
    assert "httpx" not in written and "httpcore" not in written
    assert f"/bot{MASK}/sendMessage" in written and HALF not in written


def test_after_setup_a_handler_a_library_adds_gets_masked_records_too(configured):
    own = io.StringIO()
    logger = logging.getLogger("some.library")
    handler = logging.StreamHandler(own)
    logger.addHandler(handler)
    try:
        logger.error("token %s", TOKEN)
    finally:
        logger.removeHandler(handler)
    assert HALF not in own.getvalue() and MASK in own.getvalue()


def test_after_setup_a_warning_is_a_masked_line_too(configured):
    warnings.warn(f"calling https://x/bot{TOKEN}/getMe", UserWarning, stacklevel=1)
    written = configured.getvalue()
    assert "WARNING py.warnings" in written and HALF not in written


def test_after_setup_an_uncaught_exception_is_logged_masked(configured):
    try:
        raise RuntimeError(f"bot{TOKEN}")
    except RuntimeError as error:
        sys.excepthook(type(error), error, error.__traceback__)
    written = configured.getvalue()
    assert "CRITICAL uncaught" in written and HALF not in written
