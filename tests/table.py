"""The table as the bot hosts it, for tests of the rules: its games, and its one entry point
bound to them."""

from __future__ import annotations

from typing import Any

from engine import settings
from engine.events import AnyEvent
from engine.games.registry import GAMES
from engine.model import Room
from engine.rules import apply as apply_at


def apply(
    room: Room | None, command: Any, now: float, *, owned: bool = False
) -> tuple[Room, list[AnyEvent]]:
    """`engine.rules.apply` at the bot's table (every registered game)."""
    return apply_at(room, command, now, GAMES, owned=owned)


def parse_room(raw: str | bytes) -> Room:
    """A stored room's JSON as the bot's store reads it."""
    return GAMES.parse_room(raw)


def parse_changes(text: str) -> dict[str, int | bool | str]:
    """`/settings` text as changes, against every game's own settings."""
    return settings.parse_changes(text, GAMES.values())
