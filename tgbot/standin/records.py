"""Plain records kept by the stand-in world."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class User:
    """A Telegram user as the world knows them."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started_bot: bool = False
    blocked: bool = False

    def to_api(self) -> dict[str, Any]:
        """Return the Bot API User object."""
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data


@dataclass
class MessageRecord:
    """One message in a chat, sent by the bot or by a user."""

    chat_id: int
    message_id: int
    date: int
    text: str
    parse_mode: str | None = None
    plain_text: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    reply_markup: dict[str, Any] | None = None
    from_user_id: int | None = None  # None: sent by the bot
    deleted: bool = False
    edit_date: int | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)  # earlier versions, oldest first
    thread_id: int | None = None
    """The forum topic it is in (its `message_thread_id`); None: the General topic, or a chat
    that is not a forum."""
    topic_created: str | None = None
    """For the service message that opened a forum topic: the topic's name."""
    reply_to: int | None = None
    """The message id this one replies to (None: none, or a topic's opening message)."""
    photo: list[dict[str, Any]] | None = None
    """A photo message's sizes (PhotoSize objects, smallest first); its text is the caption."""

    @property
    def from_bot(self) -> bool:
        """True when the bot sent this message."""
        return self.from_user_id is None

    def snapshot(self) -> dict[str, Any]:
        """Return the editable content of the message as a plain dict."""
        return {
            "text": self.text,
            "parse_mode": self.parse_mode,
            "reply_markup": self.reply_markup,
            "date": self.edit_date or self.date,
            "photo": self.photo,
        }

    def to_state(self) -> dict[str, Any]:
        """Return a JSON-friendly description for the control API."""
        return {
            "message_id": self.message_id,
            "chat_id": self.chat_id,
            "date": self.date,
            "from_bot": self.from_bot,
            "from_user_id": self.from_user_id,
            "text": self.text,
            "parse_mode": self.parse_mode,
            "plain_text": self.plain_text,
            "entities": self.entities,
            "reply_markup": self.reply_markup,
            "deleted": self.deleted,
            "edit_date": self.edit_date,
            "edits": self.edits,
            "thread_id": self.thread_id,
            "topic_created": self.topic_created,
            "photo": self.photo,
        }


@dataclass
class StoredFile:
    """A photo the bot uploaded: its bytes and what Telegram says of it."""

    unique_id: str
    content: bytes
    width: int
    height: int


@dataclass
class Chat:
    """A chat: private (id = user id), group or supergroup (negative id). A forum supergroup
    has topics, each named by the id of the message that opened it (its thread id)."""

    id: int
    type: str
    title: str | None = None
    bot_status: str = "member"
    is_forum: bool = False
    topics: dict[int, str] = field(default_factory=dict)  # open topics: thread id → name
    member_status: dict[int, str] = field(default_factory=dict)
    messages: list[MessageRecord] = field(default_factory=list)
    last_message_id: int = 0
    actions: list[str] = field(default_factory=list)

    def message(self, message_id: int) -> MessageRecord | None:
        """Return the message with `message_id`, deleted or not, or None."""
        if 1 <= message_id <= len(self.messages):
            found = self.messages[message_id - 1]
            if found.message_id == message_id:
                return found
        return next((m for m in self.messages if m.message_id == message_id), None)


@dataclass
class CallbackAnswer:
    """What the bot answered to a callback query."""

    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None
    at: float = 0.0


@dataclass
class CallbackQueryRecord:
    """A button press sent to the bot, and its answer once given."""

    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    at: float
    answer: CallbackAnswer | None = None


@dataclass
class ApiCall:
    """One Bot API request in the order it arrived, with its outcome."""

    method: str
    params: dict[str, Any]
    ok: bool = True
    error_code: int | None = None
    description: str | None = None
    at: float = 0.0


@dataclass
class WebhookSettings:
    """The webhook configured through setWebhook."""

    url: str = ""
    secret_token: str | None = None
    allowed_updates: list[str] | None = None
    max_connections: int = 40
    ip_address: str | None = None
    drop_pending_updates: bool = False


@dataclass
class RateLimitHit:
    """A 429 answer given to the bot."""

    method: str
    chat_id: int | None
    retry_after: int
    scope: str  # "chat", "group", "global" or "injected"
    at: float


@dataclass
class InjectedFailure:
    """An error to answer instead of running the next call(s) of a method."""

    method: str
    error_code: int
    description: str
    retry_after: int | None = None
    times: int = 1
    page: bool = False  # an HTML error page echoing the request path, as some proxies send


@dataclass
class HeldCall:
    """A call the double holds before running it, as a slow Telegram would (for tests):
    `reached` is set once the call arrived, and the call runs once `released` is set."""

    method: str
    chat_id: str | None
    reached: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        """Let the held call run."""
        self.released.set()


_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
)


def member_dict(user: dict[str, Any], status: str) -> dict[str, Any]:
    """Return a Bot API ChatMember object for `user` with `status`."""
    data: dict[str, Any] = {"user": user, "status": status}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update({"can_be_edited": False, "is_anonymous": False})
        data.update({right: True for right in _ADMIN_RIGHTS})
    elif status == "kicked":
        data["until_date"] = 0
    return data
