"""The settings module of the Procfile's `rq worker -c workers.rqsettings`.

RQ's command line has no flag for Sentinel: it builds its connection from a settings module's
`REDIS_URL`, or its `SENTINEL` dict when `REDIS_URL` is None. Both come from the same
settings every other process reads (`tgbot.ops.config`, `tgbot.ops.connection`): REDIS_URL alone, or
REDIS_SENTINELS and REDIS_SENTINEL_MASTER (with REDIS_URL's database and credentials). A bad
setting stops the worker at once with one line.

RQ reads this module before it logs anything or runs a job: the worker's logging is set up
here, as every other process's (`tgbot.ops.logs.setup`: text or JSON lines, secrets masked, those
of a `.env` file too), and `DICT_CONFIG` is the same configuration for RQ to apply again.
"""

from __future__ import annotations

import os

from tgbot.ops import logs
from tgbot.ops.config import load
from tgbot.ops.connection import rq_settings

_config = load(require_token=False)
logs.setup(os.environ, _config)
_settings = rq_settings(_config)

REDIS_URL = _settings["REDIS_URL"]
SENTINEL = _settings.get("SENTINEL")
DICT_CONFIG = logs.dict_config(os.environ, _config)
