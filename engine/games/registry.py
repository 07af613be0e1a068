"""The games the table hosts, each registered once here by name: the top of `engine`, which
the composition roots hand down (nothing below imports this module).

A game is a package of its own under `engine/games/<name>/`: pure rules, and a `Game`
(`engine.games.base`) telling the table how to start it, hand it commands, time it and count
its figures. Adding a game is adding its package and one line below.
"""

from __future__ import annotations

from engine.games.base import Game, Games
from engine.games.guesswhat.table import GAME as GUESSWHAT
from engine.games.hintrigue.game import GAME as HINTRIGUE
from engine.games.huescues.table import GAME as HUESCUES
from engine.games.hunch.table import GAME as HUNCH
from engine.games.wunchunk.table import GAME as WUNCHUNK

GAMES = Games(HINTRIGUE, GUESSWHAT, HUESCUES, WUNCHUNK, HUNCH, unnamed=HINTRIGUE.name)
"""Every game, by name, in the order the lobby's Game button walks them (the first is what a
bare /newgame opens in a new group). Rooms stored before rooms named their game are
Hintrigue's: the table hosted it alone then."""
DEFAULT_GAME = GAMES.default.name
game_named = GAMES.named

__all__ = ["DEFAULT_GAME", "GAMES", "Game", "Games", "game_named"]
