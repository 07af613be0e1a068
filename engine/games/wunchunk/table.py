"""Wunchunk's registration at the table (SPEC 11.5), through the pure games' shared
`engine.games.common.table.PureTable`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.errors import RuleError
from engine.games.base import Game
from engine.games.common.table import PureTable
from engine.games.wunchunk import commands as own
from engine.games.wunchunk.errors import Refusal
from engine.games.wunchunk.model import MAX_SEATS, MIN_SEATS, Settings, State
from engine.games.wunchunk.model import Phase as OwnPhase
from engine.games.wunchunk.rules import apply
from engine.games.wunchunk.rules import joinable as own_joinable
from engine.games.wunchunk.rules import start as start_game
from engine.games.wunchunk.settings import apply_changes
from engine.games.wunchunk.turns import winners as own_winners
from engine.games.wunchunk.typed import parse_stones
from engine.model import Room

NAME = "wunchunk"
OWN_SETTINGS = frozenset({"size", "turn_s", "reveal_s", "ai_level"})
"""The game's own settings; the table's shared ones (max_seats, timers) are copied in at the
start."""


def typed(state: State, user_id: int, text: str) -> Any:
    """The game's command for text a player typed in private: stones (`g5 g6`, `b:f7`) of
    its own colour unless another is named."""
    index = state.seat_of(user_id)
    stones = parse_stones(text, state.size, index if index is not None else 0)
    if stones is None:
        raise RuleError(Refusal.NO_SUCH_CELL, text)
    return own.PlaceStones(user_id=user_id, stones=tuple(stones))


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's chunks at the end of a finished game (its fewest is kept)."""
    return {"fewest": state_of(room).seats[index].chunks}


TABLE = PureTable(
    title="Wunchunk",
    state_model=State,
    settings_model=Settings,
    phases=OwnPhase,
    start_game=start_game,
    apply=apply,
    own_commands=own.OWN_ACTIONS,
    timeout=own.Timeout,
    unreachable=own.MarkUnreachable,
    typed=typed,
    open_to_join=own_joinable,
    apply_changes=apply_changes,
    own_winners=own_winners,
)
settings_of = TABLE.settings_of
state_of = TABLE.state_of

_GAME = TABLE.game(
    NAME,
    figures=("games", "wins", "fewest"),
    seat_figures=seat_figures,
    setting_names=OWN_SETTINGS,
    setting_aliases={
        "size": "size",
        "board": "size",
        "turn": "turn_s",
        "turn_s": "turn_s",
        "reveal": "reveal_s",
        "reveal_s": "reveal_s",
        "ai_level": "ai_level",
        "level": "ai_level",
        "difficulty": "ai_level",
    },
    switches=frozenset(),
    timed_events=frozenset({"turn_started", "game_ended"}),
    reminded_phases=frozenset({"turn"}),
)
GAME: Game = replace(_GAME, min_seats=MIN_SEATS, max_seats=MAX_SEATS)
