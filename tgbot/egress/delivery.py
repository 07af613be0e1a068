"""Delivery of a chat's outbox, in order, one process at a time per chat.

A message leaves the outbox only once Telegram has taken it (or refused it for good), so a
crash or an error means a retry, never a loss. A keyed message is sent the first time and edited
afterwards; when the outbox holds several renderings of one message in a row, only the last is
shown (the earlier ones would be overwritten at once anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import redis
from pydantic import ValidationError
from redis.exceptions import RedisError
from rq.timeouts import BaseTimeoutException
from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram import Message as TgMessage
from telegram._utils.types import JSONDict
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from engine.store import keys
from engine.store.scripts import script
from tgbot import i18n, pictures
from tgbot.egress import lease
from tgbot.egress.outgoing import MAX_CAPTION, Button, Head, Outgoing, caption_length
from tgbot.egress.uploads import FileIds
from tgbot.i18n import texts
from tgbot.ops.metrics import TALLY
from tgbot.pictures.model import Picture

log = logging.getLogger(__name__)

SHORT_WAIT = 0.3  # wait in the job for less than this; longer waits free the worker meanwhile
HANDOVERS = 30  # at most this many rooms delivered for handed slots in one wait for a slot
NETWORK_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)
BATCH = 20
# A game's message ids live as long as a finished game's room is kept, and a day more.
MESSAGE_IDS_TTL = 8 * 24 * 3600

# Free the chat's lock if it is still ours (KEYS[1], ARGV[1]); then, if the outbox is empty,
# the chat no longer waits for delivery (atomic with respect to the push-then-request order of
# the writers, so a request is never lost). One round trip for both; 1 when finished.
_RELEASE_FINISHED = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('LLEN', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[3], ARGV[2])
  return 1
end
return 0
"""


# The next entries to read once some chats must wait: those of the waiting chats from ARGV[1]
# on are passed over (their chat is the first field of every entry, as `Outgoing` writes it;
# an entry that does not start so is read), then up to ARGV[2] are returned from the first
# other one. KEYS: the outbox. ARGV: where to start, how many, the waiting chats. Returns how
# many were passed over and the entries read.
_PAST_WAITING = """
local waiting = {}
for i = 3, #ARGV do waiting[ARGV[i]] = true end
local start, at, chunk = tonumber(ARGV[1]), tonumber(ARGV[1]), 100
while true do
  local entries = redis.call('LRANGE', KEYS[1], at, at + chunk - 1)
  local other = nil
  for i, entry in ipairs(entries) do
    local chat = string.match(entry, '^{"chat_id":(-?%d+)[,}]')
    if not (chat and waiting[chat]) then
      other = i
      break
    end
  end
  if other then
    at = at + other - 1
    break
  end
  at = at + #entries
  if #entries < chunk then break end
end
return {at - start, redis.call('LRANGE', KEYS[1], at, at + tonumber(ARGV[2]) - 1)}
"""


# A new photo message went out as its text (`Staged`): its entry in the outbox becomes the edit
# that brings the picture in, and its id is known. KEYS: the outbox, the game's message ids;
# ARGV: the entry, the entry as an edit, its key, the new id, the ids' lifetime, then the
# renderings it superseded (delivered with it).
_STAGE = """
for i = 6, #ARGV do redis.call('LREM', KEYS[1], 1, ARGV[i]) end
local at = redis.call('LPOS', KEYS[1], ARGV[1])
if at then redis.call('LSET', KEYS[1], at, ARGV[2]) end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
"""


class Staged(int):
    """The id of a new message sent as its text alone, whose picture is still to be edited in.

    Telegram's answer to a send can be lost (the worker killed while Telegram completes it),
    and a send whose outcome is unknown is sent again: shown twice. An upload is the slow part
    of a photo, so a new photo message goes in two steps: its text (as quick as any message),
    recorded with its id at once, then its picture uploaded by editing that message, which may
    be done again without showing anything twice. A picture sent before goes in one step, by
    its file_id (Telegram has nothing to upload)."""


class Handover(float):
    """A wait for the rate limits that comes with a free slot handed over: the slot belongs to
    the group that has waited longest for one, and the caller delivers that group's `room` at
    once, itself (the group's own job may be anywhere in the queue), then asks again."""

    room: str

    def __new__(cls, wait: float, room: str) -> Handover:
        made = super().__new__(cls, wait)
        made.room = room
        return made


