"""A fourth game, registered only from its own folders in the test tree (`tests/fourth/`),
is opened, played to its end and shown at /stats through the table: the real handlers, store,
delivery and python-telegram-bot against the Bot API stand-in, with no shared module edited."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import redis
from telegram.ext import Application

from engine.events import AnyEvent
from engine.games.base import Games
from engine.games.registry import GAMES
from engine.model import Room
from engine.roomid import RoomId
from tests.conftest import test_redis_url
from tests.fourth.rules import GAME as TALLY
from tests.fourth.screens import SCREENS as TALLY_SCREENS
from tgbot.bootstrap import build_service
from tgbot.egress.delivery import flush
from tgbot.games.registry import LINEUP
from tgbot.ops.config import Config
from tgbot.standin import MessageRecord, StandinServer, World
from tgbot.table.handlers import handle, register
from tgbot.table.screens import Lineup

pytestmark = pytest.mark.slow
GROUP = -1001000000444


class Deliveries:
    """The dispatch of a bot run in one process: the rooms whose outbox waits."""

    def __init__(self) -> None:
        self.waiting: set[RoomId] = set()

    def flush(self, where: RoomId) -> None:
        self.waiting.add(where)

    def schedule(self, room: Room, events: list[AnyEvent]) -> None:
        """Tally is untimed: no timer to set."""

    def resume(self, room: Room) -> None:
        """Tally is untimed: no timer to set again."""


class NoWait:
    """No rate limit between the test and the stand-in."""

    def reserve(self, chat_id: int, is_edit: bool = False, room: str | None = None,
                hand: bool = False) -> float:
        return 0.0

    def forgo(self, chat_id: int) -> None:
        pass

    def answered(self, chat_id: int, pipe: object = None) -> None:
        pass


class Bot:
    """The table with Tally in its line-up, handling updates one by one in this process."""

    def __init__(self, world: World, api_url: str, client: redis.Redis) -> None:
        self.world, self.client = world, client
        self.config = Config(token=world.token, api_url=api_url, redis_url=test_redis_url(),
                             queue="fourth")  # fmt: skip
        self.lineup = Lineup(Games(*GAMES.values(), TALLY), *LINEUP.screens.values(), TALLY_SCREENS)
        self.deliveries = Deliveries()

    async def __aenter__(self) -> Bot:
        self.app = Application.builder().token(self.config.token).base_url(
            self.config.api_base).updater(None).build()  # fmt: skip
        register(self.app)
        await self.app.initialize()
        self.app.bot_data["service"] = build_service(
            self.config, self.client, self.app.bot.username, self.deliveries, self.lineup
        )
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.app.shutdown()

    async def send(self, update: dict[str, Any]) -> None:
        """Handle an update as a worker would, then deliver what it queued."""
        await handle(self.app, json.dumps(update).encode())
        while self.deliveries.waiting:
            where = self.deliveries.waiting.pop()
            await flush(self.app.bot, self.client, where, NoWait(), lambda *_: None,
                        pictures=self.lineup.pictures)  # fmt: skip

    def latest(self, chat: int, pattern: str) -> MessageRecord:
        for message in reversed(self.world.bot_messages(chat)):
            if re.search(pattern, message.plain_text or message.text, re.S):
                return message
        raise AssertionError(f"no message matching {pattern!r} in {chat}")


def data(message: MessageRecord, label: str) -> str:
    """The callback data of the message's button with that label."""
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    for button in (b for row in rows for b in row):
        if button["text"] == label:
            return str(button["callback_data"])
    raise AssertionError(f"no button {label!r} on {message.plain_text!r}")


async def play(world: World, api_url: str, client: redis.Redis) -> None:
    async with Bot(world, api_url, client) as bot:
        world.add_chat(GROUP, "supergroup", title="Counting club", bot_status="member")
        ann, bob, cy = (world.add_user(first_name=name).id for name in ("Ann", "Bob", "Cy"))
        for user in (ann, bob, cy):
            await bot.send(world.start_private(user))
        await bot.send(world.user_message(ann, GROUP, "/newgame count"))  # its alias
        lobby = bot.latest(GROUP, r"Tally.*a new game is open")
        for user in (bob, cy):
            await bot.send(world.press(user, GROUP, lobby.message_id, data(lobby, "Join")))
        lobby = bot.latest(GROUP, r"Tally")
        await bot.send(world.press(ann, GROUP, lobby.message_id, data(lobby, "Start")))
        board = bot.latest(GROUP, r"Tally, round 1")
        for user, amount in ((ann, "+2"), (bob, "+1"), (cy, "+1")):
            board = bot.latest(GROUP, r"Tally, round")
            await bot.send(world.press(user, GROUP, board.message_id, data(board, amount)))
        await bot.send(world.press(ann, GROUP, board.message_id, data(board, "+2")))
        again = world.press(ann, GROUP, board.message_id, data(board, "+1"))
        await bot.send(again)  # round 2: Ann added already, and is told so in Tally's words
        refused = world.callback_answer(again["callback_query"]["id"])
        assert refused is not None and refused.text == "You added this round already."
        for user in (bob, cy):
            await bot.send(world.press(user, GROUP, board.message_id, data(board, "+2")))
        final = bot.latest(GROUP, r"Game over")
        assert "Ann wins!" in final.plain_text
        assert re.search(r"Ann: 4.*Bob: 3.*Cy: 3", final.plain_text, re.S)
        await bot.send(world.user_message(ann, GROUP, "/stats"))
        assert "Tally: 1 game · 1 win · 4 points" in bot.latest(GROUP, r"📊").plain_text
        await bot.send(world.user_message(bob, GROUP, "/stats"))
        assert "Tally: 1 game · 0 wins · 3 points" in bot.latest(GROUP, r"📊 Bob").plain_text


def test_a_fourth_game_from_its_own_folders_is_opened_played_and_counted_at_the_table(
    real_redis: redis.Redis,
):
    world = World(enforce_rate_limits=False)
    double = StandinServer(world)
    double.start()
    try:
        asyncio.run(play(world, double.url, real_redis))
    finally:
        double.stop()
