"""Applying changes to a pure game's own settings, given by buttons or as text: each game
names its bounds and switches."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TypeVar

from pydantic import BaseModel

from engine.errors import N_, ErrorCode, RuleError

M = TypeVar("M", bound=BaseModel)


def apply_changes(
    settings: M,
    changes: dict[str, int | bool | str],
    bounds: Mapping[str, tuple[int, int]],
    switches: Collection[str],
) -> M:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds."""
    for name, value in changes.items():
        if name in bounds:
            low, high = bounds[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleError(
                    ErrorCode.BAD_SETTING,
                    N_("{setting} must be {low}–{high}"),
                    setting=name,
                    low=low,
                    high=high,
                )
        elif name in switches:
            if not isinstance(value, bool):
                raise RuleError(ErrorCode.BAD_SETTING, name)
        else:
            raise RuleError(ErrorCode.BAD_SETTING, N_("unknown setting {name}"), name=name)
    return settings.model_copy(update=changes)


def check(
    settings: BaseModel, bounds: Mapping[str, tuple[int, int]], switches: Collection[str]
) -> None:
    """Refuse settings out of bounds (settings built without `apply_changes`)."""
    apply_changes(type(settings)(), settings.model_dump(), bounds, switches)
