"""RQ jobs: they take ids, never objects, and may run twice without harm."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import redis
from redis.exceptions import RedisError
from rq.timeouts import BaseTimeoutException
from telegram import Update

from engine.commands import MarkUnreachable, Timeout, TopicGone
from engine.errors import ErrorCode, RuleError
from engine.model import Phase
from engine.roomid import RoomId
from engine.store import keys
from tgbot import i18n
from tgbot.egress import lease
from tgbot.egress.delivery import FlushResult
from tgbot.egress.delivery import flush as flush_outbox
from tgbot.i18n import texts
from tgbot.ops import logs
from tgbot.ops.metrics import TALLY
from tgbot.table import render
from tgbot.table.handlers import Handled, handle, language
from workers.dispatch import ai_turn
from workers.outage import REDIS_DOWN
from workers.ratelimit import RedisLimiter
from workers.runtime import STOPPING, runtime
from workers.sweep import GRACE

# While a delivery holds its room, the sweeper would take the room up again this many seconds
# from now: a little after the holder's lease shows it is gone (should it stop renewing it).
LOOK_AGAIN = lease.SECONDS - lease.ABANDONED + 0.2 - GRACE

log = logging.getLogger(__name__)

DRAIN_SLICE = 0.5  # seconds a drain job works before the rest of its inbox queues up again
FLUSH_SLICE = 0.1  # seconds a delivery job may sleep through short waits while others queue
TRIES = 3  # an update whose handler fails this many times (Redis answering) is set aside
FAILED_KEPT = 100
FAILED_TTL = 7 * 24 * 3600


P = ParamSpec("P")
R = TypeVar("R")


class HandleLater(Exception):
    """Redis failed an update midway; it stays first in its inbox for a later job."""


def delivering(job: Callable[P, R]) -> Callable[P, R]:
    """A job that delivers the outboxes its commands filled once it is done, itself, rather
    than through a delivery job of their own (`RqDispatch.keep_deliveries`): an RQ job costs
    the worker more than the delivery of a message. Each is claimed as for a job (the
    sweeper's set notes it, and a delivery asked for meanwhile by another process waits for
    this one); if the job fails, they are enqueued as jobs after all."""

    @functools.wraps(job)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        dispatch = runtime().dispatch
        dispatch.keep_deliveries()
        try:
            result = job(*args, **kwargs)
        except BaseException:
            for where in dispatch.kept_deliveries():
                with contextlib.suppress(Exception):  # else the sweeper's, in a few seconds
                    dispatch.enqueue_flush(where)
            raise
        for where in dispatch.kept_deliveries():
            try:
                deliver(str(where))
            except REDIS_DOWN:  # the outage is the worker's to log, once; the sweeper asks again
                with contextlib.suppress(Exception):
                    dispatch.enqueue_flush(where)
            except Exception:
                log.warning("room %s: delivery failed; a delivery job does it", where,
                            exc_info=True)  # fmt: skip
                with contextlib.suppress(Exception):
                    dispatch.enqueue_flush(where)
        return result

    return run


async def handle_one(raw: bytes) -> Handled:
    """Handle one update with this process's Application."""
    return await handle(await runtime().app(), raw)


@delivering
def drain(room: int | str, token: str) -> int:
    """Handle the updates waiting in an inbox, in order, while this job owns it.

    Each update leaves the inbox only once handled. After `DRAIN_SLICE` seconds (or when the
    worker is asked to stop) the job puts the inbox back at the end of the ready list, so a
    busy room does not hold a worker while others wait. Returns how many updates it handled.
    """
    rt = runtime()
    where = RoomId.parse(room)
    inbox, handled, count, failed = rt.inbox, False, 0, 0
    started = time.monotonic()
    while True:
        give_up = STOPPING.is_set() or time.monotonic() - started > DRAIN_SLICE
        step = inbox.next(where, token, handled, give_up=give_up and not failed)
        if step.update is None:
            return count
        began = time.perf_counter()
        with logs.about(update_id=_update_id(step.update)):
            result = rt.run(functools.partial(handle_one, step.update))
        TALLY.observe("update_handling_seconds", time.perf_counter() - began,
                      outcome=result.value)  # fmt: skip
        if result is Handled.LATER:
            raise HandleLater(f"inbox {where}: Redis failed an update; the sweeper retries it")
        if result is Handled.FAILED:
            failed += 1
            if failed < TRIES:
                handled = False  # the same update, once more
                continue
            set_aside(where, step.update)
        handled, failed = True, 0
        count += 1


def set_aside(where: RoomId, raw: bytes) -> None:
    """Keep an update that failed every try for a human to look at, tell its sender if we
    can, and let the room's later updates go on."""
    rt = runtime()
    update_id = _update_id(raw)
    log.error("inbox %s: update %s failed %d times; set aside in %s", where, update_id,
              TRIES, keys.failed_updates(where))  # fmt: skip
    pipe = rt.client.pipeline(transaction=False)
    pipe.rpush(keys.failed_updates(where), raw)
    pipe.ltrim(keys.failed_updates(where), -FAILED_KEPT, -1)
    pipe.expire(keys.failed_updates(where), FAILED_TTL)
    pipe.execute()
    with contextlib.suppress(Exception):  # best effort: the update itself is kept
        rt.run(functools.partial(_apologise, raw))


