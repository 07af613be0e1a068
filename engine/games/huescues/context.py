"""The working context of one command: a private copy of the state, the time, the generator."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import ErrorCode, RuleError
from engine.games.huescues.events import Event
from engine.games.huescues.model import Round, Seat, State
from engine.rng import Rng


@dataclass
class Ctx:
    """Mutable scratch state for applying one command to a copy of a game."""

    state: State
    now: float
    rng: Rng
    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> None:
        """Record an event."""
        self.events.append(event)

    def timer(self, seconds: int) -> float | None:
        """Return the deadline of a player-action timer, or None when timers are off."""
        return self.presentation(seconds) if self.state.settings.timers else None

    def presentation(self, seconds: int) -> float:
        """Return the deadline of a timer that always runs (scaled for demos and tests)."""
        return self.now + seconds * self.state.timer_scale

    @property
    def round(self) -> Round:
        """Return the current round; only called in phases that have one."""
        if self.state.round is None:
            raise RuleError(ErrorCode.WRONG_PHASE, "no round")
        return self.state.round

    def seat(self, index: int) -> Seat:
        """Return a seat by index."""
        return self.state.seats[index]

    def seat_for(self, user_id: int) -> int:
        """Return the seat index of a user, or refuse a user who is not in the game."""
        index = self.state.seat_of(user_id)
        if index is None:
            raise RuleError(ErrorCode.NOT_IN_GAME)
        return index
