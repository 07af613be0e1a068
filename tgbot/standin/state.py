"""Core recorded state of the double: users, chats, messages, calls and failures."""

from __future__ import annotations

import threading
import time
from typing import Any

from tgbot.standin.errors import ApiError
from tgbot.standin.ratelimit import Clock, RateLimiter, RateLimits
from tgbot.standin.records import (
    ApiCall,
    CallbackAnswer,
    CallbackQueryRecord,
    Chat,
    HeldCall,
    InjectedFailure,
    MessageRecord,
    RateLimitHit,
    StoredFile,
    User,
    WebhookSettings,
    member_dict,
)

DEFAULT_TOKEN = "123456789:STANDIN-test-token"
GROUP_TYPES = ("group", "supergroup")
TOPIC_COLOR = 0x6FB9F0  # the first of the colours a forum topic's icon may have


class WorldState:
    """Thread-safe in-memory state of everything the double has seen and answered."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "hintrigue_bot",
        bot_first_name: str = "Hintrigue",
        bot_id: int | None = None,
        clock: Clock = time.time,
        rate_limits: RateLimits | None = None,
        enforce_rate_limits: bool = True,
        first_update_id: int = 1,
        first_user_id: int = 1001,
    ):
        self.lock = threading.RLock()
        self.token = token
        prefix = token.split(":", 1)[0]
        if bot_id is None:
            bot_id = int(prefix) if prefix.isdigit() else 123456789
        self.bot = User(bot_id, bot_first_name, username=bot_username, is_bot=True)
        self.clock = clock
        self.enforce_rate_limits = enforce_rate_limits
        self.limiter = RateLimiter(rate_limits or RateLimits(), clock)
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.webhook = WebhookSettings()
        self.webhook_last_error: tuple[int, str] | None = None
        self.polling_allowed_updates: list[str] | None = None
        self.pending: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []
        self.calls: list[ApiCall] = []
        self.too_many_requests: list[RateLimitHit] = []
        self.failures: list[InjectedFailure] = []
        self.holds: list[HeldCall] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.files: dict[str, StoredFile] = {}  # file_id → the uploaded photo
        self.uploads: dict[str, StoredFile] = {}  # file_unique_id → the uploaded photo
        self.apps: dict[str, str] = {}  # the bot's Mini Apps (BotFather's /newapp): name → URL
        self._next_update_id = first_update_id
        self._next_query_id = 1
        self._next_user_id = first_user_id

    # ----- setup -------------------------------------------------------------------------

    def now(self) -> float:
        """Current time of the world clock."""
        return self.clock()

    def add_user(
        self,
        user_id: int | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        username: str | None = None,
        *,
        language_code: str | None = None,
        started: bool | None = None,
        blocked: bool | None = None,
    ) -> User:
        """Create a user (or update the given fields of an existing one) and return it."""
        with self.lock:
            if user_id is None:
                while self._next_user_id in self.users:
                    self._next_user_id += 1
                user_id = self._next_user_id
            user = self.users.get(user_id)
            if user is None:
                user = User(user_id, first_name or f"User{user_id}")
                self.users[user_id] = user
            elif first_name is not None:
                user.first_name = first_name
            for key, value in (
                ("last_name", last_name),
                ("username", username),
                ("language_code", language_code),
                ("started_bot", started),
                ("blocked", blocked),
            ):
                if value is not None:
                    setattr(user, key, value)
            return user

    def user(self, user: int | User) -> User:
        """Return the user record for an id or User, creating a default user if unknown."""
        user_id = user.id if isinstance(user, User) else int(user)
        with self.lock:
            return self.users.get(user_id) or self.add_user(user_id)

    def add_chat(
        self,
        chat_id: int,
        chat_type: str | None = None,
        title: str | None = None,
        *,
        bot_status: str = "member",
        is_forum: bool | None = None,
    ) -> Chat:
        """Register a chat (type guessed from the id sign when omitted) and return it. A forum
        is a supergroup."""
        with self.lock:
            chat = self.chats.get(chat_id)
            if chat is None:
                if chat_type is None:
                    chat_type = "private" if chat_id > 0 else "group"
                if chat_type == "private":
                    self.user(chat_id)
                    title = None
                elif title is None:
                    title = f"Group {abs(chat_id)}"
                chat = Chat(chat_id, chat_type, title, bot_status=bot_status)
                self.chats[chat_id] = chat
            else:
                chat.type = chat_type or chat.type
                chat.title = title or chat.title
                chat.bot_status = bot_status
            if is_forum is not None:
                if is_forum and chat.type != "supergroup":
                    raise ValueError(f"chat {chat_id} is a {chat.type}: a forum is a supergroup")
                chat.is_forum = is_forum
            return chat

    def ensure_chat(self, chat_id: int) -> Chat:
        """Return the chat with `chat_id`, registering it with defaults if unknown."""
        with self.lock:
            return self.chats.get(chat_id) or self.add_chat(chat_id)

    def set_member_status(self, chat_id: int, user: int | User, status: str) -> None:
        """Set a user's status in a chat: creator, administrator, member, left or kicked."""
        with self.lock:
            chat = self.ensure_chat(chat_id)
            user_id = self.user(user).id
            if user_id == self.bot.id:
                chat.bot_status = status
            else:
                chat.member_status[user_id] = status

    def set_admin(self, chat_id: int, user: int | User, *, creator: bool = False) -> None:
        """Make a user an administrator (or the creator) of a chat."""
        self.set_member_status(chat_id, user, "creator" if creator else "administrator")

    def member_status(self, chat_id: int, user_id: int) -> str:
        """Status of a user (or the bot) in a chat; known users default to "member"."""
        with self.lock:
            chat = self.chats.get(chat_id)
            if user_id == self.bot.id:
                return chat.bot_status if chat else "left"
            if chat is None:
                return "left"
            return chat.member_status.get(user_id, "member")

    def fail_next(
        self,
        method: str,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
        page: bool = False,
    ) -> None:
        """Answer the next `times` calls of `method` with this error instead of running them;
        with `page`, as an HTML page that echoes the request path (a proxy's error page)."""
        with self.lock:
            self.failures.append(
                InjectedFailure(method.lower(), error_code, description, retry_after, times, page)
            )

    def hold_next(self, method: str, chat_id: int | None = None) -> HeldCall:
        """Hold the next call of `method` (to `chat_id`, if given) before running it, until
        the returned `HeldCall` is released."""
        held = HeldCall(method.lower(), None if chat_id is None else str(chat_id))
        with self.lock:
            self.holds.append(held)
        return held

    def take_hold(self, method: str, params: dict[str, Any]) -> HeldCall | None:
        """The hold waiting for this call, if any (taken: it holds this call only)."""
        chat = params.get("chat_id")
        with self.lock:
            for held in self.holds:
                if held.method == method.lower() and held.chat_id in (None, str(chat)):
                    self.holds.remove(held)
                    return held
        return None

    def take_failure(self, method: str) -> ApiError | None:
        """Consume one injected failure for `method`, if any, as an ApiError."""
        with self.lock:
            for failure in self.failures:
                if failure.method == method.lower() and failure.times > 0:
                    failure.times -= 1
                    if failure.times == 0:
                        self.failures.remove(failure)
                    scope = "injected" if failure.error_code == 429 else None
                    return ApiError(
                        failure.error_code, failure.description, failure.retry_after, scope,
                        page=failure.page,
                    )
            return None

    # ----- queries -----------------------------------------------------------------------

    def photo_bytes(self, record: MessageRecord) -> bytes | None:
        """The picture a photo message shows (None: not a photo)."""
        with self.lock:
            if not record.photo:
                return None
            stored = self.uploads.get(record.photo[-1]["file_unique_id"])
            return stored.content if stored else None

    def messages(self, chat_id: int, *, include_deleted: bool = False) -> list[MessageRecord]:
        """Messages of a chat in order, by the bot and by users."""
        with self.lock:
            chat = self.chats.get(chat_id)
            found = list(chat.messages) if chat else []
            return [m for m in found if include_deleted or not m.deleted]

    def bot_messages(self, chat_id: int, *, include_deleted: bool = False) -> list[MessageRecord]:
        """Messages the bot sent to a chat, in order."""
        return [m for m in self.messages(chat_id, include_deleted=include_deleted) if m.from_bot]

    def last_bot_message(self, chat_id: int) -> MessageRecord | None:
        """The newest non-deleted message the bot sent to a chat, or None."""
        found = self.bot_messages(chat_id)
        return found[-1] if found else None

    def message(self, chat_id: int, message_id: int) -> MessageRecord | None:
        """A recorded message (deleted or not), or None."""
        with self.lock:
            chat = self.chats.get(chat_id)
            return chat.message(message_id) if chat else None

    def callback_answer(self, callback_query_id: str) -> CallbackAnswer | None:
        """The bot's answer to a press, or None while unanswered."""
        with self.lock:
            query = self.callback_queries.get(callback_query_id)
            return query.answer if query else None

    def calls_of(self, method: str) -> list[ApiCall]:
        """Recorded API calls of one method (case-insensitive), in order."""
        with self.lock:
            return [c for c in self.calls if c.method.lower() == method.lower()]

    def record_call(self, method: str, params: dict[str, Any], error: ApiError | None) -> None:
        """Append a call to the log, noting 429 answers in `too_many_requests`."""
        with self.lock:
            now = self.now()
            if error is None:
                self.calls.append(ApiCall(method, params, at=now))
                return
            self.calls.append(
                ApiCall(method, params, False, error.error_code, error.description, now)
            )
            if error.error_code == 429:
                chat_id = params.get("chat_id")
                self.too_many_requests.append(
                    RateLimitHit(
                        method,
                        chat_id if isinstance(chat_id, int) else None,
                        error.retry_after or 0,
                        error.scope or "injected",
                        now,
                    )
                )

    # ----- Bot API object shapes ---------------------------------------------------------

    def chat_to_api(self, chat_id: int) -> dict[str, Any]:
        """The Bot API Chat object for a chat."""
        with self.lock:
            chat = self.ensure_chat(chat_id)
            if chat.type == "private":
                user = self.user(chat_id).to_api()
                data = {"id": chat_id, "type": "private", "first_name": user["first_name"]}
                for key in ("last_name", "username"):
                    if key in user:
                        data[key] = user[key]
                return data
            data = {"id": chat_id, "type": chat.type, "title": chat.title}
            if chat.is_forum:
                data["is_forum"] = True
            return data

    def message_to_api(self, record: MessageRecord) -> dict[str, Any]:
        """The Bot API Message object for a recorded message in its current version."""
        with self.lock:
            sender = self.bot if record.from_bot else self.user(record.from_user_id or 0)
            data: dict[str, Any] = {
                "message_id": record.message_id,
                "from": sender.to_api(),
                "chat": self.chat_to_api(record.chat_id),
                "date": record.date,
            }
            if record.photo is not None:  # a photo: its text is the caption
                data["photo"] = record.photo
                if record.plain_text:
                    data["caption"] = record.plain_text
                if record.entities:
                    data["caption_entities"] = record.entities
            else:
                data["text"] = record.plain_text
                if record.entities:
                    data["entities"] = record.entities
            if record.thread_id is not None:  # a forum topic's (General's carry neither)
                data["message_thread_id"] = record.thread_id
                data["is_topic_message"] = True
            if record.topic_created is not None:
                data["forum_topic_created"] = {"name": record.topic_created,
                                               "icon_color": TOPIC_COLOR}  # fmt: skip
            elif record.thread_id is not None and record.reply_to is None:
                # A topic's message that answers nothing else answers the topic's first one.
                opening = self.chats[record.chat_id].message(record.thread_id)
                if opening is not None:
                    data["reply_to_message"] = self.message_to_api(opening)
            if record.edit_date is not None:
                data["edit_date"] = record.edit_date
            markup = record.reply_markup
            if markup and markup.get("inline_keyboard"):
                data["reply_markup"] = markup
            replied = self.message(record.chat_id, record.reply_to) if record.reply_to else None
            if replied is not None:
                data["reply_to_message"] = self.message_to_api(replied)
            return data

    def member_to_api(self, chat_id: int, user_id: int) -> dict[str, Any]:
        """The Bot API ChatMember object for a user (or the bot) in a chat."""
        with self.lock:
            user = self.bot if user_id == self.bot.id else self.user(user_id)
            return member_dict(user.to_api(), self.member_status(chat_id, user_id))

    def state(self) -> dict[str, Any]:
        """A JSON-friendly snapshot of the world for the control API."""
        with self.lock:
            return {
                "bot": self.bot.to_api(),
                "users": [vars(u).copy() for u in self.users.values()],
                "chats": [
                    {
                        "id": c.id,
                        "type": c.type,
                        "title": c.title,
                        "bot_status": c.bot_status,
                        "is_forum": c.is_forum,
                        "topics": {str(k): v for k, v in c.topics.items()},
                        "member_status": {str(k): v for k, v in c.member_status.items()},
                        "messages": [m.to_state() for m in c.messages],
                    }
                    for c in self.chats.values()
                ],
                "callback_queries": [
                    {**vars(q), "answer": vars(q.answer) if q.answer else None}
                    for q in self.callback_queries.values()
                ],
                "webhook": vars(self.webhook).copy(),
                "pending_update_count": len(self.pending),
                "too_many_requests": [vars(hit).copy() for hit in self.too_many_requests],
                "call_count": len(self.calls),
            }
