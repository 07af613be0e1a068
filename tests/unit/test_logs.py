"""LOG_FORMAT=json: one JSON object per line, naming the chat and update being handled."""

from __future__ import annotations

import json
import logging
import sys

from tgbot.ops import logs
from tgbot.ops.redact import Redactor


def record(message: str, *args: object, exc: bool = False) -> logging.LogRecord:
    info = sys.exc_info() if exc else None
    return logging.LogRecord("workers.jobs", logging.WARNING, __file__, 1, message, args, info)


def test_a_json_line_names_the_time_level_process_chat_update_and_message(monkeypatch):
    monkeypatch.setenv("HINTRIGUE_PROCESS", "worker")
    with logs.about(chat=-100), logs.about(update_id=7):
        line = logs.JsonFormatter().format(record("update %s failed", 7))
    assert "\n" not in line
    found = json.loads(line)
    assert found["level"] == "WARNING"
    assert found["process"].startswith("worker.")
    assert (found["chat"], found["update_id"]) == (-100, 7)
    assert found["message"] == "update 7 failed"
    assert found["time"].endswith("+00:00")


def test_outside_an_update_a_line_names_neither_and_a_traceback_stays_on_its_line():
    try:
        raise ValueError("a\nb")
    except ValueError:
        line = logs.JsonFormatter().format(record("boom", exc=True))
    found = json.loads(line)
    assert "chat" not in found and "update_id" not in found
    assert "ValueError: a\nb" in found["error"]
    assert len(line.splitlines()) == 1


def test_json_only_when_asked():
    assert logs.wants_json({"LOG_FORMAT": "JSON"})
    assert not logs.wants_json({})
    json_lines = logs.dict_config({"LOG_FORMAT": "json"})
    assert json_lines["formatters"]["line"]["()"] is logs.JsonFormatter
    assert logs.dict_config({})["formatters"]["line"] == {"format": logs.TEXT_FORMAT}


def test_both_formats_mask_secrets_on_the_one_handler_and_keep_httpx_quiet():
    for env in ({}, {"LOG_FORMAT": "json"}):
        config = logs.dict_config(env)
        assert config["root"]["handlers"] == ["out"]
        assert config["handlers"]["out"]["filters"] == ["redact"]
        assert config["filters"]["redact"]["()"] is Redactor
        assert config["loggers"]["httpx"] == config["loggers"]["httpcore"] == {"level": "WARNING"}
