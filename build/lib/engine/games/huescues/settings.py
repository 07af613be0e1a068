"""Settings of Hues and Cues: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.games.common import settings as common
from engine.games.huescues.model import MAX_SEATS, MIN_SEATS, Settings

BOUNDS: dict[str, tuple[int, int]] = {
    "max_seats": (MIN_SEATS, MAX_SEATS),
    "turns": (0, 3),
    "cue_s": (15, 900),
    "guess_s": (15, 900),
    "second_cue_s": (15, 900),
    "second_guess_s": (15, 900),
    "reveal_s": (2, 60),
}
SWITCHES = ("timers", "free_choice")


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds."""
    return common.apply_changes(settings, changes, BOUNDS, SWITCHES)


def check(settings: Settings) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    common.check(settings, BOUNDS, SWITCHES)


def turns_for(settings: Settings, seats: int) -> int:
    """How often each seat gives the cue: the setting, or by the table's size at the start
    (twice with 3–6 seats, once with 7 or more)."""
    if settings.turns:
        return settings.turns
    return 2 if seats <= 6 else 1
