"""Each game's part in the workers, by name: the mind its AI seats play with. The top of
`workers` (beside `engine.games.registry` and `tgbot.games.registry`), which the worker's
runtime hands down; nothing below imports it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.model import Room
from workers.ai import guesswhat, hintrigue, huescues

Mind = Callable[[Room, int], list[Any]]
"""What the AI at a seat does now in a room's game: the engine commands it owes (none: it
owes nothing)."""


def _hintrigue(room: Room, seat: int) -> list[Any]:
    return list(hintrigue.decide(room, seat))


MINDS: Mapping[str, Mind] = {
    "hintrigue": _hintrigue,
    "guesswhat": guesswhat.in_room,
    "huescues": huescues.in_room,
}
