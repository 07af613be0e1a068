"""Settings of Hues and Cues: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.errors import N_, ErrorCode, RuleError
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


def turns_for(settings: Settings, seats: int) -> int:
    """How often each seat gives the cue: the setting, or by the table's size at the start
    (twice with 3–6 seats, once with 7 or more)."""
    if settings.turns:
        return settings.turns
    return 2 if seats <= 6 else 1
