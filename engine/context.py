"""The working context of one command: a private copy of the room, the time, the generator."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent
from engine.games.base import Game, Games
from engine.model import Room, Seat
from engine.rng import Rng


@dataclass
class Ctx:
    """Mutable scratch state for applying one command to a copy of a room."""

    room: Room
    now: float
    rng: Rng
    games: Games
    """The games the table hosts (the lobby opens and switches between them)."""
    events: list[AnyEvent] = field(default_factory=list)

    @property
    def game(self) -> Game:
        """The game the room plays, or its lobby is for."""
        return self.games.named(self.room.game)

    def emit(self, event: AnyEvent) -> None:
        """Record an event."""
        self.events.append(event)

    def timer(self, seconds: int) -> float | None:
        """Return the deadline of a player-action timer, or None when timers are off."""
        return self.presentation(seconds) if self.room.settings.timers else None

    def presentation(self, seconds: int) -> float:
        """Return the deadline of a timer that always runs (scaled for demos and tests)."""
        return self.now + seconds * self.room.timer_scale

    def seat(self, index: int) -> Seat:
        """Return a seat by index."""
        return self.room.seats[index]

    def seat_for(self, user_id: int) -> int:
        """Return the seat index of a user, or refuse a user who is not in the game."""
        index = self.room.seat_of(user_id)
        if index is None:
            raise RuleError(ErrorCode.NOT_IN_GAME)
        return index
