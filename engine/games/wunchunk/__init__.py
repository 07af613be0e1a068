"""Wunchunk (SPEC 11.5): the pure, deterministic rules of the game, for the shared table to run.

The table calls `start()` with its seated players, then `apply()` for each command; it renders
`group_view()` and `seat_view()`, and schedules a `Timeout(round_no, phase)` at
`State.deadline` whenever that is set (a turn is a round). Cells are cube coordinates
(`board`); `board.cell_name(cell, n)` names one.
"""

from engine.games.wunchunk.commands import COMMAND_ADAPTER, Command
from engine.games.wunchunk.events import EVENT_ADAPTER, Event
from engine.games.wunchunk.model import Phase, Settings, State
from engine.games.wunchunk.rules import apply, start
from engine.games.wunchunk.settings import BOUNDS, apply_changes
from engine.games.wunchunk.views import GroupView, SeatView, group_view, seat_view

__all__ = [
    "BOUNDS",
    "COMMAND_ADAPTER",
    "EVENT_ADAPTER",
    "Command",
    "Event",
    "GroupView",
    "Phase",
    "SeatView",
    "Settings",
    "State",
    "apply",
    "apply_changes",
    "group_view",
    "seat_view",
    "start",
]