Serve = Callable[[str], Awaitable[None]]
"""Deliver a room's outbox now, in this process, for a slot handed to its group."""


class Limiter(Protocol):
    """Shared rate limits: how long to wait before a message to `chat_id` may go."""

    def reserve(self, chat_id: int, is_edit: bool = False, room: str | None = None,
                hand: bool = False) -> float:  # fmt: skip
        """Take a slot now and return 0, or return the seconds to wait (taking nothing but,
        for a wait of up to `SHORT_WAIT`, maybe the slot it waits for). `room`: the room that
        asks. With `hand`, a free slot that is another group's may be handed over: the wait is
        then a `Handover`, whose room the caller delivers before it asks again."""

    def forgo(self, chat_id: int) -> None:
        """The short wait the chat was told is not slept through: a slot kept for it is not
        waited for."""

    def answered(self, chat_id: int, pipe: redis.client.Pipeline | None = None) -> None:
        """The call the chat's slot was taken for is over, however it ended (`pipe`: said
        with the pipeline's other commands, when it is executed)."""


@dataclass(frozen=True)
class FlushResult:
    """What a flush did: messages delivered, and when to try again if it stopped early."""

    delivered: int = 0
    retry_after: float | None = None
    busy: bool = False
    stopped: bool = False
    network_error: bool = False


Unreachable = Callable[[int, int, str], None]
"""Called with (user, round, phase) when a private chat refuses the bot."""

TopicGone = Callable[[], None]
"""Called when Telegram no longer knows the room's forum topic (it was deleted)."""


def keyboard(message: Outgoing) -> JSONDict | None:
    """The message's inline keyboard, as the Bot API takes it."""
    if not message.buttons:
        return None
    return {"inline_keyboard": [[_button(b) for b in row] for row in message.buttons]}


def _button(button: Button) -> JSONDict:
    out: JSONDict = {"text": button.text}
    if button.data is not None:
        out["callback_data"] = button.data
    if button.url is not None:
        out["url"] = button.url
    if button.web_app is not None:
        out["web_app"] = {"url": button.web_app}
    return out


def markup(message: Outgoing) -> InlineKeyboardMarkup | None:
    """The message's inline keyboard, as python-telegram-bot's object (for a photo's call)."""
    given = keyboard(message)
    return None if given is None else InlineKeyboardMarkup.de_json(given, None)


async def call(bot: Bot, endpoint: str, **parameters: object) -> Any:
    """A Bot API call whose parameters are given as JSON already (None: left out, as the
    Bot's `_post` leaves it), answered with Telegram's JSON result, through
    python-telegram-bot's request all the same (its timeouts, and a refusal raised as its
    `TelegramError`). For the calls of every message:
    `bot.send_message` and its kin build python-telegram-bot's objects for the keyboard, turn
    them back into JSON, and build a `Message` of the answer, which delivery reads for its id
    alone: about 250 µs of CPU a call more (docs/benchmarks.md)."""
    return await bot._post(endpoint, parameters)


HTML = ParseMode.HTML.value
NO_PREVIEW = {"is_disabled": True}


async def retire(bot: Bot, chat_id: int, message_id: int, language: str,
                 photo: bool = False) -> None:  # fmt: skip
    """Turn a message that a newer copy replaces into a pointer to it, without its buttons
    (gone or retired already: fine). A photo (`photo`: known as one) gets it as its caption."""
    with i18n.use(language):
        pointer = texts.SENT_AGAIN
    try:
        if not photo:
            with _timed("editMessageText"):
                await call(bot, "editMessageText", chat_id=chat_id, message_id=message_id,
                           text=pointer)  # fmt: skip
            return
    except BadRequest as error:
        if not _no_text(error):
            if _unchanged(error) is None:
                raise
            return
    with contextlib.suppress(BadRequest), _timed("editMessageCaption"):
        await call(bot, "editMessageCaption", chat_id=chat_id, message_id=message_id,
                   caption=pointer)  # fmt: skip


def _no_text(error: BadRequest) -> bool:
    """An edit of a message's text refused because the message is a photo (it has a caption)."""
    return "no text in the message" in str(error).lower()


def _unchanged(error: BadRequest) -> str | None:
    """Why an edit that Telegram refused needs no retry: "not modified" (it shows that text
    already) or "not found" (the message is gone); None for any other refusal."""
    text = str(error).lower()
    return next((why for why in ("not modified", "not found") if why in text), None)