async def _apologise(raw: bytes) -> None:
    rt = runtime()
    bot = await rt.bot()
    data = json.loads(raw)
    query, message = data.get("callback_query"), data.get("message")
    speakers = language.read(rt.service.redis, Update.de_json(data, bot))
    if isinstance(query, dict):
        with i18n.use(speakers.user):
            await bot.answer_callback_query(query["id"], text=texts.FAILED, show_alert=True)
    elif isinstance(message, dict):
        with i18n.use(speakers.chat):
            await bot.send_message(message["chat"]["id"], texts.FAILED)


_LEADING_ID = re.compile(rb'\{\s*"update_id"\s*:\s*(\d+)\s*[,}]')
"""How Telegram's updates begin: their id first (read without parsing the whole update)."""


def _update_id(raw: bytes) -> int | None:
    """The id of an update as Telegram sent it (None: it has none we can read)."""
    leading = _LEADING_ID.match(raw) if isinstance(raw, bytes) else None
    if leading is not None:
        return int(leading.group(1))
    with contextlib.suppress(ValueError, AttributeError):
        found = json.loads(raw).get("update_id")
        return found if isinstance(found, int) else None
    return None


@delivering
def ai_move(room: int | str, game_id: int, round_no: int, phase: str, seat: int) -> str:
    """Play the commands an AI seat owes the room, through the same service as a person's.

    Safe to run twice and harmless once the room has moved on: the seat owes nothing then
    (`decide` answers no command), and a command the rules refuse changes nothing."""
    service = runtime().service
    where = RoomId.parse(room)
    current = service.store.load(where)
    turn = ai_turn(current, service.games) if current is not None else None
    if (
        current is None
        or turn is None
        or current.game_id != game_id
        or (turn.round_no, turn.phase) != (round_no, phase)
        or seat not in turn.waiting
    ):
        return "moved_on"
    commands = runtime().minds[current.game](current, seat)
    for command in commands:
        try:
            service.run(where, command)
        except RuleError as error:
            TALLY.count("ai_moves", result=error.code.value)
            return error.code.value
    TALLY.count("ai_moves", result="played" if commands else "nothing")
    return "played" if commands else "nothing"


@delivering
def fire_timer(room: int | str, round_no: int, phase: str) -> str:
    """Apply a room's timeout; a timer the room has moved past does nothing."""
    rt = runtime()
    service = rt.service
    where = RoomId.parse(room)
    before = service.store.load(where)
    try:
        service.run(where, Timeout(round_no=round_no, phase=phase))
    except RuleError as error:
        TALLY.count("timers", result=error.code.value)
        if error.code is ErrorCode.TOO_EARLY:
            now = service.store.load(where)
            if now is not None and now.deadline is not None:
                rt.dispatch.schedule_timer(where, round_no, phase, now.deadline)
            return "early"
        return error.code.value
    TALLY.count("timers", result="fired")
    if before is not None and before.deadline is not None:
        late = service.store.clock() - before.deadline
        TALLY.observe("timer_lateness_seconds", max(0.0, late))
    return "fired"


@delivering
def remind(where: int | str, round_no: int, phase: str) -> bool:
    """Edit the phase's group message to show the time left, if the room is still there."""
    service = runtime().service
    room = service.store.load(RoomId.parse(where))
    if room is None or room.phase is Phase.LOBBY or room.deadline is None:
        return False
    if service.games.named(room.game).timer(room) != (round_no, phase):
        return False
    look = service.look.at(service.store.clock())
    shown = service.lineup.of(room).reminder(room, look)
    return shown is not None and service.show_if_current(room, shown)


@delivering
def lobby_tick(where: int | str, game_id: int) -> bool:
    """Edit a lobby's message to show its join time left, and come back in a while."""
    rt = runtime()
    service = rt.service
    room = service.store.load(RoomId.parse(where))
    if room is None or room.phase is not Phase.LOBBY or room.game_id != game_id:
        return False
    shown = service.show_if_current(room, render.lobby(room, service.look.at(rt.dispatch.clock())))
    rt.dispatch.schedule_lobby_tick(room)
    return shown


@delivering
def flush(room: int | str, attempt: int = 0, chain: str | None = None) -> int:
    """Deliver a room's outbox in order; come back later when Telegram asks to wait. A job
    enqueued again (`chain`) that a later one took over does nothing."""
    return deliver(room, attempt, chain)


