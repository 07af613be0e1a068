"""The application service: run a command through the store, queue what it shows, set timers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import redis
from redis.commands.core import Script

from engine.commands import Command
from engine.events import AnyEvent
from engine.games.base import Games
from engine.model import Room
from engine.roomid import RoomId
from engine.store import Outcome, Store, keys
from engine.store.scripts import script
from tgbot.egress.outgoing import Outgoing
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look
from tgbot.table.screens import Lineup

STARTED_TTL = 365 * 24 * 3600
AWAITING_TTL = 24 * 3600  # a lobby lasts a day at most

# Queue messages behind the chat's others; one marked `once` only if the same answer does not
# wait already. KEYS: the outbox, then the answers' markers; ARGV: ttl, then per message the
# index of its marker in KEYS (0: none) and the entry.
_SHOW = """
local pushed = 0
for i = 2, #ARGV, 2 do
  local marker = tonumber(ARGV[i])
  if marker == 0 or redis.call('SET', KEYS[marker], '1', 'NX', 'EX', ARGV[1]) then
    redis.call('RPUSH', KEYS[1], ARGV[i + 1])
    pushed = pushed + 1
  end
end
return pushed
"""
ONCE_TTL = 600  # an answer's marker outlives a lost delivery by at most this

# Queue messages only while the room is at the version they were rendered from.
_PUSH_IF_CURRENT = """
if redis.call('HGET', KEYS[1], 'ver') ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[2], unpack(ARGV, 2))
return 1
"""


class Dispatch(Protocol):
    """Where delivery and timers happen (RQ workers in production)."""

    def flush(self, where: RoomId) -> None:
        """Deliver the room's outbox soon, in order."""

    def schedule(self, room: Room, events: list[AnyEvent]) -> None:
        """Set the timer of the room's current phase, if the events started one."""

    def resume(self, room: Room) -> None:
        """Set the timer of the room's current phase again, if it has one (harmless when it
        is set already)."""


@dataclass
class Service:
    """Everything a handler or a job needs to play a command; built by the composition root."""

    store: Store
    redis: redis.Redis
    look: Look
    dispatch: Dispatch
    timer_scale: float = 1.0
    quick_timers: bool = False
    """Lobbies start from quick timers (`tgbot.local.quick`)."""

    @property
    def games(self) -> Games:
        """The games the bot hosts."""
        return self.look.lineup.games

    @property
    def lineup(self) -> Lineup:
        """The games the bot hosts, with their Telegram sides."""
        return self.look.lineup

    def lua(self, source: str) -> Script:
        """A Lua script on this service's Redis, registered once per process."""
        return script(self.redis, source)

    def run(
        self,
        where: RoomId,
        command: Command,
        *,
        update_id: int | None = None,
        settings_mode: bool = False,
        typed_by: int | None = None,
    ) -> Outcome:
        """Apply a command; queue its messages with the commit and start their delivery
        (`typed_by`: the user whose text typed in private the command is).

        Raises:
            RuleError, CorruptRoom, StoreBusy: from the store; nothing changed.
        """

        def render(room: Room, events: list[AnyEvent], now: float) -> list[str]:
            look = self.look.at(now)
            out = outgoing_for(room, events, look, settings_mode, typed_by=typed_by)
            return [o.model_dump_json() for o in out]

        outcome = self.store.execute(where, command, update_id=update_id, outbox=render)
        # A duplicate may be an update handled again after its first handling crashed between
        # the commit and these lines: ask for delivery again (an empty outbox costs nothing)
        # and set the room's timer again (setting it twice is harmless).
        self.dispatch.flush(where)
        if outcome.duplicate:
            room = self.store.load(where)
            if room is not None:
                self.dispatch.resume(room)
        elif outcome.room is not None:
            self.dispatch.schedule(outcome.room, outcome.events)
        return outcome

    def show(self, where: RoomId, *messages: Outgoing) -> None:
        """Queue messages that no command produced (answers, menus) behind the room's others;
        an answer marked `once` is left out while the same answer still waits for delivery."""
        markers = [keys.answer_pending(where, m.once) for m in messages if m.once]
        args: list[str | int] = [ONCE_TTL]
        marker = 1
        for message in messages:
            if message.once:
                marker += 1
            args += [marker if message.once else 0, message.model_dump_json()]
        if self.lua(_SHOW)(keys=[keys.outbox(where), *markers], args=args):
            self.dispatch.flush(where)

    def show_if_current(self, room: Room, *messages: Outgoing) -> bool:
        """Queue messages rendered from `room` unless a command changed the room meanwhile
        (its own messages are newer). True when they were queued."""
        entries = [m.model_dump_json() for m in messages]
        queued = self.lua(_PUSH_IF_CURRENT)(
            keys=[keys.room(room.room_id), keys.outbox(room.room_id)],
            args=[room.version, *entries],
        )
        if queued:
            self.dispatch.flush(room.room_id)
        return bool(queued)

    def mark_started(self, user_id: int) -> None:
        """Remember that a user opened a private chat with the bot."""
        self.redis.set(keys.started(user_id), 1, ex=STARTED_TTL)

    def has_started(self, user_id: int) -> bool:
        """Whether a user has opened a private chat with the bot."""
        return bool(self.redis.exists(keys.started(user_id)))

    def note_awaiting(self, user_id: int, where: RoomId) -> None:
        """Remember the room whose Join a user pressed without a private chat, so a plain
        `/start` (the bot found by name, not through its link) seats them there too."""
        self.redis.set(keys.awaiting_join(user_id), str(where), ex=AWAITING_TTL)

    def take_awaiting(self, user_id: int) -> RoomId | None:
        """The room a user pressed Join in before opening this chat, forgotten once asked."""
        raw = self.redis.getdel(keys.awaiting_join(user_id))
        return RoomId.parse(raw.decode() if isinstance(raw, bytes) else raw) if raw else None
