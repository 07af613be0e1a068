"""Shared pieces of rendering: how players, cards and deadlines are shown; user text escaped."""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.decks import scene
from engine.model import Room
from tgbot import callback
from tgbot.outgoing import Button
from tgbot.texts import _


@dataclass(frozen=True)
class Look:
    """What rendering needs besides the room: the bot's username and the signing key."""

    bot_username: str
    key: bytes

    def button(self, text: str, kind: str, *args: int) -> Button:
        """A signed callback button."""
        return Button(text=text, data=callback.encode(self.key, kind, *args))

    def link(self, payload: str) -> str:
        """A deep link into the private chat with the bot."""
        return f"https://t.me/{self.bot_username}?start={payload}"


def names(room: Room) -> list[str]:
    """Seat names, HTML-escaped, told apart by @username (or seat number) when they clash."""
    counts = Counter(seat.name for seat in room.seats)
    result = []
    for index, seat in enumerate(room.seats):
        name = seat.name
        if counts[name] > 1:
            name += f" (@{seat.username})" if seat.username else f" #{index + 1}"
        result.append(html.escape(name))
    return result


def card(room: Room, number: int) -> str:
    """A card as it looks everywhere: its scene."""
    return scene(room.settings.deck, number)


def until(deadline: float | None) -> str:
    """When a phase times out, in UTC."""
    if deadline is None:
        return ""
    moment = datetime.fromtimestamp(deadline, UTC).strftime("%H:%M:%S")
    return _(" until {time} UTC").format(time=moment)


def title(room: Room) -> str:
    """The group's title, escaped."""
    return html.escape(room.title or _("your group"))


def settings_text(room: Room) -> str:
    """The settings in one line."""
    s = room.settings
    timers = (
        _("timers: hint {h}s, decoy {d}s, vote {v}s").format(h=s.hint_s, d=s.decoy_s, v=s.vote_s)
        if s.timers
        else _("timers off")
    )
    return _(
        "up to {seats} players · {rot} rotations · {hand} cards · {timers} · reveal {rv}s"
        " · deck {deck}"
    ).format(
        seats=s.max_seats,
        rot=s.rotations,
        hand=s.hand_size,
        timers=timers,
        rv=s.reveal_s,
        deck=s.deck,
    )
