"""A row of the lobby's settings keyboard, as the table and each game declare theirs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Setting:
    """One row of the lobby's settings keyboard. Its index is what its buttons carry: given
    once for good, never reused for another setting (a button sent last week still means it)."""

    index: int
    label: str
    """Its name on the keyboard, marked with `N_` (translated when shown)."""
    help: str
    """What it does (its label pressed), marked with `N_`."""
    bounds: tuple[int, int] | None = None
    """A number from low to high, changed with − and + by `step`."""
    step: int = 1
    values: tuple[int, ...] = ()
    """The only numbers it takes, in order (− and + step through them; bounds hold the first
    and last)."""
    switch: bool = False
    """On or off."""
    choices: tuple[str, ...] = ()
    """One of these, the next one at each press."""
    shown: Callable[[Any], str] | None = None
    """How a value reads (None: as it is; a number of seconds as a time)."""
