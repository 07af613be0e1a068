"""The Redis store: load a room, apply one command atomically, save it.

The one module of the engine that does I/O. A command is applied optimistically: read the
room and its version, run the pure rules, then commit with a compare-and-set Lua script
(`commit.lua`) that writes only if the version is unchanged, and retry on conflict. Lua rather
than WATCH/MULTI because the commit also checks and records the Telegram update id, the player
index and the lifetime stats in the same atomic step, and a script costs one round trip where
WATCH/MULTI costs three and thrashes under contention.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

import redis
from pydantic import ValidationError

from engine.commands import Command, Join, OpenLobby
from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent, PlayerLeftLobby
from engine.games.base import Games
from engine.model import OVER_PHASES, SCHEMA_VERSION, Phase, Room, SeatStatus, is_ai_user
from engine.roomid import RoomId
from engine.rules import apply
from engine.store import keys
from engine.store.replicas import Replicas
from engine.store.stats import TOP_WINDOW, Line, leaderboard, player_figures
from engine.store.stats import increments as stats_increments

log = logging.getLogger(__name__)

DAY = 24 * 3600
MAX_ATTEMPTS = 200
_CONFLICT, _DUPLICATE, _ELSEWHERE = -1, -2, -3


Render = Callable[[Room, list[AnyEvent], float], list[str]]
"""Renders the outbox entries of a new state and its events, at the command's time."""


LANGUAGE_TTL = 400 * 24 * 3600  # a group's or a player's language outlives a year's pause


class CorruptRoom(Exception):
    """A room's stored data cannot be read; it is left untouched for a human to look at."""

    def __init__(self, room: keys.RoomRef, reason: str) -> None:
        super().__init__(f"room {room}: {reason}")
        self.room = room
        self.reason = reason


class StoreBusy(Exception):
    """A command kept losing the compare-and-set race and gave up."""


@dataclass(frozen=True)
class Outcome:
    """What applying a command did: the new room and its events, or nothing for a duplicate."""

    room: Room | None
    events: list[AnyEvent] = field(default_factory=list)
    duplicate: bool = False


@dataclass
class Retention:
    """How long rooms and markers are kept, in seconds."""

    finished_room: int = 7 * DAY
    lobby: int = DAY + 3600  # outlives the day after which an idle lobby closes, saying so
    applied_update: int = DAY


def parse_stored(games: Games, where: keys.RoomRef, raw: bytes | str | None) -> Room | None:
    """A room from its stored JSON (upgraded when an older version wrote it), or None for none.

    Raises:
        CorruptRoom: the stored data does not parse or has an unknown schema version.
    """
    if raw is None:
        return None
    try:
        return games.parse_room(raw)  # the fast path; say what is wrong below
    except ValidationError:
        pass
    try:
        data = json.loads(raw)
        version = data.get("schema_version") if isinstance(data, dict) else None
        room = games.load_room(data) if version == SCHEMA_VERSION else None
        reason = f"unknown schema version {version!r}"
    except (ValueError, ValidationError) as error:
        room, reason = None, f"state does not parse: {error}"
    if room is None:
        log.error("corrupt room %s, left untouched: %s", where, reason)
        raise CorruptRoom(where, reason)
    return room


