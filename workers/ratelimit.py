"""Telegram's rate limits, shared by every process through Redis.

About 30 messages per second overall, about one per second per chat with short bursts, and at
most 20 new messages per minute in a group (edits count toward the first two only). The
per-process limiter of python-telegram-bot cannot see the other processes, hence this one.

At the global limit, groups take turns (`ratelimit.lua`): one that must wait gets an
appointment after those given out before, and comes back then, so a group with a long backlog
does not starve the others and the waiters come back one at a time, at the rate slots come
free; a private chat goes before every group (a player's prompt before the table's news).
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from importlib import resources

import redis

from engine.store import keys

# An appointment at the global limit nobody came for this long after it is dropped (its job was
# lost: the sweeper asks for the room's delivery again, which books anew).
STALE = 30.0


@dataclass(frozen=True)
class Limits:
    """The limits, settable from the environment for a Bot API server with other ones."""

    global_per_second: int = 30
    chat_per_second: float = 1.0
    chat_burst: int = 3
    group_per_minute: int = 20
    slack: float = 0.05

    @classmethod
    def from_env(cls) -> Limits:
        """Read `RATE_*` overrides."""
        env = os.environ
        return cls(
            global_per_second=int(env.get("RATE_GLOBAL_PER_SECOND", cls.global_per_second)),
            chat_per_second=float(env.get("RATE_CHAT_PER_SECOND", cls.chat_per_second)),
            chat_burst=int(env.get("RATE_CHAT_BURST", cls.chat_burst)),
            group_per_minute=int(env.get("RATE_GROUP_PER_MINUTE", cls.group_per_minute)),
            slack=float(env.get("RATE_SLACK", cls.slack)),
        )


class RedisLimiter:
    """Takes a slot for a message, or says how long to wait; atomic across processes."""

    def __init__(self, client: redis.Redis, limits: Limits | None = None,
                 stale: float = STALE) -> None:  # fmt: skip
        self.limits = limits or Limits.from_env()
        self.stale = stale
        source = resources.files(__package__).joinpath("ratelimit.lua").read_text()
        self._script = client.register_script(source)

    def reserve(self, chat_id: int, is_edit: bool = False) -> float:
        """Return 0 and take a slot, or the seconds to wait before trying again."""
        lim = self.limits
        wait = self._script(
            keys=[keys.rate_global(), keys.rate_chat(chat_id), keys.rate_group(chat_id),
                  keys.rate_turns()],
            args=[
                int(chat_id < 0),
                int(is_edit),
                uuid.uuid4().hex,
                lim.global_per_second,
                lim.chat_per_second,
                lim.chat_burst,
                lim.group_per_minute,
                lim.slack,
                chat_id,
                self.stale,
            ],
        )
        return float(wait)
