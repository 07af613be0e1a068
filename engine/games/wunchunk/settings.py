"""Settings of Wunchunk: bounds, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.errors import N_, ErrorCode, RuleError
from engine.games.common import settings as common
from engine.games.wunchunk.board import SIZES
from engine.games.wunchunk.model import MIN_SEATS, Settings

BOUNDS: dict[str, tuple[int, int]] = {
    "max_seats": (MIN_SEATS, 10),  # the table's setting; the game seats four at most
    "size": (0, max(SIZES)),
    "turn_s": (15, 900),
    "reveal_s": (2, 60),
    "ai_level": (1, 3),
}
SWITCHES = ("timers",)
AUTO = 0


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds
    (a board is 5–8 per side, or 0: automatic)."""
    size = changes.get("size")
    if isinstance(size, int) and not isinstance(size, bool) and size and size not in SIZES:
        raise RuleError(
            ErrorCode.BAD_SETTING,
            N_("{setting} must be {low}–{high}"),
            setting="size",
            low=min(SIZES),
            high=max(SIZES),
        )
    return common.apply_changes(settings, changes, BOUNDS, SWITCHES)


def check(settings: Settings) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    apply_changes(Settings(), settings.model_dump())


def size_for(settings: Settings, seats: int) -> int:
    """The board's cells per side: the setting, or 6 for two seats and 8 for three or four."""
    if settings.size:
        return settings.size
    return 6 if seats == 2 else 8
