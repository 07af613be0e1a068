"""Settings of Hunch!: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.games.common import settings as common
from engine.games.hunch.model import MIN_SEATS, Settings

BOUNDS: dict[str, tuple[int, int]] = {
    "max_seats": (MIN_SEATS, 10),  # the table's setting; the game seats six at most
    "secrets_s": (15, 900),
    "clue_s": (15, 900),
    "bid_s": (5, 300),
    "choice_s": (10, 600),
    "hunch_s": (15, 900),
    "reveal_s": (2, 60),
}
SWITCHES = ("timers", "advanced")


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds."""
    return common.apply_changes(settings, changes, BOUNDS, SWITCHES)


def check(settings: Settings) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    common.check(settings, BOUNDS, SWITCHES)
