"""Every game's Telegram side, by name: the one place that lists them (beside
`engine.games.registry`)."""

from __future__ import annotations

from engine.games.registry import GAMES
from tgbot.games.base import Screens
from tgbot.games.guesswhat.screens import SCREENS as GUESSWHAT
from tgbot.games.hintrigue.screens import SCREENS as HINTRIGUE
from tgbot.games.huescues.screens import SCREENS as HUESCUES
from tgbot.table import callback

SCREENS: dict[str, Screens] = {
    screens.name: screens for screens in (HINTRIGUE, GUESSWHAT, HUESCUES)
}
assert list(SCREENS) == list(GAMES), "every game needs its Telegram side"
for _screens in SCREENS.values():
    callback.register(_screens.button_kinds, _screens.private_buttons)

