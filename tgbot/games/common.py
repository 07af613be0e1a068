"""What the Telegram sides of Guess What! and Hues and Cues share: games with their own state
(`room.play`): the table's events during a game, being out of reach, and being told where the
game stands. Each game keeps its own texts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine import events as table
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import _
from tgbot.table import render
from tgbot.table.render.common import Look, names, title, to_group


class _Round(Protocol):
    @property
    def participants(self) -> list[int]: ...


class _Seat(Protocol):
    @property
    def status(self) -> SeatStatus: ...


class PlayState(Protocol):
    """What the shared lines read of a game's own state: its round and seats."""

    @property
    def round(self) -> _Round | None: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...

    def seat_of(self, user_id: int) -> int | None: ...


def table_messages(
    room: Room, event: Any, look: Look, waiting_prompt: Callable[[Room, int, Look], Outgoing | None]
) -> list[Outgoing] | None:
    """The messages of the table's own events during a game (a late join, a language chosen),
    or None for any other event."""
    if isinstance(event, table.PlayerJoined) and event.late:
        return [render.late_join_notice(room, event.seat)]
    if isinstance(event, table.LanguageChosen):
        prompt = waiting_prompt(room, event.seat, look)
        return [prompt] if prompt is not None else []
    return None


def where_it_stands(room: Room, state: PlayState, user_id: int, now: Callable[[], str]) -> str:
    """What a seated player is told in private when nothing waits for them during a game;
    `now()`: what the round is doing, for a seat that plays in it."""
    rnd = state.round
    index = state.seat_of(user_id)
    if rnd is None or index is None:
        return ""
    group = title(room)
    if state.seats[index].status is SeatStatus.LEFT:
        return _("You left the game in <b>{group}</b>.").format(group=group)
    doing = now() if index in rnd.participants else _("you play from the next round.")
    return _("You are in the game in <b>{group}</b>. Nothing waits for you here right now: "
             "{now}").format(group=group, now=doing)  # fmt: skip


def unreachable_notice(room: Room, index: int, look: Look, text: str) -> Outgoing:
    """Tell the group that a player must open a private chat with the bot (`text`, with
    `{name}` and `{link}`)."""
    link = look.anchor(f"r{room.room_id}")
    return to_group(room, text=text.format(name=names(room)[index], link=link))

