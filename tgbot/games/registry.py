"""Every game's Telegram side, by name, beside its rules (`engine.games.registry`): the top
of `tgbot`, which the composition root hands down (nothing below imports this module)."""

from __future__ import annotations

from engine.games.registry import GAMES
from tgbot.games.guesswhat.screens import SCREENS as GUESSWHAT
from tgbot.games.hintrigue.screens import SCREENS as HINTRIGUE
from tgbot.games.huescues.screens import SCREENS as HUESCUES
from tgbot.games.hunch.screens import SCREENS as HUNCH
from tgbot.games.wunchunk.screens import SCREENS as WUNCHUNK
from tgbot.table.screens import Lineup

LINEUP = Lineup(GAMES, HINTRIGUE, GUESSWHAT, HUESCUES, WUNCHUNK, HUNCH)
"""The games the bot hosts, with their Telegram sides, in the lobby's order."""
