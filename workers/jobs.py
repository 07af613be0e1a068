"""RQ jobs: they take ids, never objects, and may run twice without harm."""

from __future__ import annotations

import contextlib
import functools
import logging
import time

from engine import keys
from engine.commands import MarkUnreachable, Timeout
from engine.errors import ErrorCode, RuleError
from engine.model import Phase
from tgbot import render
from tgbot.delivery import FlushResult
from tgbot.delivery import flush as flush_outbox
from tgbot.handlers import handle
from workers.runtime import STOPPING, runtime

log = logging.getLogger(__name__)

DRAIN_SLICE = 0.5  # seconds a drain job works before the rest of its inbox queues up again


class HandleLater(Exception):
    """Redis failed an update midway; it stays first in its inbox for a later job."""


async def handle_one(raw: bytes) -> bool:
    """Handle one update with this process's Application."""
    return await handle(await runtime().app(), raw)


def drain(chat_id: int, token: str) -> int:
    """Handle the updates waiting in an inbox, in order, while this job owns it.

    Each update leaves the inbox only once handled. After `DRAIN_SLICE` seconds (or when the
    worker is asked to stop) the job puts the inbox back at the end of the ready list, so a
    busy room does not hold a worker while others wait. Returns how many updates it handled.
    """
    rt = runtime()
    inbox, handled, count = rt.inbox, False, 0
    started = time.monotonic()
    while True:
        give_up = STOPPING.is_set() or time.monotonic() - started > DRAIN_SLICE
        step = inbox.next(chat_id, token, handled, give_up=give_up)
        if step.update is None:
            return count
        if not rt.run(functools.partial(handle_one, step.update)):
            raise HandleLater(f"inbox {chat_id}: Redis failed an update; the sweeper retries it")
        handled = True
        count += 1


def fire_timer(chat_id: int, round_no: int, phase: str) -> str:
    """Apply a room's timeout; a timer the room has moved past does nothing."""
    rt = runtime()
    service = rt.service
    try:
        service.run(chat_id, Timeout(round_no=round_no, phase=Phase(phase)))
    except RuleError as error:
        if error.code is ErrorCode.TOO_EARLY:
            room = service.store.load(chat_id)
            if room is not None and room.deadline is not None:
                rt.dispatch.schedule_timer(chat_id, round_no, phase, room.deadline)
            return "early"
        return error.code.value
    return "fired"


def remind(chat_id: int, round_no: int, phase: str) -> bool:
    """Edit the phase's group message to show the time left, if the room is still there."""
    service = runtime().service
    room = service.store.load(chat_id)
    if room is None or room.round is None or room.round.no != round_no:
        return False
    if room.phase.value != phase or room.deadline is None:
        return False
    look = service.look.at(time.time())
    shown = render.table(room, look) if room.phase is Phase.VOTING else render.round_message(
        room, look
    )
    return service.show_if_current(room, shown)


def flush(chat_id: int, attempt: int = 0) -> int:
    """Deliver a chat's outbox in order; come back later when Telegram asks to wait."""
    rt = runtime()
    # From now on a new message needs a new job: this one may have read the outbox already.
    rt.client.delete(keys.flush_queued(chat_id))
    service = rt.service

    def unreachable(room_chat: int, user: int, round_no: int, phase: str) -> None:
        # A stale report (the player acted meanwhile, the round moved on) changes nothing.
        with contextlib.suppress(RuleError):
            service.run(
                room_chat, MarkUnreachable(user_id=user, round_no=round_no, phase=Phase(phase))
            )

    async def go() -> FlushResult:
        return await flush_outbox(
            await rt.bot(), rt.client, chat_id, rt.limiter, unreachable, attempt,
            stopping=STOPPING.is_set, patient=lambda: not rt.inbox.any_ready(),
        )  # fmt: skip

    result = rt.run(go)
    if result.stopped:
        # The worker is shutting down: another worker takes the rest, in order.
        rt.dispatch.enqueue_flush(chat_id, attempt)
    elif result.retry_after is not None:
        at = time.time() + result.retry_after
        rt.client.zadd(keys.pending_deliveries(), {str(chat_id): at}, xx=True)
        rt.dispatch.enqueue_flush(chat_id, attempt + 1 if result.network_error else 0, at=at)
    return result.delivered
