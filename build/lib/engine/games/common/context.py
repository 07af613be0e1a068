"""The working context of one command of a pure game: a private copy of its state, the time,
the generator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import ErrorCode, RuleError
from engine.rng import Rng

R_co = TypeVar("R_co", covariant=True)
T_co = TypeVar("T_co", covariant=True)


class Timed(Protocol):
    """Settings that switch the player-action timers on or off."""

    @property
    def timers(self) -> bool: ...


class PlayState(Protocol[R_co, T_co]):
    """What the context reads of a game's state: its round (R) and seats (T)."""

    @property
    def settings(self) -> Timed: ...

    @property
    def timer_scale(self) -> float: ...

    @property
    def round(self) -> R_co | None: ...

    @property
    def seats(self) -> Sequence[T_co]: ...

    def seat_of(self, user_id: int) -> int | None: ...


S = TypeVar("S", bound=PlayState[Any, Any])
R = TypeVar("R")
T = TypeVar("T")
E = TypeVar("E")


@dataclass
class PlayCtx(Generic[S, R, T, E]):
    """Mutable scratch state for applying one command to a copy of a game: its state S, whose
    rounds are R and seats T, and the events E it gives."""

    state: S
    now: float
    rng: Rng
    events: list[E] = field(default_factory=list)

    def emit(self, event: E) -> None:
        """Record an event."""
        self.events.append(event)

    def timer(self, seconds: int) -> float | None:
        """Return the deadline of a player-action timer, or None when timers are off."""
        return self.presentation(seconds) if self.state.settings.timers else None

    def presentation(self, seconds: int) -> float:
        """Return the deadline of a timer that always runs (scaled for demos and tests)."""
        return self.now + seconds * self.state.timer_scale

    @property
    def round(self) -> R:
        """Return the current round; only called in phases that have one."""
        state: PlayState[R, T] = self.state
        if state.round is None:
            raise RuleError(ErrorCode.WRONG_PHASE, "no round")
        return state.round

    def seat(self, index: int) -> T:
        """Return a seat by index."""
        state: PlayState[R, T] = self.state
        return state.seats[index]

    def seat_for(self, user_id: int) -> int:
        """Return the seat index of a user, or refuse a user who is not in the game."""
        index = self.state.seat_of(user_id)
        if index is None:
            raise RuleError(ErrorCode.NOT_IN_GAME)
        return index
