"""Hues and Cues (SPEC 11.3): the pure, deterministic rules of the game, for the shared table to
run.

The table calls `start()` with its seated players and the room's language, then `apply()` for
each command; it renders `group_view()` and `seat_view()`, and schedules a
`Timeout(round_no, phase)` at `State.deadline` whenever that is set. Cells are numbers 0–479
(`board`); `board.name(cell)` names one.
"""

from engine.games.huescues.commands import COMMAND_ADAPTER, Command
from engine.games.huescues.events import EVENT_ADAPTER, Event
from engine.games.huescues.model import Phase, Settings, State
from engine.games.huescues.rules import apply, start
from engine.games.huescues.settings import BOUNDS, apply_changes
from engine.games.huescues.views import GroupView, SeatView, group_view, seat_view

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