async def send_or_edit(
    bot: Bot, message: Outgoing, known: int | None, file_ids: FileIds | None = None
) -> int | None:
    """Send a message, or edit the one already sent under its key; return a new message's id.
    A message with a picture goes as a photo with its text as the caption (given `file_ids`)."""
    if message.picture is not None and file_ids is not None:
        return await send_picture(bot, message, known, file_ids)
    if known is not None and not message.fresh:
        # A photo message known as one has its caption edited straight away (an edit of its
        # text would be refused, a call spent for nothing).
        photo = file_ids is not None and file_ids.showing(message.chat_id, known) is not None
        try:
            if photo:
                await _edit_caption(bot, message, known)
                return None
            with _timed("editMessageText"):
                await call(bot, "editMessageText", chat_id=message.chat_id, message_id=known,
                           text=message.text, parse_mode=HTML, reply_markup=keyboard(message),
                           link_preview_options=NO_PREVIEW)  # fmt: skip
            return None
        except BadRequest as error:
            if not photo and _no_text(error):  # sent as a photo: its caption is the text
                await _edit_caption(bot, message, known)
                return None
            why = _unchanged(error)
            if why == "not modified":
                return None
            if why is None:
                raise
            if message.edit_only:
                return None
            log.info("chat %s: message %s is gone, sending it again", message.chat_id, message.key)
    if message.edit_only:
        return None  # nothing to edit
    with _timed("sendMessage"):
        sent = await call(bot, "sendMessage", chat_id=message.chat_id,
                          message_thread_id=message.thread_id, text=message.text,
                          parse_mode=HTML, reply_markup=keyboard(message),
                          link_preview_options=NO_PREVIEW)  # fmt: skip
    return int(sent["message_id"])


async def _edit_caption(bot: Bot, message: Outgoing, known: int) -> None:
    with _timed("editMessageCaption"):
        await call(bot, "editMessageCaption", chat_id=message.chat_id, message_id=known,
                   caption=message.text, parse_mode=HTML, reply_markup=keyboard(message))


async def send_picture(
    bot: Bot, message: Outgoing, known: int | None, file_ids: FileIds
) -> int | None:
    """Send (or edit into) a photo with the message's text as its caption: by the file_id
    of an identical picture sent before, else uploaded. A photo message that already shows
    this very picture has its caption edited only. The text alone is sent instead when it is
    too long for a caption or Telegram refuses the photo (its facts are all in the text)."""
    assert message.picture is not None
    text_only = message.model_copy(update={"picture": None})
    if caption_length(message.text) > MAX_CAPTION:
        log.info("chat %s: %s is too long for a caption: sent without its picture",
                 message.chat_id, message.key)  # fmt: skip
        return await send_or_edit(bot, text_only, known, file_ids)
    shown = pictures.identity(message.picture, message.lang)
    edit = known is not None and not message.fresh
    if edit and known is not None and file_ids.showing(message.chat_id, known) == shown:
        try:
            await _edit_caption(bot, message, known)
            return None
        except BadRequest as error:
            why = _unchanged(error)
            if why == "not modified":
                return None
            if why is None and "no caption" not in str(error).lower():
                raise
            # Gone, or no photo after all: the picture is sent or edited in below.
    began = time.perf_counter()
    try:
        png = await asyncio.to_thread(_render, message.picture, message.lang, shown)
    except Exception:  # a drawing bug must cost the picture only, never the message
        log.error("chat %s: the picture of %s could not be drawn: sending the text alone",
                  message.chat_id, message.key, exc_info=True)  # fmt: skip
        TALLY.count("delivery_failures", what="picture")
        return await send_or_edit(bot, text_only, known, file_ids)
    TALLY.observe("picture_render_seconds", time.perf_counter() - began)
    digest = pictures.digest(png)
    file_id = file_ids.get(digest)
    if file_id is None and message.key and (known is None or message.fresh):
        sent = await send_or_edit(bot, text_only.model_copy(update={"fresh": True}), None)
        if sent is None:
            return None
        while len(_STAGED_PNGS) >= _STAGED_KEPT:
            _STAGED_PNGS.pop(next(iter(_STAGED_PNGS)))
        _STAGED_PNGS[shown] = png  # the edit that follows needs not draw it again
        return Staged(sent)
    tries: list[str | bytes] = [file_id, png] if file_id else [png]
    for media in tries:
        try:
            return await _photo(bot, message, known, media, (digest, shown), file_ids)
        except BadRequest as error:
            if _unchanged(error) == "not modified":
                return None
            if "thread not found" in str(error).lower():
                raise
            if isinstance(media, str):
                log.info("chat %s: file_id refused (%s): uploading the picture", message.chat_id,
                         error)  # fmt: skip
                file_ids.forget(digest)
                continue
            log.warning("chat %s: Telegram refused the picture (%s): sending the text alone",
                        message.chat_id, error)  # fmt: skip
    return await send_or_edit(bot, text_only, known, file_ids)