def _refusals(where: RoomId) -> tuple[Callable[[int, int, str], None], Callable[[], None]]:
    """What a delivery to the room reports: a player who cannot be reached, the topic gone."""
    service = runtime().service

    def unreachable(user: int, round_no: int, phase: str) -> None:
        # A stale report (the player acted meanwhile, the round moved on) changes nothing.
        with contextlib.suppress(RuleError):
            service.run(
                where, MarkUnreachable(user_id=user, round_no=round_no, phase=phase)
            )

    def topic_gone() -> None:
        # Every message to the topic still queued reports it; the first ends the game.
        log.warning("room %s: its forum topic is gone, so is its game", where)
        with contextlib.suppress(RuleError):
            service.run(where, TopicGone())

    return unreachable, topic_gone


def deliver(room: int | str, attempt: int = 0, chain: str | None = None) -> int:
    """`flush`'s work, in whichever job asked for it."""
    rt = runtime()
    where = RoomId.parse(room)
    if not rt.dispatch.current(where, chain):
        return 0  # a copy of the room's delivery that a later one took over: it does this
    service = rt.service
    unreachable, topic_gone = _refusals(where)
    started = time.monotonic()

    def patient() -> bool:
        # A short wait for the rate limits is slept through unless an inbox waits, or, after
        # the job's first `FLUSH_SLICE`, jobs wait in the queue (other rooms' deliveries,
        # timers): with a few groups at the global limit a group's turn comes round within the
        # short wait, and the job would keep its worker until its whole backlog had gone.
        inboxes, others = rt.dispatch.others_wait()
        if inboxes:
            return False
        return time.monotonic() - started < FLUSH_SLICE or not others

    async def serve(handed: str) -> None:
        # A slot at the global limit handed to the group that waited longest: its room's
        # messages go now, up to that group's next one, which books its next turn; its next
        # delivery job takes over from the one on its way (that one, when it comes, does
        # nothing), as for any delivery that must wait.
        other = RoomId.parse(handed)
        if other == where:
            return
        lost, gone = _refusals(other)
        watched = _Asking(rt.limiter, other.chat)
        try:
            done = await flush_outbox(
                await rt.bot(), rt.client, other, watched, lost, stopping=STOPPING.is_set,
                patient=lambda: False, topic_gone=gone, look_again=LOOK_AGAIN,
                pictures=service.lineup.pictures,
            )  # fmt: skip
        except (RedisError, BaseTimeoutException):
            raise
        except Exception:
            log.warning("room %s: delivery for a handed slot failed; its own job does it",
                        other, exc_info=True)  # fmt: skip
            return
        if not done.busy and not watched.asked:
            rt.limiter.nothing_to_send(other.chat)
        _come_back(other, done, 0)

    async def go() -> FlushResult:
        return await flush_outbox(
            await rt.bot(), rt.client, where, rt.limiter, unreachable, attempt,
            stopping=STOPPING.is_set, patient=patient,
            topic_gone=topic_gone, look_again=LOOK_AGAIN, pictures=service.lineup.pictures,
            # From now on a new message needs a new job: this one may read the outbox already.
            requested=keys.flush_queued(where), serve=serve,
        )  # fmt: skip

    result = rt.run(go)
    _come_back(where, result, attempt)
    return result.delivered


class _Asking:
    """The limiter, noting whether a slot was asked for one chat (a delivery for a slot handed
    to a group that did not ask for one had no message for it)."""

    def __init__(self, limiter: RedisLimiter, chat: int) -> None:
        self.limiter, self.chat, self.asked = limiter, chat, False

    def reserve(self, chat_id: int, is_edit: bool = False, room: str | None = None,
                hand: bool = False) -> float:  # fmt: skip
        self.asked = self.asked or chat_id == self.chat
        return self.limiter.reserve(chat_id, is_edit, room, hand)

    def forgo(self, chat_id: int) -> None:
        self.limiter.forgo(chat_id)

    def answered(self, chat_id: int, pipe: redis.client.Pipeline | None = None) -> None:
        self.limiter.answered(chat_id, pipe)


def _come_back(where: RoomId, result: FlushResult, attempt: int) -> None:
    """Enqueue the room's next delivery job when its delivery stopped early (it takes over
    from any enqueued before: `RqDispatch.enqueue_flush`); a delivery that found the room
    busy leaves it to the holder."""
    rt = runtime()
    if result.stopped:
        # The worker is shutting down: another worker takes the rest, in order.
        rt.dispatch.enqueue_flush(where, attempt, again=True)
    elif result.retry_after is not None:
        at = rt.dispatch.clock() + result.retry_after
        pipe = rt.client.pipeline()
        pipe.zadd(keys.pending_deliveries(), {str(where): at}, xx=True)
        rt.dispatch.flush_later(where, at, attempt + 1 if result.network_error else 0, pipe)
        pipe.execute()


RUNNABLE = frozenset(
    f"{__name__}.{job.__name__}" for job in (drain, ai_move, fire_timer, remind, lobby_tick, flush)
)
"""The job functions a worker runs; it refuses any other job (`workers.trust`)."""
