"""Bot API methods of the double, independent of HTTP: `call(world, method, params)`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from tgbot.standin import errors as E
from tgbot.standin import photos
from tgbot.standin.chatapi import CHAT_METHODS, chat_for_bot
from tgbot.standin.errors import ApiError, bad_request, too_many_requests
from tgbot.standin.htmltext import parse_html
from tgbot.standin.records import CallbackAnswer, Chat, MessageRecord
from tgbot.standin.world import World

Handler = Callable[[World, dict[str, Any]], Any]

MAX_TEXT = 4096
MAX_CALLBACK_DATA = 64
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
_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query", "pay",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "callback_game",
    "copy_text",
)  # fmt: skip


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


def check_markup(markup: Any) -> dict[str, Any] | None:
    """Validate a reply_markup; return it as a plain dict (None for no keyboard)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("Bad Request: can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request("Bad Request: can't parse inline keyboard button: field must be array")
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise bad_request("Bad Request: can't parse inline keyboard button: Text is empty")
        if not any(key in button for key in _BUTTON_ACTIONS):
            raise bad_request(E.TEXT_BUTTONS)
        if "callback_data" in button:
            data = button["callback_data"]
            size = len(data.encode()) if isinstance(data, str) else 0
            if not 1 <= size <= MAX_CALLBACK_DATA:
                raise bad_request(E.BUTTON_DATA_INVALID)
    return markup if any(rows) else None


def _inline(markup: dict[str, Any] | None) -> dict[str, Any] | None:
    return markup if markup and markup.get("inline_keyboard") else None


def _rate_limit(world: World, chat: Chat, *, edit: bool = False) -> None:
    if not world.enforce_rate_limits:
        return
    hit = world.limiter.acquire(chat.id, chat.type != "private", is_edit=edit)
    if hit is not None:
        scope, retry_after = hit
        raise too_many_requests(retry_after, scope)


def _editable(world: World, params: dict[str, Any], missing: str) -> MessageRecord:
    if params.get("inline_message_id"):
        raise bad_request(missing)
    chat = world.chats.get(params.get("chat_id"))  # type: ignore[arg-type]
    if chat is None:
        raise bad_request(E.CHAT_NOT_FOUND)
    chat_for_bot(world, chat.id, sending=False)
    message_id = params.get("message_id")
    record = chat.message(message_id) if isinstance(message_id, int) else None
    if record is None or record.deleted:
        raise bad_request(missing)
    return record


def _shown_photo(photo: list[dict[str, Any]] | None) -> str | None:
    return photo[-1]["file_unique_id"] if photo else None


def _apply_edit(world: World, record: MessageRecord, **changes: Any) -> dict[str, Any]:
    before = (_shown_photo(record.photo), record.plain_text, record.entities,
              _inline(record.reply_markup))  # fmt: skip
    after = (
        _shown_photo(changes.get("photo", record.photo)),
        changes.get("plain_text", record.plain_text),
        changes.get("entities", record.entities),
        _inline(changes["reply_markup"]),
    )
    if before == after:
        raise bad_request(E.NOT_MODIFIED)
    _rate_limit(world, world.chats[record.chat_id], edit=True)
    record.edits.append(record.snapshot())
    for key, value in changes.items():
        setattr(record, key, value)
    record.edit_date = int(world.now())
    return world.message_to_api(record)


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
    markup = check_markup(params.get("reply_markup"))
    _rate_limit(world, chat)
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
    record = _editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    if record.photo is not None:
        raise bad_request(E.NO_TEXT)
    plain, entities = render_text(params)
    markup = check_markup(params.get("reply_markup"))
    return _apply_edit(
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
    record = _editable(world, params, E.EDIT_NOT_FOUND)
    if not record.from_bot:
        raise bad_request("Bad Request: message can't be edited")
    return _apply_edit(world, record, reply_markup=check_markup(params.get("reply_markup")))


def delete_message(world: World, params: dict[str, Any]) -> bool:
    """deleteMessage."""
    record = _editable(world, params, E.DELETE_NOT_FOUND)
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
