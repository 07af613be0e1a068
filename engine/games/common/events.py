"""The events every pure game gives about its seats and its end without a winner, beside its
own: frozen models, tagged by `kind`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class SeatSpectating(_Event):
    """A seat missed its part twice in a row and now sits out."""

    kind: Literal["seat_spectating"] = "seat_spectating"
    seat: int


class SeatReturned(_Event):
    """A spectating seat plays again from the next round."""

    kind: Literal["seat_returned"] = "seat_returned"
    seat: int


class SeatLeft(_Event):
    """A seat left the game for good."""

    kind: Literal["seat_left"] = "seat_left"
    seat: int
    prompt_round: int | None = None
    """The round whose private prompt still spoke to the seat (awaited something of it, or
    told it what to do next), if any: it is closed."""


class SeatUnreachable(_Event):
    """A seat's private chat refused the bot; its action counts as missed."""

    kind: Literal["seat_unreachable"] = "seat_unreachable"
    seat: int


class PlayerJoined(_Event):
    """A player took a seat in the running game; it plays from the next round."""

    kind: Literal["player_joined"] = "player_joined"
    seat: int


class GameAbandoned(_Event):
    """The game ended without a winner."""

    kind: Literal["game_abandoned"] = "game_abandoned"
    reason: Literal["too_few_players", "stopped"]
    standings: list[int]
    interrupted: str | None = None
    """The phase the game was in when it ended."""
