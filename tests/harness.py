"""A whole bot for tests: the Bot API stand-in, the webhook app, real RQ workers, real Redis."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import redis

from engine.games.registry import DEFAULT_GAME as GAME
from engine.games.registry import GAMES
from engine.store import Store, keys
from tgbot.games.registry import LINEUP
from tgbot.ingress.web import create_app
from tgbot.ops.config import Config
from tgbot.ops.release import set_webhook
from tgbot.standin import MessageRecord, StandinServer, World, serve_app

T = TypeVar("T")
GROUP = -1001000000042
SECRET = "test-secret_token-42"
ROOT = Path(__file__).resolve().parent.parent


def wait_for(condition: Callable[[], T | None], timeout: float = 20.0, what: str = "") -> T:
    """Poll until `condition` returns something truthy; fail with `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.05)


def without_join_timer(client: redis.Redis, chat_id: int) -> None:
    """Open a group's lobbies without a join timer, as a group that chose so would: tests
    that are not about the join timer start their games when they are ready (with scaled
    timers, a join time runs out in seconds)."""
    client.set(keys.group_settings(chat_id, GAME), json.dumps({"join_s": 0}))


def procfile_command(name: str) -> list[str]:
    """A process type's command from the Procfile, run by a shell as honcho or Heroku would
    (REDIS_URL, RQ_QUEUE and PORT come from the environment)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        kind, _, command = line.partition(":")
        if kind.strip() == name:
            return ["/bin/sh", "-c", "exec " + command.strip()]
    raise AssertionError(f"no {name!r} process in the Procfile")


def process_env(base: dict[str, str]) -> dict[str, str]:
    """An environment whose PATH finds this virtualenv's commands (rq, python) first."""
    bin_dir = str(Path(sys.executable).parent)
    return {**base, "PATH": bin_dir + os.pathsep + base.get("PATH", os.defpath)}


@dataclass
class Stack:
    """The running bot and the world it talks to."""

    world: World
    double: StandinServer
    config: Config
    client: redis.Redis
    env: dict[str, str]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def deliver(self, update: dict[str, Any], settle: bool = True) -> int:
        """Deliver an update to the webhook like Telegram does; return the HTTP status. With
        `settle`, wait until the workers handled every update taken in so far."""
        status = self.double.deliver(update).status or 0
        if settle:
            self.settle()
        return status

    def settle(self, timeout: float = 20.0) -> None:
        """Wait until no update waits for a worker (no inbox is owned by a drain job)."""
        wait_for(lambda: not self.client.keys("*:drain"), timeout, "the workers to handle "
                 "every update")  # fmt: skip

    def start_worker(self) -> subprocess.Popen[bytes]:
        """Start one more worker process."""
        log = Path(self.env["HINTRIGUE_LOG_DIR"]) / f"worker{len(self.workers)}.log"
        with log.open("ab") as output:
            process = subprocess.Popen(
                procfile_command("worker"),
                env=process_env(self.env),
                cwd=ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.workers.append(process)
        return process

    def stop_workers(self) -> None:
        """Stop every worker (warm shutdown, then kill)."""
        for process in self.workers:
            process.terminate()
        for process in self.workers:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
            with contextlib.suppress(ProcessLookupError):  # its scheduler, if left behind
                os.killpg(process.pid, signal.SIGKILL)
        self.workers.clear()

    # -- reading what players see --------------------------------------------------------

    def group_messages(self) -> list[MessageRecord]:
        return self.world.bot_messages(GROUP)

    def dm(self, user_id: int) -> list[MessageRecord]:
        return self.world.bot_messages(user_id)

    def find(self, chat_id: int, pattern: str) -> MessageRecord | None:
        """The latest bot message in a chat whose text matches a pattern."""
        for message in reversed(self.world.bot_messages(chat_id)):
            if re.search(pattern, message.plain_text or message.text, re.S):
                return message
        return None

    def press(self, user_id: int, message: MessageRecord, data: str) -> dict[str, Any]:
        """Press a button; return the update (its callback query id finds the answer)."""
        update = self.world.press(user_id, message.chat_id, message.message_id, data)
        self.deliver(update)
        return update

    def answer_to(self, update: dict[str, Any]) -> str:
        """The callback answer the bot gave to a press."""
        query_id = update["callback_query"]["id"]
        answer = wait_for(lambda: self.world.callback_answer(query_id), 10, "a callback answer")
        return answer.text or ""

    def say(self, user_id: int, chat_id: int, text: str) -> int:
        """A user sends a message."""
        return self.deliver(self.world.user_message(user_id, chat_id, text))


class Finds(Protocol):
    def find(self, chat_id: int, pattern: str) -> MessageRecord | None: ...


def prompt_of(stack: Finds, users: list[int], number: int, says: str, who: str,
              timeout: float = 20.0) -> tuple[int, MessageRecord]:  # fmt: skip
    """Round `number`'s player among `users` whose private prompt says `says` and has buttons
    (`who`: that player, for the failure message), and the prompt."""

    def found() -> tuple[int, MessageRecord] | None:
        for user in users:
            prompt = stack.find(user, rf"Round {number}\b.*{says}")
            if prompt and buttons(prompt):
                return user, prompt
        return None

    return wait_for(found, timeout, f"{who} of round {number}")


def storyteller_prompt(stack: Finds, users: list[int], number: int,
                       timeout: float = 30) -> tuple[int, MessageRecord]:  # fmt: skip
    """Round `number`'s storyteller among `users`, and its prompt with the card buttons."""
    return prompt_of(stack, users, number, "you are the storyteller", "the storyteller", timeout)


def join_lobby(stack: Stack, names: list[str], username: str, command: str) -> list[int]:
    """Players open private chats; the first adds the bot to the group and opens a lobby with
    `command`, the others join. Returns their user ids in seat order (usernames `username`0…)."""
    users = [stack.world.add_user(first_name=name, username=f"{username}{i}").id
             for i, name in enumerate(names)]  # fmt: skip
    for user in users:
        assert stack.deliver(stack.world.start_private(user)) == 200
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    stack.say(users[0], GROUP, command)
    lobby = wait_for(lambda: stack.find(GROUP, "a new game is open"), what="the lobby")
    for user in users[1:]:
        assert (
            stack.answer_to(stack.press(user, lobby, button(lobby, "Join")))
            == "You joined the game."
        )
    return users


def start_untimed(stack: Stack, host: int) -> None:
    """The host turns the lobby's timers off and starts the game."""
    stack.say(host, GROUP, "/settings timers=off")
    lobby = wait_for(
        lambda: (
            (found := stack.find(GROUP, "a new game is open"))
            and "timers off" in found.plain_text
            and found
        ),
        what="the settings",
    )
    assert stack.answer_to(stack.press(host, lobby, button(lobby, "Start"))) == "The game starts!"


def stop_and_wait_closed(stack: Stack, host: int, message_id: int) -> MessageRecord:
    """The host stops the game (and confirms); the group message `message_id` once it says
    the game ended during its round."""
    stack.say(host, GROUP, "/stop")
    question = wait_for(lambda: stack.find(GROUP, "End this game now"), what="the question")
    assert (
        stack.answer_to(stack.press(host, question, button(question, "Yes")))
        == "The game is stopped."
    )
    return wait_for(lambda: (m := stack.world.message(GROUP, message_id))
                    and "The game ended during this round" in m.plain_text and m,
                    what="the board closed")  # fmt: skip


def play_state(stack: Stack, kind: type[T]) -> T:
    """The state of the game of `kind` running in the group."""
    room = Store(stack.client, GAMES).load(GROUP)
    assert room is not None and isinstance(room.play, kind)
    return room.play


def buttons(message: MessageRecord) -> list[tuple[str, str]]:
    """A message's inline buttons as (text, callback data)."""
    markup = message.reply_markup or {}
    return [
        (b["text"], b.get("callback_data", ""))
        for row in markup.get("inline_keyboard", [])
        for b in row
    ]


def button(message: MessageRecord, label: str) -> str:
    """The callback data of the button whose text contains `label`."""
    for text, data in buttons(message):
        if label in text:
            return data
    raise AssertionError(f"no button {label!r} in {buttons(message)}")


@contextmanager
def running_stack(
    redis_url: str,
    tmp_path: Path,
    *,
    workers: int = 1,
    timer_scale: float = 0.02,
    rate_limits: bool = False,
    env: dict[str, str] | None = None,
) -> Iterator[Stack]:
    """Start the stand-in, the web app (in this process) and worker processes."""
    with ExitStack() as stack:
        world = World(enforce_rate_limits=rate_limits)
        double = StandinServer(world)
        double.start()
        stack.callback(double.stop)
        queue = f"test{os.getpid()}"
        config = Config(
            token=world.token,
            api_url=double.url,
            webhook_secret=SECRET,
            redis_url=redis_url,
            timer_scale=timer_scale,
            queue=queue,
        )
        client = redis.Redis.from_url(redis_url)
        url = stack.enter_context(serve_app(create_app(config, games=GAMES, lineup=LINEUP),
                                            lifespan="on"))  # fmt: skip
        config = Config(**{**config.__dict__, "webhook_url": f"{url}/webhook"})
        asyncio.run(set_webhook(config))
        generous = (
            {}
            if rate_limits
            else {
                "RATE_GLOBAL_PER_SECOND": "10000",
                "RATE_CHAT_PER_SECOND": "1000",
                "RATE_CHAT_BURST": "1000",
                "RATE_GROUP_PER_MINUTE": "100000",
            }
        )
        environment = {
            **os.environ,
            **generous,
            "TELEGRAM_BOT_TOKEN": world.token,
            "TELEGRAM_API_URL": double.url,
            "REDIS_URL": redis_url,
            "RQ_QUEUE": queue,
            "TIMER_SCALE": str(timer_scale),
            "WEBHOOK_SECRET": SECRET,
            "PYTHONPATH": str(ROOT),
            "HINTRIGUE_LOG_DIR": str(tmp_path),
            **{name: value.replace("{web}", url) for name, value in (env or {}).items()},
        }
        running = Stack(world=world, double=double, config=config, client=client, env=environment)
        stack.callback(running.stop_workers)
        for _ in range(workers):
            running.start_worker()
        world.add_chat(GROUP, "supergroup", title="Friday <Night> & Games", bot_status="left")
        without_join_timer(client, GROUP)
        yield running
