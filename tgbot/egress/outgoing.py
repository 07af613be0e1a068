"""Outgoing Bot API messages: what to show where, before anything is sent.

Each is keyed by the logical message it shows (`lobby`, `round:3`, `table:3`, `dm:42:3` …):
the first delivery for a key sends a new message and remembers its id, later ones edit it.
A message without a key is always sent as a new one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, ValidationInfo, field_validator

from tgbot import i18n
from tgbot.pictures.model import Picture


class Button(BaseModel):
    """An inline keyboard button: callback data, a URL, or a Mini App to open (`web_app`, in
    private chats only)."""

    model_config = ConfigDict(frozen=True)

    text: str
    data: str | None = None
    url: str | None = None
    web_app: str | None = Field(default=None, exclude_if=lambda value: value is None)


class Outgoing(BaseModel):
    """One message to send or edit, rendered from one version of a room."""

    model_config = ConfigDict(frozen=True)

    chat_id: int
    thread_id: int | None = None
    """The forum topic it goes to (`message_thread_id`; None: the chat, or its General topic)."""
    key: str | None = None
    game: int = 0
    """The game whose message ids the key is looked up in (0: the room's ids of old)."""
    text: str
    buttons: list[list[Button]] = Field(default_factory=list)
    fresh: bool = False
    """Send it as a new message even if one was sent under its key (which then follows it)."""
    edit_only: bool = False
    """Only edit the message sent under its key: dropped when there is none (or it is gone)."""
    once: str | None = None
    """An answer (`help`, `rules`…) that is not queued again while it waits for delivery."""
    settle_until: float | None = Field(default=None, exclude_if=lambda value: value is None)
    """A progress edit (the "waiting for" line of a phase's message): delivery may hold it
    until then for a newer rendering of the same message, which replaces it unsent (None: send
    at once; a message not yet sent is never held). Not written when None, so other entries
    read as before."""
    unreachable: tuple[int, int, str] | None = None
    """For a private message: (user id, round, phase) to report if the user cannot be reached."""
    lang: str = Field(default_factory=i18n.current)
    """The language it is written in (what delivery adds to it speaks it too)."""
    picture: SerializeAsAny[Picture] | None = None
    """A picture to show with it: delivery draws it and sends it as a photo with the text as
    its caption (or, when Telegram refuses the photo or the text is too long for a caption,
    sends the text alone). Read back from the outbox by its kind (`Outgoing.parse`)."""

    @field_validator("picture", mode="before")
    @classmethod
    def _picture(cls, value: object, info: ValidationInfo) -> object:
        """A picture read back from JSON takes the model its kind names, among the kinds
        given as the validation context (the bot's games')."""
        if value is None or isinstance(value, Picture):
            return value
        kinds = info.context
        kind = value.get("kind") if isinstance(value, dict) else None
        if not isinstance(kinds, Mapping) or kind not in kinds:
            raise ValueError(f"a picture of no known kind: {kind!r}")
        return kinds[kind].model_validate(value)

    @classmethod
    def parse(cls, raw: str | bytes, pictures: Mapping[str, type[Picture]]) -> Outgoing:
        """An outbox entry as a message, its picture of one of these kinds."""
        return cls.model_validate_json(raw, context=pictures)


class Head(BaseModel):
    """What delivery reads of every outbox entry to put them in order: whose it is, what it
    shows and when (`Outgoing`'s fields of those names). An entry waiting for its chat's
    limit is read again at each of its room's deliveries; its whole message (its text, its
    buttons, its picture) is read only when it is sent (`Outgoing.parse`)."""

    model_config = ConfigDict(frozen=True)

    chat_id: int
    key: str | None = None
    game: int = 0
    fresh: bool = False
    edit_only: bool = False
    once: str | None = None
    settle_until: float | None = None


SETTLE_S = 3.0
"""How long a progress edit waits for a newer one: the players of a phase often act within
seconds of each other, and one edit then shows them all."""


def settling(message: Outgoing, now: float | None) -> Outgoing:
    """The message as a progress edit rendered at `now` (None: no time known, sent at once)."""
    if now is None:
        return message
    return message.model_copy(update={"settle_until": now + SETTLE_S})


MAX_CAPTION = 1024  # a photo's caption, in characters once its HTML is parsed


def caption_length(text: str) -> int:
    """How long an HTML text is as a caption: its characters once parsed, in UTF-16 units."""
    plain = html.unescape(re.sub(r"<[^>]*>", "", text))
    return len(plain.encode("utf-16-le")) // 2


def dm_key(user_id: int, round_no: int) -> str:
    """The key of a player's private message for one round."""
    return f"dm:{user_id}:{round_no}"
