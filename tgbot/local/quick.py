"""Quick timers (`QUICK_TIMERS`, the local run's `--quick`): what a group's lobbies start from.

`TIMER_SCALE` multiplies every timer as it is, which suits tests but not people: at 0.2 a
Guess What! clue gets 12 seconds. Quick timers are settings instead, shown in the lobby and
changeable there like any other: the lobby's join time is a minute, reveals are half as long,
and each timer of a person's own action (every other `*_s` setting) is halved but never under
30 seconds. A group's remembered settings still apply over them.
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.games.base import Game
from engine.model import Settings

JOIN_S = 60
SHORTEST_ACTION_S = 30
SHORTEST_REVEAL_S = 2


def quick_value(name: str, default: int) -> int:
    """The quick value of one timer setting, from its usual default."""
    if name == "join_s":
        return min(default, JOIN_S)
    if name == "reveal_s":
        return max(SHORTEST_REVEAL_S, default // 2)
    return min(default, max(SHORTEST_ACTION_S, default // 2))


def _timers(model: type[BaseModel]) -> dict[str, int | bool | str]:
    found: dict[str, int | bool | str] = {}
    for name, info in model.model_fields.items():
        if name.endswith("_s") and type(info.default) is int:
            found[name] = quick_value(name, info.default)
    return found


def quick_settings(game: Game) -> dict[str, int | bool | str]:
    """The quick timers of a game's lobby: the table's and the game's own."""
    own = game.settings_model
    return {**_timers(Settings), **(_timers(own) if own is not None else {})}
