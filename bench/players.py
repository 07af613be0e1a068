"""Players for the end-to-end benchmark: Telegram updates built by hand and games driven by them.

The driver plays as Telegram would deliver: one update at a time per game, each POSTed to the
webhook over a raw keep-alive HTTP/1.1 connection (a Python HTTP client library would cost more
than the servers it measures). It signs button data with the bot's key; each button press is
first registered with the Bot API double (which must know a callback query before the bot may
answer it).

Once a game has started, the driver reads its room from Redis once and plans every move of the
rest of the game by the rules themselves (`engine.rules.apply`, deterministic given the room's
generator state): so it can send the whole game without waiting for the bot, as players who
never hesitate would, and check at the end that the bot reached the same final room.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import redis.asyncio as aioredis

from engine.commands import GiveHint, Skip
from engine.games.hintrigue.commands import ChooseCard, Command, PlayDecoy, Vote
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.registry import GAMES
from engine.model import Room
from engine.rules import apply as apply_at
from engine.store import keys
from tgbot.games.registry import LINEUP
from tgbot.table.handlers.group import SKIP_GRACE

apply = partial(apply_at, games=GAMES)  # the rules at the bot's table


class Updates:
    """Builds message updates with increasing update ids (presses come from the double)."""

    def __init__(self, first_id: int) -> None:
        self._ids = itertools.count(first_id)
        self._messages = itertools.count(1)

    def message(self, user_id: int, chat_id: int, text: str) -> dict[str, Any]:
        """A text message (a command when it starts with /)."""
        user = {"id": user_id, "is_bot": False, "first_name": f"P{user_id}",
                "username": f"p{user_id}"}  # fmt: skip
        if chat_id > 0:
            chat = {"id": chat_id, "type": "private", "first_name": f"P{chat_id}"}
        else:
            chat = {"id": chat_id, "type": "supergroup", "title": f"Bench {-chat_id}"}
        body: dict[str, Any] = {"message_id": next(self._messages), "date": int(time.time()),
                                "chat": chat, "from": user, "text": text}  # fmt: skip
        if text.startswith("/"):
            body["entities"] = [{"type": "bot_command", "offset": 0,
                                 "length": len(text.split()[0])}]  # fmt: skip
        return {"update_id": next(self._ids), "message": body}


class RawHttp:
    """A pool of keep-alive HTTP/1.1 connections; `post` returns (status, body, seconds)."""

    def __init__(self, host: str, port: int, size: int, headers: dict[str, str] | None = None):
        self.host, self.port, self.size = host, port, size
        self.headers = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.Queue())

    async def open(self) -> None:
        """Open the connections."""
        for _ in range(self.size):
            self._idle.put_nowait(await asyncio.open_connection(self.host, self.port))

    async def close(self) -> None:
        """Close every idle connection."""
        while not self._idle.empty():
            _, writer = self._idle.get_nowait()
            writer.close()

    async def post(self, path: str, payload: dict[str, Any]) -> tuple[int, bytes, float]:
        """POST JSON; the time runs from sending to the end of the answer. A connection the
        server closed while idle (keep-alive timeout) is opened again (all may have been)."""
        for _ in range(self.size):
            try:
                return await self._post(path, payload)
            except (asyncio.IncompleteReadError, ConnectionError):
                continue
        return await self._post(path, payload)

    async def _post(self, path: str, payload: dict[str, Any]) -> tuple[int, bytes, float]:
        body = json.dumps(payload).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\n{self.headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        reader, writer = await self._idle.get()
        try:
            started = time.perf_counter()
            writer.write(head.encode() + body)
            raw = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in raw.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            answer = await reader.readexactly(length) if length else b""
            elapsed = time.perf_counter() - started
        except BaseException:
            writer.close()
            self._idle.put_nowait(await asyncio.open_connection(self.host, self.port))
            raise
        self._idle.put_nowait((reader, writer))
        return int(raw.split(b" ", 2)[1]), answer, elapsed


@dataclass(frozen=True)
class Move:
    """One player's action: a text message, or a press of a button with `data`."""

    user: int
    chat: int
    text: str | None = None
    data: str | None = None
    reveal_of: int | None = None
    """Sent only once the reveal of this round is older than the /skip grace: a /skip in a
    phase's first seconds is refused as meant for the phase before."""


Send = Callable[[dict[str, Any]], Awaitable[None]]
Press = Callable[[int, int, str], Awaitable[dict[str, Any]]]


