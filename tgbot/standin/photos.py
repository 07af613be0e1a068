"""Photo methods of the double: sendPhoto, editMessageMedia and editMessageCaption, as the Bot
API takes them (an uploaded file, `attach://<part>`, or the file_id of a photo sent before),
with Telegram's refusals for bad input. The uploaded bytes are kept for tests and the page."""

from __future__ import annotations

import hashlib
import io
from typing import Any

from PIL import Image, UnidentifiedImageError

from tgbot.standin import errors as E
from tgbot.standin.chatapi import chat_for_bot
from tgbot.standin.editing import apply_edit, check_markup, editable, rate_limit
from tgbot.standin.errors import bad_request
from tgbot.standin.htmltext import parse_html
from tgbot.standin.records import StoredFile
from tgbot.standin.world import World

MAX_CAPTION = 1024
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_DIMENSIONS = 10_000  # width + height
SIZES = (320, 800, 1280)  # the sides Telegram scales a photo's sizes to (the largest ≤ 1280)


def render_caption(params: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """Plain caption and entities (both empty without a caption)."""
    caption = params.get("caption")
    if caption is None or caption == "":
        return "", []
    if not isinstance(caption, str):
        raise bad_request(E.BAD_MEDIA)
    if str(params.get("parse_mode") or "").lower() == "html":
        plain, entities = parse_html(caption)
    else:
        plain, entities = caption, list(params.get("caption_entities") or [])
    if len(plain.encode("utf-16-le")) // 2 > MAX_CAPTION:
        raise bad_request(E.CAPTION_TOO_LONG)
    return plain, entities


def _upload(world: World, content: Any) -> StoredFile:
    if not isinstance(content, bytes | bytearray) or not content:
        raise bad_request(E.NO_PHOTO)
    if len(content) > MAX_PHOTO_BYTES:
        raise bad_request(E.PHOTO_TOO_BIG)
    try:
        with Image.open(io.BytesIO(content)) as image:
            image.verify()
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise bad_request(E.IMAGE_FAILED) from exc
    if width + height > MAX_DIMENSIONS or min(width, height) < 1 or max(width, height) > 20 * min(
        width, height
    ):
        raise bad_request(E.PHOTO_DIMENSIONS)
    unique = "AQAD" + hashlib.sha256(content).hexdigest()[:24]
    stored = world.uploads.get(unique) or StoredFile(unique, bytes(content), width, height)
    world.uploads[unique] = stored
    return stored


def _sizes(world: World, stored: StoredFile) -> list[dict[str, Any]]:
    """The photo's sizes, each with a new file_id (Telegram gives a new one per upload) and
    the file's unique id."""
    sizes = []
    longest = max(stored.width, stored.height)
    sides = [s for s in SIZES if s < longest] + [min(longest, SIZES[-1])]
    for side in sides:
        scale = side / longest
        file_id = f"AgACAgIAAxkDAAI{len(world.files) + 1:06d}{stored.unique_id}"
        unique = stored.unique_id if side == sides[-1] else f"{stored.unique_id}-{side}"
        world.files[file_id] = stored
        sizes.append({
            "file_id": file_id,
            "file_unique_id": unique,
            "width": max(1, round(stored.width * scale)),
            "height": max(1, round(stored.height * scale)),
            "file_size": len(stored.content),
        })  # fmt: skip
    return sizes


def photo_sizes(world: World, params: dict[str, Any], value: Any) -> list[dict[str, Any]]:
    """The sizes of the photo a parameter names: a file_id, `attach://<part>`, or a file."""
    if isinstance(value, str) and value.startswith("attach://"):
        value = params.get(value.removeprefix("attach://"))
        if value is None:
            raise bad_request(E.WRONG_FILE_ID)
    if isinstance(value, dict):
        return _sizes(world, _upload(world, value.get("content")))
    if isinstance(value, str) and value:
        stored = world.files.get(value)
        if stored is None:
            raise bad_request(E.WRONG_FILE_ID)
        return _sizes(world, stored)
    raise bad_request(E.NO_PHOTO)


def send_photo(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """sendPhoto."""
    chat = chat_for_bot(world, params.get("chat_id"))
    thread = params.get("message_thread_id")
    if thread is not None and (not chat.is_forum or thread not in chat.topics):
        raise bad_request(E.THREAD_NOT_FOUND)
    plain, entities = render_caption(params)
    sizes = photo_sizes(world, params, params.get("photo"))
    markup = check_markup(params.get("reply_markup"), chat)
    rate_limit(world, chat)
    record = world.append_message(
        chat.id, text=params.get("caption") or "", parse_mode=params.get("parse_mode"),
        plain_text=plain, entities=entities, reply_markup=markup, thread_id=thread, photo=sizes,
    )  # fmt: skip
    return world.message_to_api(record)


def edit_message_media(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """editMessageMedia (chat_id + message_id) with a photo; turns a text message into one."""
    record = editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    media = params.get("media")
    if not isinstance(media, dict) or not isinstance(media.get("media"), str):
        raise bad_request(E.BAD_MEDIA)
    if media.get("type") != "photo":
        raise bad_request(E.MEDIA_TYPE)
    plain, entities = render_caption(media)
    sizes = photo_sizes(world, params, media["media"])
    markup = check_markup(params.get("reply_markup"), world.chats.get(record.chat_id))
    return apply_edit(
        world, record, photo=sizes, text=media.get("caption") or "",
        parse_mode=media.get("parse_mode"), plain_text=plain, entities=entities,
        reply_markup=markup,
    )  # fmt: skip


def edit_message_caption(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """editMessageCaption (chat_id + message_id)."""
    record = editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    if record.photo is None:
        raise bad_request(E.NO_CAPTION)
    plain, entities = render_caption(params)
    markup = check_markup(params.get("reply_markup"), world.chats.get(record.chat_id))
    return apply_edit(
        world, record, text=params.get("caption") or "", parse_mode=params.get("parse_mode"),
        plain_text=plain, entities=entities, reply_markup=markup,
    )