class Store:
    """Rooms in Redis, any number of processes applying commands to them at once. A room is
    named by its `RoomId`, or by a chat id for the chat's own room (`keys.RoomRef`)."""

    def __init__(
        self,
        client: redis.Redis,
        games: Games,
        retention: Retention | None = None,
        clock: Callable[[], float] = time.time,
        replicas: Replicas | None = None,
    ) -> None:
        self.redis = client
        self.games = games
        self.retention = retention or Retention()
        self.clock = clock
        self.replicas = replicas
        self.conflicts = 0
        source = resources.files(__package__).joinpath("commit.lua").read_text()
        self._commit = client.register_script(source)

    def load(self, room: keys.RoomRef) -> Room | None:
        """Return a room, or None if there is none.

        Raises:
            CorruptRoom: the stored data does not parse or has an unknown schema version.
        """
        return self._parse(room, cast(bytes | None, self.redis.hget(keys.room(room), "state")))

    def _parse(self, where: keys.RoomRef, raw: bytes | str | None) -> Room | None:
        return parse_stored(self.games, where, raw)

    def execute(
        self,
        where: keys.RoomRef,
        command: Command,
        *,
        update_id: int | None = None,
        now: float | None = None,
        outbox: Render | None = None,
    ) -> Outcome:
        """Apply one command to a room atomically, at most once per Telegram update.

        `outbox` renders what the new state and its events show; the rendered entries are
        appended to the chat's outbox in the same atomic step as the commit, so entries of
        concurrent commands queue in the order the commands were applied.

        Raises:
            RuleError: the rules refuse the command (nothing changed).
            CorruptRoom: the room's data cannot be read.
            StoreBusy: too many concurrent writers; nothing changed.
        """
        marker = self._markers(where) if update_id is not None else None
        for attempt in range(MAX_ATTEMPTS):
            ver, raw = cast(list[Any], self.redis.hmget(keys.room(where), ["ver", "state"]))
            room = self._parse(where, raw)
            was_running = room is not None and room.phase not in OVER_PHASES
            was_playing = _playing(room)
            seating = _seating(room)
            at = self.clock() if now is None else now
            try:
                new, events = apply(room, command, at, self.games, owned=True)
            except RuleError:
                # An update already applied is a duplicate, whatever the rules say of it now
                # (an accepted one is caught by the commit script). Refuse only on the current
                # state: a stale read could refuse what the room as it is now accepts.
                current, applied = self._recheck(where, marker, update_id)
                if applied:
                    return Outcome(room=None, duplicate=True)
                if current == ver:
                    raise
                self.conflicts += 1
                continue
            reindex = seating is None or seating != _seating(new)
            entries = outbox(new, events, at) if outbox is not None else []
            result = self._try_commit(
                where,
                ver,
                was_running,
                new,
                events,
                command,
                marker,
                entries,
                reindex,
                update_id,
                was_playing,
                at,
            )
            if result[0] == 1:
                return Outcome(room=None if new.phase is Phase.CLOSED else new, events=events)
            if result[0] == _DUPLICATE:
                return Outcome(room=None, duplicate=True)
            if result[0] == _ELSEWHERE:
                raise RuleError(ErrorCode.IN_OTHER_GAME, self._title(RoomId.parse(result[1])))
            self.conflicts += 1
            time.sleep(random.random() * min(0.002 * (attempt + 1), 0.02))
        raise StoreBusy(f"room {where}: gave up after {MAX_ATTEMPTS} conflicts")

    def _try_commit(
        self,
        where: keys.RoomRef,
        ver: Any,
        was_running: bool,
        new: Room,
        events: list[AnyEvent],
        command: Command,
        marker: list[str] | None,
        entries: list[str],
        reindex: bool = True,
        update_id: int | None = None,
        was_playing: bool = False,
        now: float = 0.0,
    ) -> list[Any]:
        expected = ver.decode() if isinstance(ver, bytes) else (ver or "-1")
        players = self._player_ops(new, events) if reindex else []
        claim = 0
        if isinstance(command, Join | OpenLobby):
            claim = 1 + [uid for uid, _ in players].index(command.user_id)
        stats = stats_increments(new, self.games.named(new.game), now) if was_running else []
        state = "" if new.phase is Phase.CLOSED else new.model_dump_json()
        ttl = self._room_ttl(new)
        player_ttl = self.retention.lobby if new.phase is Phase.LOBBY else 0
        key_list = [keys.room(where), *(marker or [])]
        key_list += [keys.player(uid) for uid, _ in players] + [k for k, _ in stats]
        running = _running_op(was_playing, new)
        if running:
            key_list.append(keys.running_games(new.game))
        key_list.append(keys.outbox(where))
        args: list[Any] = [
            expected,
            new.version,
            state,
            ttl,
            self._marker_ttl() if marker else 0,
            claim,
            len(players),
            str(where),
            player_ttl,
            len(entries),
            len(marker or []),
            update_id if update_id is not None else 0,
            running,
        ]
        args += [op for _, op in players] + [line for _, line in stats] + entries
        if self.replicas is None or not self.replicas.refresh(self.redis):
            result: list[Any] = self._commit(keys=key_list, args=args)
            return result
        # A replica exists: the commit counts once one has it (engine/store/replicas.py).
        pipe = self.redis.pipeline(transaction=False)
        self._commit(keys=key_list, args=args, client=pipe)
        pipe.wait(1, self.replicas.timeout_ms)
        result, confirmed = pipe.execute(raise_on_error=False)
        if isinstance(result, Exception):
            raise result
        if result[0] == 1:
            self.replicas.check(confirmed)
        return list(result)

    def _recheck(
        self, where: keys.RoomRef, marker: list[str] | None, update_id: int | None
    ) -> tuple[Any, bool]:
        """The room's version now, and whether the update was applied, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(keys.room(where), "ver")
        for name in marker or []:
            pipe.sismember(name, str(update_id))
        current, *found = pipe.execute()
        return current, any(found)

    # Applied update ids are kept in one set per room and UTC day rather than a key each: a
    # key costs about 90 bytes, a set member a few. A command looks in the sets of the days
    # that can still hold an id applied within the retention period (and tomorrow's, for a
    # process whose clock runs ahead), and adds its id to today's.

    def _days_back(self) -> int:
        return -(-self.retention.applied_update // DAY)

    def _markers(self, where: keys.RoomRef) -> list[str]:
        """Today's set first (the one written), then the others to look in."""
        today = int(time.time() // DAY)  # the wall clock, whatever game time commands carry
        days = [today, *range(today - self._days_back(), today), today + 1]
        return [keys.applied_updates(where, day) for day in days]

    def _marker_ttl(self) -> int:
        return (self._days_back() + 2) * DAY

    def remembered_for(self, where: keys.RoomRef, update_id: int) -> float:
        """How many more seconds an applied update id is recognised (0: it is not)."""
        now = time.time()
        today = int(now // DAY)
        for day in range(today - self._days_back(), today + 2):
            name = keys.applied_updates(where, day)
            if self.redis.sismember(name, str(update_id)):
                until = (day + self._days_back() + 1) * DAY - now
                return max(0.0, min(until, float(cast(int, self.redis.ttl(name)))))
        return 0.0

    def _room_ttl(self, room: Room) -> int:
        if room.phase is Phase.LOBBY:
            return self.retention.lobby
        if room.phase in OVER_PHASES:
            return self.retention.finished_room
        return 0

    @staticmethod
    def _player_ops(room: Room, events: list[AnyEvent]) -> list[tuple[int, str]]:
        """Keep the player → room index in step with the seats."""
        over = room.phase in OVER_PHASES
        ops = [
            (seat.user_id, "del" if over or seat.status is SeatStatus.LEFT else "set")
            for seat in room.seats
            if not seat.ai
        ]
        ops += [
            (e.user_id, "del")
            for e in events
            if isinstance(e, PlayerLeftLobby) and not is_ai_user(e.user_id)
        ]
        return ops

    def _title(self, where: RoomId) -> str:
        try:
            room = self.load(where)
        except CorruptRoom:
            room = None
        return room.title if room and room.title else str(where.chat)

    def room_of_player(self, user_id: int) -> RoomId | None:
        """Return the room of the game a player is seated in, if any."""
        raw = cast(bytes | None, self.redis.get(keys.player(user_id)))
        return RoomId.parse(raw) if raw is not None else None

    def user_stats(self, user_id: int) -> dict[str, dict[str, int]]:
        """A player's lifetime figures, by game."""
        figures = _ints(cast(dict[Any, Any], self.redis.hgetall(keys.user_stats(user_id))))
        return player_figures(figures, self.games.default.name)

    def leaderboard(self, chat_id: int, game: str, now: float) -> list[Line]:
        """A group's leaderboard of a game's last 90 days (at most ten lines)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrangebyscore(keys.leaderboard(chat_id, game), now - TOP_WINDOW, "+inf")
        pipe.hgetall(keys.player_names(chat_id))
        members, names = pipe.execute()
        return leaderboard([_str(m) for m in members],
                           {_str(k): _str(v) for k, v in names.items()})  # fmt: skip

    def group_stats(self, chat_id: int) -> dict[str, int]:
        """Lifetime stats of a group."""
        return _ints(cast(dict[Any, Any], self.redis.hgetall(keys.group_stats(chat_id))))

    def delete_room(self, chat_id: int) -> None:
        """Forget a group's rooms (the bot was removed from it): the chat's own and those of
        its forum topics, their keys and their players' index."""
        own = keys.room_prefix(chat_id)
        topics = own[: -len("}:")] + "_"  # `{…room:<chat>_<topic>}:…`
        names = [*self.redis.scan_iter(match=_glob(own) + "*", count=500),
                 *self.redis.scan_iter(match=_glob(topics) + "*", count=500)]  # fmt: skip
        rooms = {RoomId(chat_id)} | {  # `{…room:<room>}:…` → <room>
            RoomId.parse(_str(name).split("}", 1)[0].rsplit("room:", 1)[1]) for name in names
        }
        pipe = self.redis.pipeline()
        for where in sorted(rooms):
            try:
                room = self.load(where)
            except CorruptRoom:
                room = None
            for seat in room.seats if room else []:
                if self.room_of_player(seat.user_id) == where:  # a left seat may sit elsewhere
                    pipe.delete(keys.player(seat.user_id))
            for game in self.games:
                pipe.srem(keys.running_games(game), str(where))
        for key in names:
            pipe.delete(key)
        pipe.execute()

    def migrate(self, old_chat: int, new_chat: int) -> None:
        """Move a group's game and stats to its new chat id (it became a supergroup)."""
        room = self.load(old_chat)
        pipe = self.redis.pipeline(transaction=True)
        if room is not None:
            moved = room.model_copy(update={"chat_id": new_chat})
            pipe.hset(
                keys.room(new_chat),
                mapping={"ver": moved.version, "state": moved.model_dump_json()},
            )
            ttl = cast(int, self.redis.ttl(keys.room(old_chat)))
            if ttl > 0:
                pipe.expire(keys.room(new_chat), ttl)
            for seat in moved.seats:
                if self.room_of_player(seat.user_id) == RoomId(old_chat):
                    pipe.set(keys.player(seat.user_id), new_chat, ex=ttl if ttl > 0 else None)
        for name, value in self.group_stats(old_chat).items():
            pipe.hincrby(keys.group_stats(new_chat), name, value)
        # What the group chose for its games: its language, its last settings of each game.
        old_prefix, new_prefix = keys.room_prefix(old_chat), keys.room_prefix(new_chat)
        chosen = [
            keys.group_language(old_chat),
            keys.group_game(old_chat),
            *self.redis.scan_iter(match=_glob(old_prefix) + "settings:*", count=100),
        ]
        for key in chosen:
            name = key.decode() if isinstance(key, bytes) else str(key)
            kept = cast(bytes | None, self.redis.get(name))
            if kept is not None:
                pipe.set(new_prefix + name[len(old_prefix) :], kept, ex=LANGUAGE_TTL)
        pipe.delete(keys.room(old_chat), keys.group_stats(old_chat), *chosen)
        # Its recent games (for /top), their players' names, who waits for its next lobby.
        boards = [
            (keys.leaderboard(old_chat, g), keys.leaderboard(new_chat, g)) for g in self.games
        ]
        for old_key, new_key in [
            *boards,
            (keys.player_names(old_chat), keys.player_names(new_chat)),
            (keys.notify(old_chat), keys.notify(new_chat)),
        ]:
            if self.redis.exists(old_key):
                pipe.rename(old_key, new_key)
        if room is not None and _playing(room):
            pipe.srem(keys.running_games(room.game), old_chat)
            pipe.sadd(keys.running_games(room.game), new_chat)
        pipe.execute()


def _playing(room: Room | None) -> bool:
    """Whether a game is being played in the room (a lobby or a game over is not)."""
    return room is not None and room.phase is not Phase.LOBBY and room.phase not in OVER_PHASES


def _running_op(was_playing: bool, new: Room) -> str:
    """How the commit changes the set of running games: "add", "rem" or ""."""
    playing = _playing(new)
    if playing == was_playing:
        return ""
    return "add" if playing else "rem"


def _seating(room: Room | None) -> list[tuple[int, bool]] | None:
    """What the player index of a running game follows: who sits, who left. None for a lobby
    (its index keys expire with it, so each commit refreshes them) or a room without a game."""
    if room is None or room.phase is Phase.LOBBY or room.phase in OVER_PHASES:
        return None
    return [(seat.user_id, seat.status is SeatStatus.LEFT) for seat in room.seats]


def _str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _ints(raw: dict[Any, Any]) -> dict[str, int]:
    return {_str(k): int(v) for k, v in raw.items()}


def _glob(prefix: str) -> str:
    """Escape the glob characters of a key prefix (the hash tag's braces are literal)."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in prefix)
