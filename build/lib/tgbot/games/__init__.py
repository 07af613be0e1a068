"""Each game's Telegram side (its messages, buttons and texts), registered in
`tgbot.games.registry`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tgbot.games.base import Screens


def screens(game: str) -> Screens:
    """The Telegram side of a game, by name (the registry is imported on first use: the
    games' buttons import the handlers, which call this)."""
    from tgbot.games.registry import SCREENS

    return SCREENS[game]
