"""Settings come from the environment and `.env`, typed; a bad one stops a process with one
clear line and exit status 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tgbot.ops.config import ConfigError, from_env, read_settings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123:abc"


def run(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_BOT_TOKEN", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_values_are_typed_and_defaults_filled_in():
    config = from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "PORT": "9000", "TIMER_SCALE": "0.5",
                       "REDIS_REPLICA_WAIT_MS": "0", "ACCESS_LOG": "1"})  # fmt: skip
    assert (config.port, config.timer_scale, config.replica_wait_ms) == (9000, 0.5, 0)
    assert config.access_log and not config.quick_timers
    assert config.queue == "hintrigue-123" and config.redis_url == "redis://localhost:6379/0"


def test_an_empty_variable_counts_as_unset():
    config = from_env({"TELEGRAM_BOT_TOKEN": TOKEN, "REDIS_REPLICA_WAIT_MS": "", "RQ_QUEUE": ""})
    assert config.replica_wait_ms == 300 and config.queue == "hintrigue-123"


@pytest.mark.parametrize(
    ("name", "value"),
    [("REDIS_REPLICA_WAIT_MS", "soon"), ("REDIS_REPLICA_WAIT_MS", "-5"), ("TIMER_SCALE", "fast"),
     ("TIMER_SCALE", "0"), ("PORT", "http"), ("QUICK_TIMERS", "maybe")],
)  # fmt: skip
def test_a_bad_value_is_named_with_what_it_was_given(name: str, value: str):
    with pytest.raises(ConfigError) as raised:
        from_env({"TELEGRAM_BOT_TOKEN": TOKEN, name: value})
    message = str(raised.value)
    assert message.startswith(f"{name}={value!r}: ") and "\n" not in message, message


def test_a_missing_token_is_said_plainly():
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN is not set"):
        from_env({"REDIS_URL": "redis://h:1/0"})


def test_a_dotenv_file_in_the_working_directory_is_read(tmp_path: Path, monkeypatch):
    (tmp_path / ".env").write_text("TELEGRAM_BOT_TOKEN=42:xyz\nTIMER_SCALE=0.25\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.setenv("TIMER_SCALE", "2")  # the environment wins over the file
    settings = read_settings()
    assert (settings.telegram_bot_token, settings.timer_scale) == ("42:xyz", 2.0)


@pytest.mark.parametrize(
    ("command", "name"),
    [(["-m", "tgbot", "web"], "REDIS_REPLICA_WAIT_MS"),
     (["-m", "tgbot", "set-webhook"], "PORT"),
     (["-m", "tgbot", "poll"], "TIMER_SCALE"),
     (["-c", "import workers.rqsettings"], "TIMER_SCALE")],
)  # fmt: skip
def test_each_process_stops_on_a_bad_value_with_one_line_and_status_2(command, name, tmp_path):
    done = run(*command, cwd=tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, **{name: "twelve"})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"hintrigue: configuration: {name}='twelve': "), done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_the_local_run_stops_on_a_bad_timer_scale_the_same_way(tmp_path: Path):
    done = run("-m", "tgbot", cwd=tmp_path, TIMER_SCALE="fast")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("hintrigue: configuration: TIMER_SCALE='fast': "), done.stderr


def test_a_missing_token_stops_a_production_process_with_status_2(tmp_path: Path):
    done = run("-m", "tgbot", "web", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == "hintrigue: configuration: TELEGRAM_BOT_TOKEN is not set"


def test_help_lists_every_process():
    done = run("-m", "tgbot", "--help")
    assert done.returncode == 0, done.stderr
    for mode in ("web", "set-webhook", "poll", "dev"):
        assert f"  {mode} " in done.stdout, done.stdout


def test_an_unknown_command_is_refused_with_the_usage():
    done = run("-m", "tgbot", "serve", TELEGRAM_BOT_TOKEN=TOKEN)
    assert done.returncode == 2 and "unknown command 'serve'" in done.stderr
    assert "set-webhook" in done.stderr
