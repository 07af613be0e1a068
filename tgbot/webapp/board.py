"""What a game brings to the board app: its view of the room for one seat (or a watcher), the
buttons a tap stands for, and the script that draws its board (`tgbot.table.screens.Screens`).

The app adds to the chat and never replaces it: a tap is turned into the press of a button
the game already has (its callback kind and fields), which goes through the room's inbox like
any press, so it is applied once, in order, with the chat's answers and refusals.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from engine.model import Room
from tgbot.table.render.common import Look

APP_PRESS = "app:"
"""How the query id of a press the app made begins (Telegram's are digits)."""

Press = tuple[str, tuple[int, ...]]
"""A button's callback kind and fields, as the game's keyboards carry them."""


class BadTap(ValueError):
    """A tap no button of the game stands for (a cell off the board, an unknown action)."""


@dataclass(frozen=True)
class BoardApp:
    """One game's part of the board app."""

    view: Callable[[Room, int | None, Look], dict[str, Any]]
    """What the app shows (room, the user's seat or None for a watcher, look) as JSON: never
    more than that seat's view (SPEC 9)."""
    press: Callable[[Room, int, Mapping[str, Any]], list[Press]]
    """The presses a seat's tap stands for, in order (raises `BadTap`)."""
    script: Traversable
    """The script that draws the game's board in the app (`/app/games/<game>.js`)."""


_TAG = re.compile(r"<[^>]*>")


def plain(text: str) -> str:
    """A message's HTML as plain text, for the app to show as text (never as markup)."""
    return html.unescape(_TAG.sub("", text))
