"""The settings module of the Procfile's `rq worker -c workers.rqsettings`.

RQ's command line has no flag for Sentinel: it builds its connection from a settings module's
`REDIS_URL`, or its `SENTINEL` dict when `REDIS_URL` is None. Both come from the same
settings every other process reads (`tgbot.config`, `tgbot.connection`): REDIS_URL alone, or
REDIS_SENTINELS and REDIS_SENTINEL_MASTER (with REDIS_URL's database and credentials). A bad
setting stops the worker at once with one line. With LOG_FORMAT=json, `DICT_CONFIG` makes
RQ's own log lines JSON too.
"""

from __future__ import annotations

import os

from tgbot.config import load
from tgbot.connection import rq_settings
from tgbot.logs import rq_dict_config

_settings = rq_settings(load(require_token=False))

REDIS_URL = _settings["REDIS_URL"]
SENTINEL = _settings.get("SENTINEL")
DICT_CONFIG = rq_dict_config(os.environ)
