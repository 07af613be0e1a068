"""Settings of Guess What!: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.games.common import settings as common
from engine.games.guesswhat.model import MAX_SEATS, MIN_SEATS, Settings

BOUNDS: dict[str, tuple[int, int]] = {
    "max_seats": (MIN_SEATS, MAX_SEATS),
    "rotations": (1, 5),
    "target": (5, 20),
    "clue_s": (15, 900),
    "guess_s": (15, 900),
    "reveal_s": (2, 60),
}
SWITCHES = ("timers", "connoisseurs")


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds."""
    return common.apply_changes(settings, changes, BOUNDS, SWITCHES)


def check(settings: Settings) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    common.check(settings, BOUNDS, SWITCHES)