_STAGED_PNGS: dict[str, bytes] = {}  # pictures drawn for a `Staged` message, by identity
_STAGED_KEPT = 8


def _render(picture: Picture, language: str, shown: str) -> bytes:
    """The picture's PNG: the one drawn already when its message was staged, else drawn."""
    png = _STAGED_PNGS.pop(shown, None)
    return png if png is not None else pictures.render(picture, language)


async def _photo(
    bot: Bot, message: Outgoing, known: int | None, media: str | bytes,
    digests: tuple[str, str], file_ids: FileIds,
) -> int | None:  # fmt: skip
    """Send the photo (or edit the message under its key into it); remember the file_id of an
    upload, and which picture the message shows (`digests`: the PNG's, the picture's
    identity)."""
    digest, shown = digests
    photo: str | InputFile = media if isinstance(media, str) else InputFile(
        media, filename="picture.png", attach=True
    )  # fmt: skip
    result: TgMessage | bool
    if known is not None and not message.fresh:
        try:
            with _timed("editMessageMedia"):
                result = await bot.edit_message_media(
                    media=InputMediaPhoto(photo, caption=message.text, parse_mode=ParseMode.HTML),
                    chat_id=message.chat_id, message_id=known, reply_markup=markup(message),
                )  # fmt: skip
            _remember(result, media, digest, file_ids)
            file_ids.shows(message.chat_id, known, shown)
            return None
        except BadRequest as error:
            if _unchanged(error) != "not found":
                raise
            log.info("chat %s: message %s is gone, sending it again", message.chat_id, message.key)
    with _timed("sendPhoto"):
        sent = await bot.send_photo(
            chat_id=message.chat_id, message_thread_id=message.thread_id, photo=photo,
            caption=message.text, parse_mode=ParseMode.HTML, reply_markup=markup(message),
        )  # fmt: skip
    _remember(sent, media, digest, file_ids)
    file_ids.shows(message.chat_id, sent.message_id, shown)
    return sent.message_id


def _remember(result: TgMessage | bool, media: str | bytes, digest: str, file_ids: FileIds) -> None:
    if isinstance(media, bytes) and isinstance(result, TgMessage) and result.photo:
        file_ids.put(digest, result.photo[-1].file_id)


@contextlib.contextmanager
def _timed(method: str) -> Iterator[None]:
    """Count a Bot API call that delivered a message, and how long it took (one that raised
    delivered nothing and is not counted)."""
    began = time.perf_counter()
    yield
    TALLY.count("deliveries", method=method)
    TALLY.observe("delivery_seconds", time.perf_counter() - began, method=method)


async def flush(
    bot: Bot,
    client: redis.Redis,
    where: keys.RoomRef,
    limiter: Limiter,
    unreachable: Unreachable,
    attempt: int = 0,
    stopping: Callable[[], bool] = lambda: False,
    patient: Callable[[], bool] = lambda: True,
    topic_gone: TopicGone = lambda: None,
    look_again: float = 0.0,
    *,
    pictures: Mapping[str, type[Picture]],
    requested: str | None = None,
    serve: Serve | None = None,
) -> FlushResult:
    """Deliver the room's outbox in order until it is empty or must wait. A short wait for
    the rate limits is slept through unless `patient()` says more urgent work waits. Another
    process holding the room takes what waits (`busy`), unless its lease shows it is gone:
    then the room is taken when the lease runs out. While it holds the room, its entry in the
    set of waiting deliveries is kept at `look_again` seconds from now (`tgbot.egress.lease`).
    `pictures`: the kinds of picture the bot's games draw, by kind (its line-up's).
    `requested`: a key deleted as the room's lock is first asked for, before the outbox is
    read (the marker of a delivery asked for: from then on, a new message asks anew).
    `serve`: delivers another room for a slot the limiter hands over (`Handover`; None: no
    slot is handed to this delivery, as when it is itself one for a handed slot)."""
    held = lease.Lease(client, keys.delivery_lock(where), keys.pending_deliveries(), str(where),
                       look_again)  # fmt: skip
    finished = script(client, _RELEASE_FINISHED)
    delivered = 0
    while True:
        clearing, requested = requested, None
        if not held.take(clearing) and not await _take_abandoned(held):
            return FlushResult(delivered, busy=True)
        try:
            result = await _drain(
                bot, client, where, limiter, (unreachable, topic_gone), attempt, held,
                stopping, patient, pictures, serve,
            )  # fmt: skip
        except BaseException:
            held.release()
            raise
        delivered += result.delivered
        if result.retry_after is not None or result.stopped or result.busy:
            held.release()
            return FlushResult(
                delivered, result.retry_after, result.busy, result.stopped, result.network_error
            )
        # The lock freed; messages queued while we held it had their flush refused: take them
        # too.
        held.stop()
        if finished(keys=[held.key, keys.outbox(where), keys.pending_deliveries()],
                    args=[held.token, str(where)]):  # fmt: skip
            return FlushResult(delivered)


