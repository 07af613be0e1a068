"""What the stand-in's sending and editing methods share: checking a keyboard, the chat's
rate limits, finding the message an edit names and applying the edit."""

from __future__ import annotations

from typing import Any

from tgbot.standin import errors as E
from tgbot.standin.chatapi import chat_for_bot
from tgbot.standin.errors import bad_request, too_many_requests
from tgbot.standin.records import Chat, MessageRecord
from tgbot.standin.world import World

MAX_CALLBACK_DATA = 64
_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query", "pay",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "callback_game",
    "copy_text",
)  # fmt: skip


def check_markup(markup: Any, chat: Chat | None = None) -> dict[str, Any] | None:
    """Validate a reply_markup for a message in `chat`; return it as a plain dict (None for no
    keyboard). A `web_app` button is refused outside private chats, as Telegram does."""
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
        if "web_app" in button and chat is not None and chat.type != "private":
            raise bad_request(E.BUTTON_TYPE_INVALID)
        if "web_app" in button and not str((button["web_app"] or {}).get("url", "")).startswith(
            ("https://", "http://127.0.0.1", "http://localhost")
        ):
            raise bad_request(E.BUTTON_URL_INVALID)
        if "callback_data" in button:
            data = button["callback_data"]
            size = len(data.encode()) if isinstance(data, str) else 0
            if not 1 <= size <= MAX_CALLBACK_DATA:
                raise bad_request(E.BUTTON_DATA_INVALID)
    return markup if any(rows) else None


def _inline(markup: dict[str, Any] | None) -> dict[str, Any] | None:
    return markup if markup and markup.get("inline_keyboard") else None


def rate_limit(world: World, chat: Chat, *, edit: bool = False) -> None:
    """Refuse a send or an edit over the chat's limits (429), when the world enforces them."""
    if not world.enforce_rate_limits:
        return
    hit = world.limiter.acquire(chat.id, chat.type != "private", is_edit=edit)
    if hit is not None:
        scope, retry_after = hit
        raise too_many_requests(retry_after, scope)


def editable(world: World, params: dict[str, Any], missing: str) -> MessageRecord:
    """The bot's message an edit names (`missing`: the error when there is none)."""
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


def apply_edit(world: World, record: MessageRecord, **changes: Any) -> dict[str, Any]:
    """Apply an edit as Telegram does: refused when it changes nothing visible."""
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
    rate_limit(world, world.chats[record.chat_id], edit=True)
    record.edits.append(record.snapshot())
    for key, value in changes.items():
        setattr(record, key, value)
    record.edit_date = int(world.now())
    return world.message_to_api(record)
