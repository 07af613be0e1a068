"""Bot API methods of the double, independent of HTTP: `call(world, method, params)`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from tgbot.standin import errors as E
from tgbot.standin import photos
from tgbot.standin.chatapi import CHAT_METHODS, chat_for_bot
from tgbot.standin.editing import apply_edit, check_markup, editable, rate_limit
from tgbot.standin.errors import ApiError, bad_request
from tgbot.standin.htmltext import parse_html
from tgbot.standin.records import CallbackAnswer
from tgbot.standin.world import World

Handler = Callable[[World, dict[str, Any]], Any]

MAX_TEXT = 4096
_INT_KEYS = frozenset(
    {
        "chat_id",
        "message_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "max_connections",
        "cache_time",
        "message_thread_id",
        "reply_to_message_id",
        "from_chat_id",
    }
)
_BOOL_KEYS = frozenset(
    {
        "disable_web_page_preview",
        "disable_notification",
        "protect_content",
        "show_alert",
        "drop_pending_updates",
        "allow_sending_without_reply",
        "only_if_banned",
    }
)
_JSON_KEYS = frozenset(
    {
        "reply_markup",
        "allowed_updates",
        "link_preview_options",
        "entities",
        "reply_parameters",
        "commands",
        "scope",
        "caption_entities",
        "media",
    }
)


def normalize_params(raw: dict[str, Any]) -> dict[str, Any]:
    """Turn form strings into the JSON types Telegram reads them as."""
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            if key in _INT_KEYS:
                with contextlib.suppress(ValueError):
                    value = int(value)
            elif key in _BOOL_KEYS:
                value = value.lower() in ("true", "1")
            elif key in _JSON_KEYS:
                try:
                    value = json.loads(value)
                except ValueError as exc:
                    raise bad_request(f"Bad Request: can't parse {key} JSON object") from exc
        params[key] = value
    return params


# ----- shared checks ----------------------------------------------------------------------


def render_text(params: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """Plain text and entities of a text parameter, validated like Telegram does."""
    text = params.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request(E.TEXT_EMPTY)
    mode = str(params.get("parse_mode") or "").lower()
    if mode == "html":
        plain, entities = parse_html(text)
    else:
        plain, entities = text, list(params.get("entities") or [])
    if not plain.strip():
        raise bad_request(E.TEXT_EMPTY)
    if len(plain) > MAX_TEXT:
        raise bad_request(E.TEXT_TOO_LONG)
    return plain, entities


# ----- methods ----------------------------------------------------------------------------


def get_me(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """getMe."""
    return {
        **world.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
    }


def send_message(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """sendMessage."""
    chat = chat_for_bot(world, params.get("chat_id"))
    thread = params.get("message_thread_id")
    if thread is not None and (not chat.is_forum or thread not in chat.topics):
        raise bad_request(E.THREAD_NOT_FOUND)  # not a forum, or no such (open) topic
    plain, entities = render_text(params)
    markup = check_markup(params.get("reply_markup"), chat)
    rate_limit(world, chat)
    record = world.append_message(
        chat.id,
        text=params["text"],
        parse_mode=params.get("parse_mode"),
        plain_text=plain,
        entities=entities,
        reply_markup=markup,
        thread_id=thread,
    )
    return world.message_to_api(record)


def edit_message_text(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """editMessageText (chat_id + message_id)."""
    record = editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    if record.photo is not None:
        raise bad_request(E.NO_TEXT)
    plain, entities = render_text(params)
    markup = check_markup(params.get("reply_markup"), world.chats.get(record.chat_id))
    return apply_edit(
        world,
        record,
        text=params["text"],
        parse_mode=params.get("parse_mode"),
        plain_text=plain,
        entities=entities,
        reply_markup=markup,
    )


def edit_message_reply_markup(world: World, params: dict[str, Any]) -> dict[str, Any]:
    """editMessageReplyMarkup (chat_id + message_id)."""
    record = editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    markup = check_markup(params.get("reply_markup"), world.chats.get(record.chat_id))
    return apply_edit(world, record, reply_markup=markup)


def delete_message(world: World, params: dict[str, Any]) -> bool:
    """deleteMessage."""
    record = editable(world, params, E.DELETE_NOT_FOUND)
    chat = world.chats[record.chat_id]
    if not record.from_bot and chat.type != "private" and chat.bot_status != "administrator":
        raise bad_request("Bad Request: message can't be deleted")
    record.deleted = True
    return True


def answer_callback_query(world: World, params: dict[str, Any]) -> bool:
    """answerCallbackQuery: record text, show_alert, url and cache_time once per query."""
    query = world.callback_queries.get(str(params.get("callback_query_id", "")))
    if query is None or query.answer is not None:
        raise bad_request(E.QUERY_INVALID)
    query.answer = CallbackAnswer(
        text=params.get("text"),
        show_alert=bool(params.get("show_alert", False)),
        url=params.get("url"),
        cache_time=params.get("cache_time"),
        at=world.now(),
    )
    return True


METHODS: dict[str, Handler] = {
    "getMe": get_me,
    "sendMessage": send_message,
    "editMessageText": edit_message_text,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "answerCallbackQuery": answer_callback_query,
    "sendPhoto": photos.send_photo,
    "editMessageMedia": photos.edit_message_media,
    "editMessageCaption": photos.edit_message_caption,
    **CHAT_METHODS,
}
_BY_LOWER = {name.lower(): name for name in METHODS}


def canonical_method(method: str) -> str | None:
    """The canonical spelling of a Bot API method name, or None if not implemented."""
    return _BY_LOWER.get(method.lower())


def call(world: World, method: str, raw_params: dict[str, Any]) -> Any:
    """Run one Bot API method against the world; raise ApiError for Telegram errors."""
    name = canonical_method(method) or method
    with world.lock:
        params = raw_params
        try:
            params = normalize_params(raw_params)
            if name not in METHODS:
                raise ApiError(404, E.METHOD_NOT_FOUND)
            injected = world.take_failure(name)
            if injected is not None:
                raise injected
            result = METHODS[name](world, params)
        except ApiError as error:
            world.record_call(name, params, error)
            raise
        world.record_call(name, params, None)
        return result