async def _take_abandoned(held: lease.Lease) -> bool:
    """Take the room from a holder that stopped renewing its lease, once the lease ends."""
    left = held.remaining()
    if left > lease.ABANDONED:
        return False  # renewed lately: its holder works, and takes what waits
    await asyncio.sleep(left + 0.01)
    return held.take()


def _superseded(first: Head, then: Head) -> bool:
    return first.key is not None and first.key == then.key and first.chat_id == then.chat_id \
        and not then.fresh  # fmt: skip


PARSED_KEPT = 1024
"""Outbox entries whose heads are kept until they leave the outbox. A message waiting for its
chat's limit is read again at each of its room's deliveries till then (`bench/e2e.py`'s 50
games at full pace read each some 20 times, and a room whose group waits with a long backlog
reads all of it for each message it sends); a head takes 3-10 µs to parse (a whole message
8-40 µs), one kept the size of its entry and some 500 bytes more."""
_parsed: OrderedDict[bytes | str, Head] = OrderedDict()
_parsed_lock = threading.Lock()


def _parse(raw: bytes | str) -> Head | None:
    """An outbox entry's head (a `Head` is frozen: one parse serves every read of the same
    entry), or None for one that does not parse (logged)."""
    with _parsed_lock:
        known = _parsed.get(raw)
    if known is not None:
        return known
    try:
        head = Head.model_validate_json(raw)
    except ValidationError:
        log.error("dropping an outbox entry that does not parse: %r", raw[:200])
        return None
    with _parsed_lock:
        if len(_parsed) >= PARSED_KEPT:
            _parsed.popitem(last=False)  # the oldest
        _parsed[raw] = head
    return head


def _message(raw: bytes | str, pictures: Mapping[str, type[Picture]]) -> Outgoing | None:
    """An outbox entry as the whole message to send, or None for one that does not parse
    (logged): read once, when it is its turn."""
    try:
        return Outgoing.parse(raw, pictures)
    except ValidationError:
        log.error("dropping an outbox entry that does not parse: %r", raw[:200])
        return None


def _forget(raws: list[bytes | str]) -> None:
    """Entries gone from the outbox are not read again: their heads go."""
    with _parsed_lock:
        for raw in raws:
            _parsed.pop(raw, None)


