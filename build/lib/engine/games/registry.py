"""The games the table hosts, each registered once here by name.

A game is a package of its own under `engine/games/<name>/`: pure rules, and a `Game`
(`engine.games.base`) telling the table how to start it, hand it commands, time it and count
its figures. Adding a game is adding its package and one line below.
"""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.base import Game
from engine.games.guesswhat.table import GAME as GUESSWHAT
from engine.games.hintrigue.game import GAME as HINTRIGUE
from engine.games.huescues.table import GAME as HUESCUES

GAMES: dict[str, Game] = {game.name: game for game in (HINTRIGUE, GUESSWHAT, HUESCUES)}
"""Every game, by name, in the order the lobby's Game button walks them."""
DEFAULT_GAME = HINTRIGUE.name


def game_named(name: str) -> Game:
    """The game of that name.

    Raises:
        RuleError: no such game (`bad_setting`).
    """
    game = GAMES.get(name)
    if game is None:
        raise RuleError(ErrorCode.UNKNOWN_GAME, name)
    return game


__all__ = ["DEFAULT_GAME", "GAMES", "Game", "game_named"]
