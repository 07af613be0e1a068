"""Settings of Guess What!: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.errors import N_, ErrorCode, RuleError
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
    for name, value in changes.items():
        if name in BOUNDS:
            low, high = BOUNDS[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleError(
                    ErrorCode.BAD_SETTING,
                    N_("{setting} must be {low}–{high}"),
                    setting=name,
                    low=low,
                    high=high,
                )
        elif name in SWITCHES:
            if not isinstance(value, bool):
                raise RuleError(ErrorCode.BAD_SETTING, name)
        else:
            raise RuleError(ErrorCode.BAD_SETTING, N_("unknown setting {name}"), name=name)
    return settings.model_copy(update=changes)


def check(settings: Settings) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    apply_changes(Settings(), settings.model_dump())
