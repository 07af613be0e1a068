"""The world of the double, including the user side: building updates and queueing them."""

from __future__ import annotations

import re
from typing import Any

from tgbot.standin.htmltext import utf16_len
from tgbot.standin.records import CallbackQueryRecord, MessageRecord, User, member_dict
from tgbot.standin.state import DEFAULT_TOKEN, WorldState

__all__ = ["DEFAULT_TOKEN", "World", "update_kind", "update_allowed"]

_COMMAND = re.compile(r"/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?")
# Update kinds Telegram leaves out unless they are asked for explicitly.
OPT_IN_KINDS = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


def update_kind(update: dict[str, Any]) -> str:
    """The kind of an update dict, e.g. "message" or "callback_query"."""
    return next(key for key in update if key != "update_id")


def update_allowed(update: dict[str, Any], allowed: list[str] | None) -> bool:
    """Whether an update passes an allowed_updates filter (None/empty: the default set)."""
    kind = update_kind(update)
    return kind in allowed if allowed else kind not in OPT_IN_KINDS


def _inline_buttons(markup: dict[str, Any] | None) -> list[dict[str, Any]]:
    rows = (markup or {}).get("inline_keyboard") or []
    return [button for row in rows for button in row]


class World(WorldState):
    """Everything the double knows, plus helpers that act as Telegram users."""

    # ----- update queue ------------------------------------------------------------------

    def new_update(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Wrap a payload in an Update dict with the next update_id and remember it."""
        with self.lock:
            update = {"update_id": self._next_update_id, kind: payload}
            self._next_update_id += 1
            self.updates.append(update)
            return update

    def enqueue(self, update: dict[str, Any]) -> None:
        """Queue an update for getUpdates."""
        with self.lock:
            self.pending.append(update)

    def _confirm(self, offset: int | None) -> None:
        if offset is None:
            return
        if offset < 0:
            del self.pending[: max(0, len(self.pending) + offset)]
        else:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]

    def has_updates(self, offset: int | None = None) -> bool:
        """Whether getUpdates with this offset would return something now."""
        with self.lock:
            if offset is None or offset < 0:
                return bool(self.pending)
            return any(u["update_id"] >= offset for u in self.pending)

    def take_updates(self, offset: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Confirm updates below `offset` and return up to `limit` queued ones (getUpdates)."""
        with self.lock:
            self._confirm(offset)
            return list(self.pending[: max(1, min(100, limit))])

    # ----- user side ---------------------------------------------------------------------

    def append_message(self, chat_id: int, **fields: Any) -> MessageRecord:
        """Record a new message in a chat with the chat's next message_id."""
        with self.lock:
            chat = self.ensure_chat(chat_id)
            chat.last_message_id += 1
            record = MessageRecord(
                chat_id=chat_id, message_id=chat.last_message_id, date=int(self.now()), **fields
            )
            chat.messages.append(record)
            return record

    def user_message(self, user: int | User, chat_id: int, text: str,
                     thread_id: int | None = None, reply_to: int | None = None
                     ) -> dict[str, Any]:  # fmt: skip
        """Record a text message from a user and return its message update; `thread_id`
        posts it in a forum topic (None: the General topic of a forum), `reply_to` in reply
        to that message."""
        with self.lock:
            sender = self.user(user)
            chat = self.ensure_chat(chat_id)
            if thread_id is not None and thread_id not in chat.topics:
                raise ValueError(f"chat {chat_id} has no open topic {thread_id}")
            if chat.type == "private":
                if chat_id != sender.id:
                    raise ValueError(f"user {sender.id} cannot write in private chat {chat_id}")
                sender.started_bot, sender.blocked = True, False
                chat.bot_status = "member"
            else:
                chat.member_status.setdefault(sender.id, "member")
            entities = []
            match = _COMMAND.match(text)
            if match and (len(text) == match.end() or text[match.end()].isspace()):
                entities.append({"type": "bot_command", "offset": 0, "length": utf16_len(match[0])})
            record = self.append_message(
                chat_id, text=text, plain_text=text, entities=entities, from_user_id=sender.id,
                thread_id=thread_id, reply_to=reply_to,
            )  # fmt: skip
            return self.new_update("message", self.message_to_api(record))

    def create_topic(self, chat_id: int, name: str, by_user: int | User | None = None) -> int:
        """Open a topic in a forum, as a member does; return its thread id (the id of the
        service message that opens it, which Telegram's clients show at its top)."""
        with self.lock:
            chat = self.ensure_chat(chat_id)
            if not chat.is_forum:
                raise ValueError(f"chat {chat_id} is not a forum")
            if not 1 <= len(name) <= 128:
                raise ValueError("a topic's name has 1 to 128 characters")
            author = self.user(by_user).id if by_user is not None else None
            chat.last_message_id += 1
            thread = chat.last_message_id
            chat.messages.append(MessageRecord(
                chat_id=chat_id, message_id=thread, date=int(self.now()), text="", plain_text="",
                from_user_id=author, thread_id=thread, topic_created=name,
            ))  # fmt: skip
            chat.topics[thread] = name
            return thread

    def delete_topic(self, chat_id: int, thread_id: int) -> None:
        """Delete a forum topic and its messages, as an admin does. Telegram tells bots
        nothing of it: sending to the topic answers "message thread not found" from then on."""
        with self.lock:
            chat = self.ensure_chat(chat_id)
            if chat.topics.pop(thread_id, None) is None:
                raise ValueError(f"chat {chat_id} has no open topic {thread_id}")
            for record in chat.messages:
                if record.thread_id == thread_id:
                    record.deleted = True

    def start_private(self, user: int | User, payload: str | None = None) -> dict[str, Any]:
        """Mark a user as having started the bot; return the private "/start [payload]" update."""
        with self.lock:
            sender = self.user(user)
            sender.started_bot, sender.blocked = True, False
            text = f"/start {payload}" if payload else "/start"
            return self.user_message(sender, sender.id, text)

    def press(
        self,
        user: int | User,
        chat_id: int,
        message_id: int,
        callback_data: str,
        *,
        force: bool = False,
    ) -> dict[str, Any]:
        """Press an inline button of a recorded message; return the callback_query update.

        Unless `force` is set, the data must belong to a button currently on the message.
        """
        with self.lock:
            record = self.message(chat_id, message_id)
            if record is None or record.deleted:
                raise ValueError(f"no message {message_id} in chat {chat_id}")
            datas = [b.get("callback_data") for b in _inline_buttons(record.reply_markup)]
            if not force and callback_data not in datas:
                raise ValueError(f"message {message_id} has no button with data {callback_data!r}")
            return self._press(user, record, callback_data)

    def press_unseen(self, user: int | User, chat_id: int, callback_data: str) -> dict[str, Any]:
        """A press on a bot message the world never recorded (a load generator builds its own
        updates): the callback query is known, so the bot may answer it."""
        with self.lock:
            self.ensure_chat(chat_id)
            record = MessageRecord(chat_id=chat_id, message_id=0, date=int(self.now()), text="…",
                                   plain_text="…")  # fmt: skip
            return self._press(user, record, callback_data)

    def _press(self, user: int | User, record: MessageRecord, callback_data: str) -> dict[str, Any]:
        with self.lock:
            presser = self.user(user)
            chat_id, message_id = record.chat_id, record.message_id
            query_id = str(4_000_000_000_000_000 + self._next_query_id)
            self._next_query_id += 1
            self.callback_queries[query_id] = CallbackQueryRecord(
                query_id, presser.id, chat_id, message_id, callback_data, self.now()
            )
            payload = {
                "id": query_id,
                "from": presser.to_api(),
                "chat_instance": str((chat_id * 2_654_435_761) % 2**62),
                "message": self.message_to_api(record),
                "data": callback_data,
            }
            return self.new_update("callback_query", payload)

    def _bot_status_change(
        self, chat_id: int, by_user: int | User, new_status: str
    ) -> dict[str, Any]:
        with self.lock:
            actor = self.user(by_user)
            chat = self.ensure_chat(chat_id)
            old_status = chat.bot_status
            chat.bot_status = new_status
            bot = self.bot.to_api()
            payload = {
                "chat": self.chat_to_api(chat_id),
                "from": actor.to_api(),
                "date": int(self.now()),
                "old_chat_member": member_dict(bot, old_status),
                "new_chat_member": member_dict(bot, new_status),
            }
            return self.new_update("my_chat_member", payload)

    def bot_added(
        self,
        chat_id: int,
        by_user: int | User,
        *,
        status: str = "member",
        chat_type: str | None = None,
        title: str | None = None,
    ) -> dict[str, Any]:
        """Add the bot to a group (registering it if new); return the my_chat_member update."""
        with self.lock:
            if chat_id not in self.chats:
                self.add_chat(chat_id, chat_type, title, bot_status="left")
            self.chats[chat_id].member_status.setdefault(self.user(by_user).id, "member")
            return self._bot_status_change(chat_id, by_user, status)

    def bot_removed(
        self, chat_id: int, by_user: int | User, *, status: str = "left"
    ) -> dict[str, Any]:
        """Remove ("left") or ban ("kicked") the bot from a group; return my_chat_member."""
        return self._bot_status_change(chat_id, by_user, status)

    def block_bot(self, user: int | User) -> dict[str, Any]:
        """The user blocks the bot; return the private my_chat_member update."""
        with self.lock:
            blocker = self.user(user)
            blocker.blocked = True
            self.ensure_chat(blocker.id)
            return self._bot_status_change(blocker.id, blocker, "kicked")
