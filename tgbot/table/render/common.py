"""Shared pieces of rendering: how players, cards and time left are shown; user text escaped."""

from __future__ import annotations

import functools
import html
import math
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from engine.model import Room
from tgbot import i18n
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.i18n import _
from tgbot.webapp.trust import room_token

if TYPE_CHECKING:  # the line-up's games render with a look
    from tgbot.table.screens import Lineup


@dataclass(frozen=True)
class Look:
    """What rendering needs besides the room: the bot's username, the signing key, the games
    it hosts with their Telegram sides, and the moment the messages are rendered at (for the
    time left; None: show no countdown)."""

    bot_username: str
    key: bytes
    lineup: Lineup
    now: float | None = None
    earlier_keys: tuple[bytes, ...] = ()
    """Keys buttons were signed with before `key` (still accepted)."""
    app_url: str = ""
    """The board app's address for private prompts ("": no button to it)."""
    app_link: str = ""
    """The board app's direct link for the group ("": no link to it)."""

    def button(self, text: str, kind: str, *args: int) -> Button:
        """A signed callback button."""
        return Button(text=text, data=self.lineup.codec.encode(self.key, kind, *args))

    def link(self, payload: str) -> str:
        """A deep link into the private chat with the bot."""
        return f"https://t.me/{self.bot_username}?start={payload}"

    def anchor(self, payload: str) -> str:
        """A deep link as a message shows it: the bot's @username, leading to the link."""
        return f'<a href="{html.escape(self.link(payload))}">@{html.escape(self.bot_username)}</a>'


    def app_button(self, room: Room, text: str) -> Button | None:
        """A private prompt's button opening the board app on the room's game (None: the
        host gave the app no HTTPS address)."""
        if not self.app_url:
            return None
        token = room_token(self.key, room.room_id, room.game_id)
        joiner = "&" if "?" in self.app_url else "?"
        return Button(text=text, web_app=f"{self.app_url}{joiner}r={token}")

    def watch_button(self, room: Room, text: str) -> Button | None:
        """A group message's link opening the board app on the room's game, for watching (None:
        the host registered no app with BotFather)."""
        if not self.app_link:
            return None
        token = room_token(self.key, room.room_id, room.game_id)
        return Button(text=text, url=f"{self.app_link}?startapp={token}")

    def at(self, now: float) -> Look:
        """The same look, rendering at `now`."""
        return replace(self, now=now)


P = ParamSpec("P")
R = TypeVar("R")


def in_group_language(
    render: Callable[Concatenate[Room, P], R],
) -> Callable[Concatenate[Room, P], R]:
    """Render a group message in the group's language, whoever's press or timer renders it."""

    @functools.wraps(render)
    def speaking(room: Room, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with i18n.use(room.settings.language):
            return render(room, *args, **kwargs)

    return speaking


def seat_language(room: Room, index: int) -> str:
    """The language of a seat's private messages: its own, else the group's."""
    return room.seats[index].language or room.settings.language


def in_seat_language(
    render: Callable[Concatenate[Room, int, P], R],
) -> Callable[Concatenate[Room, int, P], R]:
    """Render a seat's private message in that player's language."""

    @functools.wraps(render)
    def speaking(room: Room, index: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with i18n.use(seat_language(room, index)):
            return render(room, index, *args, **kwargs)

    return speaking


def message(room: Room, **fields: Any) -> Outgoing:
    """A message of the room's current game (its message ids are kept with that game)."""
    return Outgoing(game=room.game_id, **fields)


def topic_field(room: Room) -> tuple[int, ...]:
    """What a private button adds to name a forum topic's room (`Codec.with_topic`)."""
    return (room.topic,) if room.topic else ()


def to_group(room: Room, **fields: Any) -> Outgoing:
    """A message of the room's current game to its group, in the room's forum topic."""
    return message(room, chat_id=room.chat_id, thread_id=room.room_id.thread_id, **fields)


NAME_MAX = 32  # a display name may be 129 characters long: every message must still fit
# Explicit direction controls (embeddings, overrides, isolates, marks): a user string carrying
# one could flip the rest of the line it is shown in.
_BIDI_CONTROLS = dict.fromkeys(
    map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
)


def user_text(text: str, limit: int | None = None) -> str:
    """A string a user typed or chose (a name, a hint, a group's title), safe to show in HTML:
    direction controls dropped, shortened to `limit`, escaped, and isolated (FSI…PDI) when it
    holds right-to-left letters, so it cannot turn the line around it."""
    clean = text.translate(_BIDI_CONTROLS)
    if limit is not None and len(clean) > limit:
        clean = clean[: limit - 1].rstrip() + "…"
    escaped = html.escape(clean)
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in clean):
        return f"\u2068{escaped}\u2069"
    return escaped


def names(room: Room) -> list[str]:
    """Seat names, safe to show, told apart by @username (or seat number) when they clash."""
    counts = Counter(seat.name for seat in room.seats)
    result = []
    for index, seat in enumerate(room.seats):
        name = user_text(seat.name, NAME_MAX)
        if counts[seat.name] > 1:
            name += f" (@{user_text(seat.username)})" if seat.username else f" #{index + 1}"
        result.append(name)
    return result


def seconds_left(deadline: float | None, look: Look) -> int | None:
    """Whole seconds until a deadline (rounded up), or None when no timer runs."""
    if deadline is None or look.now is None:
        return None
    return max(0, math.ceil(deadline - look.now - 1e-6))


def duration(seconds: float) -> str:
    """A span of time as players read it: "45 s", "2 min", "1 min 30 s"."""
    whole = max(0, math.ceil(seconds - 1e-6))
    if whole < 60:
        return _("{n} s").format(n=whole)
    minutes, rest = divmod(whole, 60)
    if rest == 0:
        return _("{n} min").format(n=minutes)
    return _("{m} min {s} s").format(m=minutes, s=rest)


def time_left(room: Room, look: Look) -> str:
    """" (90 s left)" for the current phase's timer, or "" when none runs."""
    left = seconds_left(room.deadline, look)
    if left is None:
        return ""
    return _(" ({time} left)").format(time=duration(left))


def private_link_works(chat_id: int) -> bool:
    """Whether a chat's messages have links by its internal id (a supergroup: -100…)."""
    return str(chat_id).startswith("-100")


def message_link(chat_id: int, message_id: int, username: str | None = None) -> str | None:
    """A link to a group's message: by the group's @username when public, else by its
    internal id for a supergroup (-100XXXX → t.me/c/XXXX/…, opened by its members); a basic
    group's messages have none."""
    if username:
        return f"https://t.me/{username}/{message_id}"
    if private_link_works(chat_id):
        return f"https://t.me/c/{str(chat_id)[4:]}/{message_id}"
    return None


def title(room: Room) -> str:
    """The group's title, escaped."""
    return user_text(room.title, 64) if room.title else _("your group")

