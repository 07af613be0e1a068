"""The inbox: Telegram updates wait in Redis, per room, for a worker to handle them.

The webhook answers Telegram as soon as an update is safe in Redis: one round trip, no game
logic (`push`). Updates wait in the inbox of the room they concern, in the order they came: a
group's updates in the group's room, a player's private updates in the room the player is
seated in (so a decoy chosen in private and the vote that follows it in the group are handled in
that order), anything else in an inbox of its own chat.

One drain job at a time owns an inbox (`keys.inbox_owner` holds its token, with a lease) and
handles its updates one by one; the web claims the inbox for a new job only when no job owns it.
An update leaves the inbox only after it was handled, so a worker killed mid-job loses nothing:
the sweeper gives an inbox that stopped moving to a new job (`takeover`), and the old job, if
it was only slow, stops at its next step. An update handled twice this way is applied once (the
store keeps the ids of the updates it applied).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, RedisError

from engine.roomid import RoomId
from engine.store import keys
from engine.store.replicas import NotReplicated, Replicas

# How long an update id is remembered at the door (one key of ~90 bytes per update). Telegram
# repeats an update we took in only when our 200 was lost on the way. A repeat later than this
# still changes no room (the store keeps the ids it applied for a day): at worst a reply to
# /help or /rules is given twice.
SEEN_SECONDS = 3600
LEASE_MS = 60_000  # an owner that neither moves on nor is swept loses the inbox after this

# Take an update in, unless its id was seen; queue the inbox for a worker unless a job owns it.
# KEYS: seen key, the sender's player key. Returns 0 for a repeated update, else 1.
_PUSH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[8]) then
  -- A write even so: a WAIT after it then covers the first copy's writes too.
  redis.call('EXPIRE', KEYS[1], ARGV[8])
  return 0
end
local chat = ARGV[2]
if ARGV[3] == '1' then
  local room = redis.call('GET', KEYS[2])
  if room then chat = room end
end
redis.call('RPUSH', string.format(ARGV[9], chat), ARGV[1])
redis.call('ZADD', ARGV[7], 'NX', now, chat)
if redis.call('SET', string.format(ARGV[10], chat), ARGV[5], 'NX', 'PX', ARGV[4]) then
  redis.call('RPUSH', ARGV[6], chat .. ' ' .. ARGV[5])
end
return 1
"""

# One step of a drain job: drop the update it handled (ARGV[2] == '1'), then return the next
# one, or finish. KEYS: inbox, owner, sweep set, ready list.
# ARGV: token, handled, lease ms, chat id, '1' to give the rest to a new job at the back.
# Times in the sweep set are Redis's, whichever process's clock is off.
_NEXT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return {'lost'} end
if ARGV[2] == '1' then redis.call('LPOP', KEYS[1]) end
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then
  redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[4])
  return {'done'}
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], now, ARGV[4])
if ARGV[5] == '1' then
  redis.call('RPUSH', KEYS[4], ARGV[4] .. ' ' .. ARGV[1])
  return {'yielded'}
end
return {'next', head}
"""

# Give a stalled inbox to a new job (same KEYS; ARGV: new token, lease ms, chat id).
# Returns 1 when a job was queued, 0 when nothing waits (the inbox is then released).
_TAKEOVER = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[3])
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[3], now, ARGV[3])
redis.call('RPUSH', KEYS[4], ARGV[3] .. ' ' .. ARGV[1])
return 1
"""


def route(update: dict[str, Any]) -> tuple[RoomId, int] | None:
    """Where an update waits: (room, sender id). A group's update waits in its room (a forum
    topic's in the topic's); a private chat's update (sender == chat) goes to the sender's
    room if there is one. None for updates the bot does not handle."""
    for kind in ("message", "edited_message", "my_chat_member", "chat_member"):
        body = update.get(kind)
        if isinstance(body, dict):
            where, sender = _room_of(body), body.get("from")
            if where is None:
                return None
            user = sender.get("id") if isinstance(sender, dict) else None
            return where, user if isinstance(user, int) else 0
    query = update.get("callback_query")
    if isinstance(query, dict):
        sender = query.get("from")
        user = sender.get("id") if isinstance(sender, dict) else None
        if not isinstance(user, int):
            return None
        message = query.get("message")
        where = _room_of(message) if isinstance(message, dict) else None
        if where is not None:
            return where, user
        return RoomId(user), user  # a button on a message the bot no longer sees: the sender's
    return None


def _room_of(message: dict[str, Any]) -> RoomId | None:
    """The room of a message as Telegram sends it (a forum topic's when it is a topic message)."""
    chat = message.get("chat")
    if not isinstance(chat, dict) or not isinstance(chat.get("id"), int):
        return None
    thread = message.get("message_thread_id")
    return RoomId.of_message(chat["id"], thread if isinstance(thread, int) and thread > 0 else None,
                             message.get("is_topic_message") is True)  # fmt: skip


UPDATE_KINDS = ("message", "edited_message", "callback_query", "my_chat_member", "chat_member")


def update_kind(update: dict[str, Any]) -> str:
    """The kind of an update (its one field besides `update_id`), for the metrics."""
    return next((kind for kind in UPDATE_KINDS if kind in update), "other")


