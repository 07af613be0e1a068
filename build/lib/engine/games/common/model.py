"""Pieces of state every pure game shares: a seat's first fields and the questions asked of
the seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel

from engine.model import SeatStatus


class BaseSeat(BaseModel):
    """One player's place in the game, in join order (shaped like `engine.model.Seat`); a game
    adds its own figures after these fields."""

    user_id: int
    name: str
    status: SeatStatus = SeatStatus.PLAYING
    score: int = 0


class _Seated(Protocol):
    @property
    def seats(self) -> Sequence[BaseSeat]: ...


class Seats:
    """The questions asked of a game state's `seats` (a mixin of its model)."""

    def seat_of(self: _Seated, user_id: int) -> int | None:
        """Return the seat index of a user, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def active_seats(self: _Seated) -> list[int]:
        """Return the seat indices that play rounds (neither spectating nor left)."""
        return [i for i, s in enumerate(self.seats) if s.status is SeatStatus.PLAYING]

    def present_seats(self: _Seated) -> list[int]:
        """Return the seat indices that have not left."""
        return [i for i, s in enumerate(self.seats) if s.status is not SeatStatus.LEFT]