async def _drain(
    bot: Bot,
    client: redis.Redis,
    where: keys.RoomRef,
    limiter: Limiter,
    refused: tuple[Unreachable, TopicGone],
    attempt: int,
    held: lease.Lease,
    stopping: Callable[[], bool],
    patient: Callable[[], bool],
    pictures: Mapping[str, type[Picture]],
    serve: Serve | None = None,
) -> FlushResult:
    """Deliver the outbox in order per chat. A room's outbox holds its group's messages and its
    players' private ones: when one chat must wait (a group's 20 messages a minute, its turn at
    the global limit), the messages of the others go on, and that chat's wait in place, in
    order. A short wait is slept through (`patient()` allowing) only once nothing else in the
    outbox can go: a player's prompt never waits behind its group's turn. A slot handed over
    to another group (`serve`, `patient()` allowing) is used for that group's room first."""
    box = keys.outbox(where)
    delivered = 0
    while True:
        waiting: dict[int, float] = {}  # chat → seconds it must wait; its messages stay put
        kept = 0  # entries at the head of the outbox that wait for their chat
        stayed: list[tuple[bytes | str, Head | None]] = []  # progress edits among them
        while True:
            passed, raws = _next_batch(client, box, kept, waiting)
            kept += passed
            if not raws:
                break
            batch = [_parse(raw) for raw in raws]
            known = _known_ids(client, where, [m for _, m in stayed] + batch)
            # The edits held from earlier batches count with this one's: a newer rendering of
            # their message here replaces them, or waits with them.
            n = len(stayed)
            held_for, superseded = _settle([m for _, m in stayed] + batch, known, time.time())
            for i in sorted(i for i in superseded if i < n):
                client.lrem(box, 1, stayed[i][0])
                _forget([stayed[i][0]])
                kept -= 1
            stayed = [entry for i, entry in enumerate(stayed) if i not in superseded]
            held_for = {i - n for i in held_for if i >= n}
            superseded = {i - n for i in superseded if i >= n}
            start = 0
            while start < len(batch):
                end = start
                while end + 1 < len(batch) and _superseded_pair(batch[end], batch[end + 1]):
                    end += 1
                head, run = batch[end], raws[start : end + 1]
                # an edit of a copy still to be sent new: send the edit's text new
                renew = head is not None and not head.fresh and any(
                    m is not None and m.fresh for m in batch[start:end])
                first = start
                start = end + 1
                if head is not None and head.chat_id in waiting:
                    kept += len(run)
                    continue
                if end in held_for:  # a progress edit waiting for a newer one: others go on
                    stayed += zip(run, batch[first : end + 1], strict=True)
                    kept += len(run)
                    continue
                if end in superseded:  # a later rendering of its message is queued: it shows
                    _done(client, box, where, run, None, None, known)
                    continue
                outcome: int | None | FlushResult = None
                message = _message(raws[end], pictures) if head is not None else None
                if message is not None and renew:
                    message = message.model_copy(update={"fresh": True})
                if message is not None:
                    if stopping():
                        return FlushResult(delivered, stopped=True)
                    if not held.ours():
                        return FlushResult(delivered, busy=True)
                    outcome = await _deliver(bot, client, where, message, known, limiter,
                                             refused, attempt, FileIds(client),
                                             (serve, patient))  # fmt: skip
                    if isinstance(outcome, FlushResult):
                        if outcome.busy or outcome.network_error or outcome.retry_after is None:
                            return FlushResult(delivered, outcome.retry_after, outcome.busy,
                                               network_error=outcome.network_error)  # fmt: skip
                        waiting[message.chat_id] = outcome.retry_after
                        kept += len(run)
                        continue
                    if isinstance(outcome, Staged):
                        limiter.answered(message.chat_id)
                        _stage(client, box, where, run, message, outcome)
                        break  # read the outbox again: the entry is now the picture's edit
                _done(client, box, where, run, message, outcome, known,
                      limiter if message is not None else None)  # fmt: skip
                if message is not None:
                    delivered += 1
            else:
                if len(raws) < BATCH and not waiting and not stayed:
                    # The outbox was read to its end and nothing in it waits: what came
                    # meanwhile had its delivery refused, and `flush` takes it (the outbox is
                    # not empty) in order, without a look that finds nothing most times.
                    break
        if stayed:  # held for a newer rendering: looked at again when the first is due
            waiting[0] = max(0.0, min(_due(m) for _, m in stayed) - time.time())
        if not waiting:
            return FlushResult(delivered)
        pause = min(waiting.values())
        if pause > SHORT_WAIT or not patient() or stopping():
            for chat, wait in waiting.items():
                if chat < 0 and wait <= SHORT_WAIT:  # a group's slot may be kept for it
                    limiter.forgo(chat)
            return FlushResult(delivered, retry_after=pause)
        await asyncio.sleep(pause)


def _next_batch(
    client: redis.Redis, box: str, kept: int, waiting: dict[int, float]
) -> tuple[int, list[bytes | str]]:
    """The outbox's next entries to read from `kept` on, and how many before them were passed
    over unread: once chats must wait, their entries are not read again (a group waiting with
    a long backlog would be read whole for each message it sends, for the private messages
    that may lie behind it); they stay put, in order, and are read when their chat's turn
    comes. Their renderings that a later one supersedes are dropped then."""
    if not waiting:
        return 0, client.lrange(box, kept, kept + BATCH - 1)
    passed, raws = script(client, _PAST_WAITING)(keys=[box], args=[kept, BATCH, *waiting])
    return int(passed), raws