@dataclass
class Game:
    """One group and its players; plays whole games through `send`."""

    chat_id: int
    users: list[int]
    updates: Updates
    client: aioredis.Redis
    key: bytes
    press: Press
    waits: dict[int, int] = field(default_factory=dict)
    """update_id → the round whose reveal must be older than the /skip grace before it goes."""

    async def room(self) -> Room:
        raw = await self.client.hget(keys.room(self.chat_id), "state")
        assert raw is not None, f"no room {self.chat_id}"
        return GAMES.parse_room(raw)

    async def room_when(self, ready: Callable[[Room], bool], timeout: float = 120) -> Room:
        """The room once the bot has brought it where `ready` says."""
        deadline = time.monotonic() + timeout
        while True:
            raw = await self.client.hget(keys.room(self.chat_id), "state")
            if raw is not None and ready(room := GAMES.parse_room(raw)):
                return room
            assert time.monotonic() < deadline, f"room {self.chat_id} did not get there"
            await asyncio.sleep(0.05)

    def button(self, kind: str, *args: int) -> str:
        return LINEUP.codec.encode(self.key, kind, *args)

    async def open_chats(self, send: Send) -> None:
        """Everybody opens a private chat with the bot (/start)."""
        for user in self.users:
            await send(self.updates.message(user, user, "/start"))

    async def chats_opened(self, timeout: float = 120) -> None:
        """Wait until the bot has seen everybody's /start."""
        deadline = time.monotonic() + timeout
        while await self.client.exists(*(keys.started(u) for u in self.users)) < len(self.users):
            assert time.monotonic() < deadline, f"game {self.chat_id}: chats not opened"
            await asyncio.sleep(0.05)

    async def seat(self, send: Send, settings: str) -> None:
        """A lobby with these settings, the others join, start (once their chats are open)."""
        host = self.users[0]
        await send(self.updates.message(host, self.chat_id, "/newgame"))
        await send(self.updates.message(host, self.chat_id, f"/settings {settings}"))
        for user in self.users[1:]:
            await send(await self.press(user, self.chat_id, self.button("join")))
        await send(await self.press(host, self.chat_id, self.button("start")))

    def plan(self, room: Room) -> tuple[list[Move], Room]:
        """Every move of the rest of the game from a round's hint phase, made as in
        `play_round`, and the final room the rules say they lead to."""
        moves: list[Move] = []
        now = time.time()

        def move(made: Move, command: Command) -> None:
            nonlocal room
            room, _ = apply(room, command, now)
            moves.append(made)

        chat, host = self.chat_id, self.users[0]
        while phase_of(room) is Phase.HINT and round_of(room) is not None:
            rnd = round_of(room)
            assert rnd is not None
            teller = room.seats[rnd.storyteller]
            card, user = own_seats(room)[rnd.storyteller].hand[0], teller.user_id
            game = room.game_id
            move(Move(user, user, data=self.button("card", chat, rnd.no, card, game)),
                 ChooseCard(user_id=user, card=card, round_no=rnd.no))
            hint = f"hint {rnd.no}"
            move(Move(user, user, text=hint), GiveHint(user_id=user, text=hint))
            others = [i for i in rnd.participants if i != rnd.storyteller]
            for index in others:
                seat, decoy = room.seats[index], own_seats(room)[index].hand[0]
                move(Move(seat.user_id, seat.user_id,
                          data=self.button("decoy", chat, rnd.no, decoy, game)),
                     PlayDecoy(user_id=seat.user_id, card=decoy, round_no=rnd.no))
            table = round_of(room)
            assert table is not None and table.table
            for index in others:
                own = table.plays.get(index)
                choice = next(c for c in table.table if c != own)
                user = room.seats[index].user_id
                move(Move(user, chat, data=self.button("vote", rnd.no, choice, game)),
                     Vote(user_id=user, card=choice, round_no=rnd.no))
            move(Move(host, chat, text="/skip", reveal_of=rnd.no), Skip(user_id=host))
        return moves, room

    async def updates_for(self, moves: list[Move]) -> list[dict[str, Any]]:
        """The updates Telegram would send for these moves (presses registered with the double)."""
        updates = []
        for made in moves:
            if made.data is not None:
                updates.append(await self.press(made.user, made.chat, made.data))
            else:
                assert made.text is not None
                updates.append(self.updates.message(made.user, made.chat, made.text))
            if made.reveal_of is not None:
                self.waits[updates[-1]["update_id"]] = made.reveal_of
        return updates

    async def ready_for(self, update: dict[str, Any]) -> None:
        """Wait until the bot is where the update may go (a reveal's /skip past its grace)."""
        number = self.waits.get(update["update_id"])
        if number is None:
            return

        def past_grace(room: Room) -> bool:
            rnd = round_of(room)
            if rnd is None or rnd.no != number or phase_of(room) is not Phase.REVEAL:
                return rnd is not None and rnd.no > number  # already moved on
            return time.time() - room.phase_at > SKIP_GRACE + 0.05

        await self.room_when(past_grace)
