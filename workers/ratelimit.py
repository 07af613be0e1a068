"""Telegram's rate limits, shared by every process through Redis.

About 30 messages per second overall, about one per second per chat with short bursts, and at
most 20 new messages per minute in a group (edits count toward the first two only). The
per-process limiter of python-telegram-bot cannot see the other processes, hence this one.

At the global limit, groups take turns (`ratelimit.lua`): one that must wait gets an
appointment after those given out before, and comes back then, so a group with a long backlog
does not starve the others and the waiters come back one at a time, at the rate slots come
free; one whose turn came and that found no free slot is given the next slot nobody claimed,
and keeps it while its job sleeps till then; a private chat goes before every group (a
player's prompt before the table's news). A free slot goes to the group that has waited
longest rather than to whichever job asks first: a caller that finds one it may not have is
handed the oldest waiting group's room to deliver itself (`Handover`), so the groups' turns
keep their order however late their own jobs come back.
"""

from __future__ import annotations

import math
import os
import uuid
from dataclasses import dataclass
from importlib import resources

import redis

from engine.store import keys
from tgbot.egress.delivery import SHORT_WAIT, Handover

# An appointment at the global limit nobody came for this long after it is dropped (its job was
# lost: the sweeper asks for the room's delivery again, which books anew).
STALE = 30.0
# The global window: a second, and a little more against clocks' granularity. Its slots count
# from when Telegram answered (`answered`), which is after Telegram counted the call, whatever
# held the call up on its way; so the window needs no other margin (unlike when it counted from
# the slot's taking: a worker held up for a tenth of a second between its slot and its call,
# on a busy machine, had a later slot's call reach Telegram less than a second after it).
GLOBAL_WINDOW = 1.01
# A private chat waiting for a slot keeps the groups from the free ones until this long after
# it was told to come back (its job may be late; one that never comes must not hold them up).
PRIVATE_HOLD = 0.5
# A group whose turn came and that found no free slot claims the next one that is not claimed
# yet if its job sleeps till then (`SHORT_WAIT`): nobody else takes it for this long after it
# came free (a job that left instead of sleeping must not keep it from the others for long).
CLAIM_HOLD = 0.15
# One whose slot is further off is told to come back this much before it, to claim it then: a
# job sent back comes through the scheduler (woken for its moment, `workers.waking`) and the
# queue.
COME_EARLY = 0.25

# Count a slot taken by ARGV[1] in the global window from now (the call has been answered).
_ANSWERED = """
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) + tonumber(t[2]) / 1e6, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# A group handed a slot whose room had no message for it (KEYS: claims, appointments, their
# rooms; ARGV[1] the chat): while the slot is still claimed for it, the claim and its
# appointment go (else the slot would be handed to it again and again, for nothing, until
# the appointment went stale). 1 when they went.
_NOTHING_TO_SEND = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""


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
        self._answered = client.register_script(_ANSWERED)
        self._nothing_to_send = client.register_script(_NOTHING_TO_SEND)
        self._client = client
        self._taken: dict[int, str] = {}  # chat → its slot whose call is under way

    def reserve(self, chat_id: int, is_edit: bool = False, room: str | None = None,
                hand: bool = False) -> float:  # fmt: skip
        """Return 0 and take a slot, or the seconds to wait before trying again (a group whose
        turn came, told to wait no longer than `SHORT_WAIT`, has its slot claimed till then).
        `room`: the room whose delivery asks (a group's appointment notes it). With `hand`, a
        free slot the group may not have is handed to the group that has waited longest: the
        wait returned is then a `Handover` naming that group's room, which the caller
        delivers at once."""
        lim = self.limits
        taken = uuid.uuid4().hex
        answer = self._script(
            keys=[keys.rate_global(), keys.rate_chat(chat_id), keys.rate_group(chat_id),
                  keys.rate_turns(), keys.rate_private_waits(), keys.rate_claims(),
                  keys.rate_turn_rooms()],
            args=[
                int(chat_id < 0),
                int(is_edit),
                taken,
                lim.global_per_second,
                lim.chat_per_second,
                lim.chat_burst,
                lim.group_per_minute,
                lim.slack,
                chat_id,
                self.stale,
                GLOBAL_WINDOW,
                PRIVATE_HOLD,
                SHORT_WAIT,
                CLAIM_HOLD,
                COME_EARLY,
                room or "",
                int(hand),
            ],
        )
        text = answer.decode() if isinstance(answer, bytes) else str(answer)
        seconds, _, handed = text.partition(" ")
        wait = float(seconds)
        if wait == 0:
            self._taken[chat_id] = taken
        return Handover(wait, handed) if handed else wait

    def forgo(self, chat_id: int) -> None:
        """The caller will not sleep through the short wait it was told for the chat: a slot
        claimed for it is left to the others."""
        self._client.zrem(keys.rate_claims(), chat_id)

    def nothing_to_send(self, chat_id: int) -> None:
        """A slot was handed to the group, and its room had no message for it (`Handover`):
        the slot, if still claimed for it, goes to the others, and its turn is over."""
        self._nothing_to_send(keys=[keys.rate_claims(), keys.rate_turns(),
                                    keys.rate_turn_rooms()], args=[chat_id])  # fmt: skip

    def answered(self, chat_id: int, pipe: redis.client.Pipeline | None = None) -> None:
        """The call the chat's last slot was taken for is over (answered, refused or failed):
        the slot counts from now in the global window, as Telegram may have counted it as
        late as this (`pipe`: from when the pipeline is executed, with its other commands)."""
        taken = self._taken.pop(chat_id, None)
        if taken is None:
            return
        args = [taken, math.ceil(GLOBAL_WINDOW) + 1]
        if pipe is None:
            self._answered(keys=[keys.rate_global()], args=args)
        else:  # by its text: a script registered with a pipeline costs it a look (SCRIPT EXISTS)
            pipe.eval(_ANSWERED, 1, keys.rate_global(), *args)