def _settle(
    batch: list[Head | None], known: dict[tuple[int, str], int], now: float
) -> tuple[set[int], set[int]]:
    """Which edits of messages already sent wait, and which a later one replaces unsent.

    The edits of one message in a batch (whatever lies between them: a message's edits do not
    move it) form a group. While every one of them is a progress edit still settling, the
    group waits, untouched (so its earliest time is kept). Otherwise its last edit is delivered
    now and the earlier ones are dropped: that is what they would be overwritten with at once."""
    groups: dict[tuple[int, int, str], list[int]] = {}
    for i, message in enumerate(batch):
        if message is None or message.key is None or message.fresh:
            continue
        if (message.game, message.key) in known:
            groups.setdefault((message.chat_id, message.game, message.key), []).append(i)
    held: set[int] = set()
    superseded: set[int] = set()
    for indices in groups.values():
        due = min(_due(batch[i]) for i in indices)
        if due > now:
            held.update(indices)
        else:
            superseded.update(indices[:-1])
    return held, superseded


def _due(message: Head | None) -> float:
    return (message.settle_until or 0.0) if message is not None else 0.0


def _stage(
    client: redis.Redis, box: str, where: keys.RoomRef, run: list[bytes | str], message: Outgoing,
    new_id: int,
) -> None:  # fmt: skip
    """Record a `Staged` message's id and turn its entry into the edit of its picture, at once
    (and drop the renderings it superseded)."""
    assert message.key is not None
    edit = message.model_copy(update={"fresh": False}).model_dump_json()
    _forget(run)
    script(client, _STAGE)(
        keys=[box, keys.message_ids(where, message.game)],
        args=[run[-1], edit, message.key, int(new_id), MESSAGE_IDS_TTL, *run[:-1]],
    )  # fmt: skip


def _done(
    client: redis.Redis,
    box: str,
    where: keys.RoomRef,
    run: list[bytes],
    message: Head | Outgoing | None,
    new_id: int | None,
    known: dict[tuple[int, str], int],
    limiter: Limiter | None = None,
) -> None:
    """Take a delivered message (and the renderings it superseded) out of the outbox: each is
    the first entry equal to itself, since an earlier equal one would be of the same chat and
    delivered before. Remember the id of a new message; let its answer be asked again. With
    `limiter`: the message's call is over (`_deliver` leaves that to this round trip)."""
    pipe = client.pipeline(transaction=False)
    if limiter is not None and message is not None:
        limiter.answered(message.chat_id, pipe)
    for raw in run:
        pipe.lrem(box, 1, raw)
    if message is not None and new_id is not None and message.key:
        ids = keys.message_ids(where, message.game)
        pipe.hset(ids, message.key, new_id)
        pipe.expire(ids, MESSAGE_IDS_TTL)
        known[message.game, message.key] = new_id
    if message is not None and message.once:
        pipe.delete(keys.answer_pending(where, message.once))
    pipe.execute()
    _forget(run)


def _known_ids(
    client: redis.Redis, where: keys.RoomRef, batch: list[Head | None]
) -> dict[tuple[int, str], int]:
    """The message ids already sent under the keys of a batch, looked up in their games' maps
    (one HMGET a game: a busy group's outbox names dozens of messages, and a command each cost
    the client more than the lookup)."""
    by_game: dict[int, dict[str, None]] = {}  # each game's keys, in order, once each
    for message in batch:
        if message is not None and message.key:
            by_game.setdefault(message.game, {})[message.key] = None
    if not by_game:
        return {}
    if len(by_game) == 1:
        [(game, named)] = by_game.items()
        found = [client.hmget(keys.message_ids(where, game), list(named))]
    else:
        pipe = client.pipeline(transaction=False)
        for game, named in by_game.items():
            pipe.hmget(keys.message_ids(where, game), list(named))
        found = pipe.execute()
    return {
        (game, key): int(raw)
        for (game, named), raws in zip(by_game.items(), found, strict=True)
        for key, raw in zip(named, raws, strict=True)
        if raw is not None
    }


def _superseded_pair(first: Head | None, then: Head | None) -> bool:
    return first is not None and then is not None and _superseded(first, then)