class WebInbox:
    """The webhook's side: take updates in, asyncio.

    Updates that arrive together go to Redis together: while one batch is on its way, the
    next ones wait and then leave as one pipeline (one write, one round trip). A lone update
    leaves at once; under load the client's cost per update drops to a fraction.
    """

    def __init__(self, client: aioredis.Redis, queue: str, replicas: Replicas | None = None
                 ) -> None:  # fmt: skip
        self.client = client
        self.queue = queue
        self.replicas = replicas
        self._sha = hashlib.sha1(_PUSH.encode()).hexdigest()
        self._waiting: list[tuple[list[Any], asyncio.Future[Any]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def push(self, update_id: int, body: bytes, room: keys.RoomRef, sender: int) -> bool:
        """Queue an update's raw body in its room's inbox (a chat id: the chat's own room);
        False when this update id was taken in before.

        Raises:
            RedisError: Redis did not take it (nothing was queued, or it was queued once).
        """
        where = RoomId.parse(room)
        private = where == RoomId(sender) and sender > 0
        call = [self._sha, 2, keys.update_seen(update_id), keys.player(sender), body, str(where),
                "1" if private else "0", LEASE_MS, update_id,
                keys.inbox_ready(self.queue), keys.pending_inboxes(), SEEN_SECONDS,
                keys.inbox("%s"), keys.inbox_owner("%s")]  # fmt: skip
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((call, done))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())
        return bool(await done)

    async def _send(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await self._execute([call for call, _ in batch])
            except Exception as error:  # every update of the batch gets Redis's refusal
                results = [error] * len(batch)
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():  # its request went away meanwhile
                    continue
                if isinstance(result, Exception):
                    done.set_exception(result)
                else:
                    done.set_result(result)

    async def _execute(self, calls: list[list[Any]]) -> list[Any]:
        """EVALSHA each call in one pipeline; the script is loaded when Redis lacks it (a
        restart, a flush) and the calls it refused are sent again. With a replica, the batch
        counts as taken only once a replica confirmed it (`engine.store.replicas`)."""
        wait = await self._must_wait()
        results, confirmed = await self._pipeline(calls, wait)
        missing = [i for i, r in enumerate(results) if isinstance(r, NoScriptError)]
        if missing:
            await self.client.script_load(_PUSH)
            again, confirmed_again = await self._pipeline([calls[i] for i in missing], wait)
            confirmed += confirmed_again
            for i, result in zip(missing, again, strict=True):
                results[i] = result
        if wait:
            assert self.replicas is not None
            try:
                for answer in confirmed:
                    self.replicas.check(answer)
            except NotReplicated as error:
                return [error] * len(results)
        return results

    async def _must_wait(self) -> bool:
        """Whether the primary has a replica to wait for (asked again every second)."""
        if self.replicas is None:
            return False
        if self.replicas.due:
            try:
                self.replicas.note(await self.client.info("replication"))
            except RedisError:
                self.replicas.note(None)  # the push itself will tell whether Redis answers
        return self.replicas.wanted

    async def _pipeline(self, calls: list[list[Any]], wait: bool) -> tuple[list[Any], list[Any]]:
        """The calls' results, and WAIT's answer (when asked for) as a list of one."""
        async with self.client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.execute_command("EVALSHA", *call)
            if wait:
                assert self.replicas is not None
                pipe.wait(1, self.replicas.timeout_ms)
            results = list(await pipe.execute(raise_on_error=False))
        if wait:
            return results[:-1], results[-1:]
        return results, []


@dataclass(frozen=True)
class Step:
    """What a drain job does next: handle `update`, or stop (`done`, `lost`, `yielded`)."""

    state: str
    update: bytes | None = None


class Inbox:
    """The workers' side: drain an inbox one update at a time; take over stalled ones."""

    def __init__(self, client: redis.Redis, queue: str) -> None:
        self.client = client
        self.ready = keys.inbox_ready(queue)
        self._next = client.register_script(_NEXT)
        self._takeover = client.register_script(_TAKEOVER)

    def _keys(self, where: keys.RoomRef) -> list[str]:
        return [keys.inbox(where), keys.inbox_owner(where), keys.pending_inboxes(),
                self.ready]  # fmt: skip

    def next(self, where: keys.RoomRef, token: str, handled: bool, give_up: bool = False
             ) -> Step:  # fmt: skip
        """Drop the update just handled, if any; the next step for the owner `token`."""
        raw = self._next(
            keys=self._keys(where),
            args=[token, "1" if handled else "0", LEASE_MS, str(where),
                  "1" if give_up else "0"],
        )  # fmt: skip
        state = raw[0].decode() if isinstance(raw[0], bytes) else raw[0]
        return Step(state, raw[1] if len(raw) > 1 else None)

    def takeover(self, where: keys.RoomRef) -> bool:
        """Give the inbox to a new job; False when nothing waits in it."""
        token = "s" + secrets.token_hex(6)
        return bool(self._takeover(keys=self._keys(where),
                                   args=[token, LEASE_MS, str(where)]))  # fmt: skip
