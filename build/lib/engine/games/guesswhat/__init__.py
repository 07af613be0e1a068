"""Guess What!: the pure, deterministic rules of the game, for the shared table to run.

The table calls `start()` with its seated players, then `apply()` for each command; it
renders `group_view()` and `seat_view()`, and schedules a `Timeout(round_no, phase)` at
`State.deadline` whenever that is set. Icons are numbers; `icon(n)` shows one.
"""

from engine.games.guesswhat.commands import COMMAND_ADAPTER, Command
from engine.games.guesswhat.events import EVENT_ADAPTER, Event
from engine.games.guesswhat.icons import Icon, icon, icons
from engine.games.guesswhat.model import Phase, Settings, State
from engine.games.guesswhat.rules import apply, start
from engine.games.guesswhat.settings import BOUNDS, apply_changes
from engine.games.guesswhat.views import GroupView, SeatView, group_view, seat_view

__all__ = [
    "BOUNDS",
    "COMMAND_ADAPTER",
    "EVENT_ADAPTER",
    "Command",
    "Event",
    "GroupView",
    "Icon",
    "Phase",
    "SeatView",
    "Settings",
    "State",
    "apply",
    "apply_changes",
    "group_view",
    "icon",
    "icons",
    "seat_view",
    "start",
]
