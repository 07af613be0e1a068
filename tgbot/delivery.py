"""Delivery of a chat's outbox, in order, one process at a time per chat.

A message leaves the outbox only once Telegram has taken it, so a crash or an error means a
retry, never a loss. A keyed message is sent the first time and edited afterwards.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import redis
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from engine import keys
from tgbot.outgoing import Outgoing

log = logging.getLogger(__name__)

LOCK_SECONDS = 60
SHORT_WAIT = 1.5  # wait in the job for less than this; longer waits are rescheduled
NETWORK_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)


class Limiter(Protocol):
    """Shared rate limits: how long to wait before a message to `chat_id` may go."""

    def reserve(self, chat_id: int, is_edit: bool = False) -> float:
        """Take a slot now and return 0, or return the seconds to wait (taking nothing)."""


@dataclass(frozen=True)
class FlushResult:
    """What a flush did: messages delivered, and when to try again if it stopped early."""

    delivered: int = 0
    retry_after: float | None = None
    busy: bool = False


Unreachable = Callable[[int, int, int, str], None]
"""Called with (room chat, user, round, phase) when a private chat refuses the bot."""


def markup(message: Outgoing) -> InlineKeyboardMarkup | None:
    """The message's inline keyboard."""
    if not message.buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(b.text, callback_data=b.data, url=b.url) for b in row]
            for row in message.buttons
        ]
    )


def known_id(client: redis.Redis, chat_id: int, message: Outgoing) -> int | None:
    """The Telegram id of the message already sent under this message's key."""
    raw = client.hget(keys.message_ids(chat_id), message.key) if message.key else None
    return int(raw) if raw is not None else None


async def send_or_edit(bot: Bot, client: redis.Redis, chat_id: int, message: Outgoing) -> None:
    """Send a message, or edit the one already sent under its key."""
    known = known_id(client, chat_id, message)
    if known is not None:
        try:
            await bot.edit_message_text(
                chat_id=message.chat_id,
                message_id=int(known),
                text=message.text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(message),
                disable_web_page_preview=True,
            )
            return
        except BadRequest as error:
            text = str(error).lower()
            if "not modified" in text:
                return
            if "not found" not in text:
                raise
            log.info("chat %s: message %s is gone, sending it again", chat_id, message.key)
    sent = await bot.send_message(
        chat_id=message.chat_id,
        text=message.text,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(message),
        disable_web_page_preview=True,
    )
    if message.key:
        client.hset(keys.message_ids(chat_id), message.key, sent.message_id)


async def flush(
    bot: Bot,
    client: redis.Redis,
    chat_id: int,
    limiter: Limiter,
    unreachable: Unreachable,
    attempt: int = 0,
) -> FlushResult:
    """Deliver the chat's outbox in order until it is empty or must wait."""
    lock = client.lock(keys.delivery_lock(chat_id), timeout=LOCK_SECONDS)
    delivered = 0
    while True:
        if not lock.acquire(blocking=False):
            return FlushResult(delivered, busy=True)
        try:
            result = await _drain(bot, client, chat_id, limiter, unreachable, attempt)
        finally:
            lock.release()
        delivered += result.delivered
        if result.retry_after is not None:
            return FlushResult(delivered, retry_after=result.retry_after)
        # Messages queued while we held the lock had their flush refused: take them too.
        if not client.llen(keys.outbox(chat_id)):
            return FlushResult(delivered)


async def _drain(
    bot: Bot,
    client: redis.Redis,
    chat_id: int,
    limiter: Limiter,
    unreachable: Unreachable,
    attempt: int,
) -> FlushResult:
    box = keys.outbox(chat_id)
    delivered = 0
    while (raw := client.lindex(box, 0)) is not None:
        message = Outgoing.model_validate_json(raw)
        edit = known_id(client, chat_id, message) is not None
        while (wait := limiter.reserve(message.chat_id, edit)) > 0:
            if wait > SHORT_WAIT:
                return FlushResult(delivered, retry_after=wait)
            await asyncio.sleep(wait)
        try:
            await send_or_edit(bot, client, chat_id, message)
        except RetryAfter as error:
            return FlushResult(delivered, retry_after=_seconds(error.retry_after))
        except Forbidden as error:
            log.info("chat %s: %s refused: %s", chat_id, message.chat_id, error)
            if message.unreachable is not None:
                user, round_no, phase = message.unreachable
                unreachable(chat_id, user, round_no, phase)
        except (TimedOut, NetworkError) as error:
            if isinstance(error, BadRequest):
                log.warning("chat %s: dropping a message Telegram refused: %s", chat_id, error)
            else:
                delay = NETWORK_BACKOFF[min(attempt, len(NETWORK_BACKOFF) - 1)]
                log.warning("chat %s: network error, retrying in %ss: %s", chat_id, delay, error)
                return FlushResult(delivered, retry_after=delay)
        client.lpop(box)
        delivered += 1
    return FlushResult(delivered)


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]
