"""Events of Wunchunk: facts about what a command changed, as frozen models in one union.

Wunchunk has no secret but the turn under construction: `StonesPending` and `StonesUndone`
are for the seat on turn (its private picture); every other event may be told to the group.
Cells are cube coordinates, colours seat indices, score lists (chunks, groups of 1, groups of
2, …) per seat."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.games.common.events import (
    GameAbandoned,
    PlayerJoined,
    SeatLeft,
    SeatReturned,
    SeatSpectating,
    SeatUnreachable,
    _Event,
)
from engine.games.wunchunk.board import Cell

Stone = tuple[Cell, int]
PassReason = Literal["pass", "timeout", "skipped", "unreachable", "left", "empty_turn"]
EndReason = Literal["board_full", "all_passed"]


class GameStarted(_Event):
    """The board was set with each seat's start chunk; `first` plays first (seat 1)."""

    kind: Literal["game_started"] = "game_started"
    size: int
    first: int
    stones: list[Stone]


class TurnStarted(_Event):
    """A seat's turn began: it may place up to `allotment` stones before `deadline`."""

    kind: Literal["turn_started"] = "turn_started"
    round_no: int
    seat: int
    allotment: int
    deadline: float | None
    balancing: bool = False
    """Seat 1's second turn: it may not end with more seat-1 chunks than it began with."""


class StonesPending(_Event):
    """Stones were added to the turn being built (for the seat on turn)."""

    kind: Literal["stones_pending"] = "stones_pending"
    round_no: int
    seat: int
    stones: list[Stone]
    pending: list[Stone]
    """Every pending stone now."""


class StonesUndone(_Event):
    """Pending stones were taken back (for the seat on turn)."""

    kind: Literal["stones_undone"] = "stones_undone"
    round_no: int
    seat: int
    stones: list[Stone]
    pending: list[Stone]


class TurnPlayed(_Event):
    """A seat's stones were applied; `scores` are every seat's score lists after them."""

    kind: Literal["turn_played"] = "turn_played"
    round_no: int
    seat: int
    stones: list[Stone]
    scores: list[list[int]]


class TurnPassed(_Event):
    """A seat placed no stone this turn (a pass, a missed turn, a seat that left…)."""

    kind: Literal["turn_passed"] = "turn_passed"
    round_no: int
    seat: int
    reason: PassReason


class GameEnded(_Event):
    """The board is full or every seat in play passed one after another: the end is shown
    until `deadline`, then the game finishes."""

    kind: Literal["game_ended"] = "game_ended"
    reason: EndReason
    scores: list[list[int]]
    deadline: float


class GameFinished(_Event):
    """The game is over: winners (smallest score list; ties share) and standings."""

    kind: Literal["game_finished"] = "game_finished"
    reason: EndReason
    winners: list[int]
    standings: list[int]
    scores: list[list[int]]


Event = Annotated[
    GameStarted
    | TurnStarted
    | StonesPending
    | StonesUndone
    | TurnPlayed
    | TurnPassed
    | GameEnded
    | GameFinished
    | PlayerJoined
    | SeatLeft
    | SeatReturned
    | SeatSpectating
    | SeatUnreachable
    | GameAbandoned,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])

__all__ = [
    "EVENT_ADAPTER",
    "Event",
    "GameAbandoned",
    "GameEnded",
    "GameFinished",
    "GameStarted",
    "PlayerJoined",
    "SeatLeft",
    "SeatReturned",
    "SeatSpectating",
    "SeatUnreachable",
    "StonesPending",
    "StonesUndone",
    "TurnPassed",
    "TurnPlayed",
    "TurnStarted",
]
