"""Which room a game is played in: a group chat, or one topic of a forum group.

A room is named by its chat and, in a forum group, the topic (`message_thread_id`) its
messages carry. Topic 0 is the chat itself: a plain group, a forum's General topic (whose
messages carry no thread id, and which is written to without one) or a private chat. Such a
room is written exactly as the chat id was before topics were rooms (`-1001234`), so the keys,
index entries and job ids of the rooms stored then stay the same; a topic's room is written
`<chat>_<topic>` (`-1001234_77`), which RQ job ids and deep-link payloads accept as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WRITTEN = re.compile(r"(-?[0-9]{1,20})(?:_([1-9][0-9]{0,19}))?", re.ASCII)


@dataclass(frozen=True, order=True)
class RoomId:
    """A chat, and the forum topic within it (0: none)."""

    chat: int
    topic: int = 0

    def __str__(self) -> str:
        return f"{self.chat}_{self.topic}" if self.topic else str(self.chat)

    @property
    def thread_id(self) -> int | None:
        """The `message_thread_id` a message to this room is sent with (None: none)."""
        return self.topic or None

    @classmethod
    def parse(cls, value: RoomId | int | str | bytes) -> RoomId:
        """A room from its written form (an int or a bare chat id names a chat's own room).

        Raises:
            ValueError: not a room's written form.
        """
        if isinstance(value, RoomId):
            return value
        if isinstance(value, int):
            return cls(value)
        text = value.decode() if isinstance(value, bytes) else value
        found = _WRITTEN.fullmatch(text)
        if found is None:
            raise ValueError(f"not a room: {text!r}")
        return cls(int(found[1]), int(found[2] or 0))

    @classmethod
    def of_message(cls, chat_id: int, thread_id: int | None, is_topic_message: bool | None
                   ) -> RoomId:  # fmt: skip
        """The room of a message: its forum topic when it is a topic message, else its chat
        (a reply thread of an ordinary group carries a thread id too, but is no topic)."""
        return cls(chat_id, thread_id or 0) if is_topic_message else cls(chat_id)