async def _deliver(
    bot: Bot,
    client: redis.Redis,
    where: keys.RoomRef,
    message: Outgoing,
    known: dict[tuple[int, str], int],
    limiter: Limiter,
    refused: tuple[Unreachable, TopicGone],
    attempt: int,
    file_ids: FileIds | None = None,
    serving: tuple[Serve | None, Callable[[], bool]] = (None, lambda: False),
) -> int | None | FlushResult:
    """Send one message within the limits; its new id, None, or why to stop for now. A fresh
    copy of a message sent before first turns the old one into a pointer to it, and forgets
    its id. `serving`: what delivers a room for a handed slot, and whether it may now."""
    previous = known.get((message.game, message.key)) if message.key else None
    if message.edit_only and (previous is None or message.fresh):
        return None  # nothing sent under its key: nothing to edit
    try:
        if message.fresh and previous is not None:
            if (waited := await _slot(limiter, message.chat_id, True, where,
                                      serving)) is not None:  # fmt: skip
                return waited
            photo = file_ids is not None and file_ids.showing(message.chat_id, previous) is not None
            try:
                await retire(bot, message.chat_id, previous, message.lang, photo)
            finally:
                limiter.answered(message.chat_id)
            # Retired once: a retry after a wait for the chat's limit only sends the copy (else
            # each try would spend the chat's one free slot on the pointer again, for ever).
            assert message.key is not None
            client.hdel(keys.message_ids(where, message.game), message.key)
            known.pop((message.game, message.key), None)
            previous = None
        edit = previous is not None and not message.fresh
        if (waited := await _slot(limiter, message.chat_id, edit, where, serving)) is not None:
            return waited
        try:
            # Answered, the call's slot is counted by the caller along with the outbox's
            # bookkeeping, in one round trip (`_done`, or `limiter.answered` before `_stage`).
            return await send_or_edit(bot, message, previous, file_ids)
        except BaseException:
            limiter.answered(message.chat_id)
            raise
    except RetryAfter as error:
        seconds = _seconds(error.retry_after)
        TALLY.count("telegram_429")
        TALLY.observe("retry_after_seconds", seconds)
        log.warning("chat %s: Telegram asks to wait %ss", message.chat_id, seconds)
        return FlushResult(retry_after=seconds)
    except Forbidden as error:
        log.info("chat %s: %s refused: %s", where, message.chat_id, error)
        if message.unreachable is not None:
            refused[0](*message.unreachable)
    except BadRequest as error:
        log.warning("chat %s: dropping a message Telegram refused: %s", where, error)
        if message.thread_id is not None and "thread not found" in str(error).lower():
            refused[1]()  # the room's topic was deleted: its game cannot go on
    except NetworkError as error:
        delay = NETWORK_BACKOFF[min(attempt, len(NETWORK_BACKOFF) - 1)]
        log.warning("chat %s: network error, retrying in %ss: %s", where, delay, error)
        return FlushResult(retry_after=delay, network_error=True)
    except TelegramError as error:
        log.error("chat %s: dropping a message after %r", where, error)
    except (RedisError, BaseTimeoutException):
        raise  # Redis away or the job's time up: the message stays for a later delivery
    except Exception:
        # Nothing in Redis or at Telegram failed but this message: trying it again would fail
        # again and hold back every message of the room behind it.
        log.error("chat %s: dropping a message whose delivery failed (%s)", where, message.key,
                  exc_info=True)  # fmt: skip
        TALLY.count("delivery_failures", what="message")
    return None


async def _slot(
    limiter: Limiter, chat_id: int, edit: bool, where: keys.RoomRef,
    serving: tuple[Serve | None, Callable[[], bool]],
) -> FlushResult | None:  # fmt: skip
    """Take a slot of the rate limits, or say how long to wait (the caller, `_drain`, sleeps
    through a short wait once nothing else in the outbox can go). A free slot handed over to
    the group that has waited longest is used first: that group's room is delivered here,
    then the slot asked for again."""
    serve, may = serving
    for turn in range(HANDOVERS + 1):
        hand = serve is not None and chat_id < 0 and turn < HANDOVERS and may()
        wait = limiter.reserve(chat_id, edit, room=str(where), hand=hand)
        if isinstance(wait, Handover) and serve is not None:
            TALLY.count("rate_handovers")
            await serve(wait.room)
            continue
        return FlushResult(retry_after=wait) if wait > 0 else None
    return None  # not reached: the last turn hands nothing over


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]
