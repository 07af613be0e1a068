"""What a worker process keeps from one job to the next.

Building the service, opening an HTTP client and asking Telegram who we are (`getMe`) cost far
more than handling an update or delivering a message, so a process does them once: jobs share
one event loop, kept open, and one initialised python-telegram-bot Application on it (the
handlers, and the Bot that deliveries use). A job that leaves the loop abnormally (a job
timeout, a cold shutdown) takes both with it; the next job starts afresh.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from telegram import Bot
from telegram.ext import Application

from tgbot.bootstrap import (
    build_service,
    known_username,
    name_bot,
    redis_client,
    remember_username,
)
from tgbot.games.registry import LINEUP
from tgbot.ingress.inbox import Inbox
from tgbot.ops.config import Config, from_env
from tgbot.table.handlers import register
from tgbot.table.service import Service
from workers.botapi import AiohttpRequest, WorkerBot
from workers.dispatch import RqDispatch
from workers.games import MINDS
from workers.ratelimit import RedisLimiter

log = logging.getLogger(__name__)
T = TypeVar("T")
PTB = Application[Any, Any, Any, Any, Any, Any]

# Set when the worker was asked to stop: long jobs hand the rest of their work on.
STOPPING = threading.Event()


class InlineExecutor(concurrent.futures.ThreadPoolExecutor):
    """The worker loop's default executor: runs what `asyncio.to_thread` hands it at once, in
    the loop's own thread.

    The handlers run the store's blocking Redis calls through `asyncio.to_thread` so that a
    server handling many updates at once keeps its loop free. A worker handles one update at a
    time and runs nothing else on its loop meanwhile, so a thread would only add its hand-over
    (a wake-up of the pool's thread, the GIL passed back and forth, the loop woken): more CPU
    than many a Redis call it carries. The function still runs in its own copy of the context
    (`to_thread` copies it), and what it raises comes out of the `await`."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
               ) -> concurrent.futures.Future[T]:  # fmt: skip
        done: concurrent.futures.Future[T] = concurrent.futures.Future()
        try:
            result = fn(*args, **kwargs)
        except Exception as error:
            done.set_exception(error)
        else:
            done.set_result(result)
        return done


class InlineLoop(asyncio.SelectorEventLoop):
    """The worker's event loop: what `asyncio.to_thread` hands the default executor runs at
    once, in the loop's own thread (as `InlineExecutor` runs it), and its outcome is handed to
    the caller at the loop's next turn, as a callback of the loop's own.

    Through the executor, even one that runs the function at once, the outcome comes back by
    way of a concurrent future chained to the loop's: a callback scheduled as from another
    thread, which writes to the loop's wake-up pipe for the loop to read: two system calls and a
    few hundred lines of Python per blocking call of a handler, several of which an update
    makes. The turn of the loop is kept: what came meanwhile on the loop's connections is seen
    before the caller goes on (a Bot API connection the server closed while the worker was
    busy elsewhere is dropped, not used for the next call)."""

    def run_in_executor(  # type: ignore[override]
        self, executor: Any, func: Callable[..., T], *args: Any
    ) -> asyncio.Future[T]:
        if executor is not None:
            return super().run_in_executor(executor, func, *args)
        self._check_closed()  # type: ignore[attr-defined]
        future: asyncio.Future[T] = self.create_future()
        try:
            outcome: tuple[Any, Exception | None] = (func(*args), None)
        except Exception as error:  # as `InlineExecutor` hands it on; anything else goes up
            outcome = (None, error)
        self.call_soon(_settle, future, outcome)
        return future


def _settle(future: asyncio.Future[Any], outcome: tuple[Any, Exception | None]) -> None:
    result, error = outcome
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def request_timeouts() -> AiohttpRequest:
    """Bot API calls bounded to a few seconds: a call that hangs holds its room's delivery
    (whose lease its holder renews meanwhile, `tgbot.egress.lease`) no longer than this. On
    connections kept open, by a client that costs the worker little (`workers.botapi`)."""
    return AiohttpRequest(connect_timeout=3.0, read_timeout=5.0, write_timeout=5.0)


class Runtime:
    """The configuration, Redis client, dispatch, service, event loop and Bot of a process."""

    def __init__(self, config: Config) -> None:
        self.config = config
        name_bot(config)
        self.client = redis_client(config)
        self.lineup = LINEUP
        self.minds = MINDS
        if set(self.minds) != set(self.lineup.games):
            raise ValueError("every game needs its AI players' mind")
        self.dispatch = RqDispatch(self.client, config.queue, self.lineup.games)
        self.limiter = RedisLimiter(self.client)
        self.inbox = Inbox(self.client, config.queue)
        self._service: Service | None = None
        self._runner: asyncio.Runner | None = None
        self._app: PTB | None = None

    @property
    def service(self) -> Service:
        """The application service. Call it outside `run`: it may start the Application."""
        if self._service is None:
            self.run(self.app)
        assert self._service is not None
        return self._service

    async def app(self) -> PTB:
        """The process's Application with every handler and the service, initialised on first
        use (one getMe per process, unless the bot's @username is known already)."""
        if self._app is None:
            bot = WorkerBot(self.config.token, base_url=self.config.api_base,
                            request=request_timeouts())  # fmt: skip
            app = Application.builder().bot(bot).updater(None).build()
            register(app)
            await app.initialize()
            if self._service is None:
                username = known_username(self.client)
                if username is None:
                    username = app.bot.username
                    remember_username(self.client, username)
                self._service = build_service(
                    self.config, self.client, username, self.dispatch, self.lineup
                )
            app.bot_data["service"] = self._service
            self._app = app
        return self._app

    async def bot(self) -> Bot:
        """The process's Bot."""
        bot: Bot = (await self.app()).bot
        return bot

    def run(self, job: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run a coroutine on the process's event loop."""
        if self._runner is None:
            self._runner = asyncio.Runner(loop_factory=InlineLoop)
            loop = self._runner.get_loop()
            loop.set_default_executor(InlineExecutor(max_workers=1))
            # The process's current loop, as a Runner makes its own loop (not one of a factory).
            asyncio.set_event_loop(loop)
        try:
            return self._runner.run(job())
        except BaseException:
            self.reset()
            raise

    def reset(self) -> None:
        """Drop the loop and the Bot (cancelling whatever still ran on the loop)."""
        runner, self._runner, self._app = self._runner, None, None
        if runner is not None:
            try:
                runner.close()
            except Exception:  # closing a broken loop must not hide why it broke
                log.warning("closing the event loop failed", exc_info=True)
            asyncio.set_event_loop(None)


_current: tuple[int, Runtime] | None = None


def runtime() -> Runtime:
    """This process's runtime, built from the environment on first use (again after a fork)."""
    global _current
    if _current is None or _current[0] != os.getpid():
        _current = (os.getpid(), Runtime(from_env()))
    return _current[1]
