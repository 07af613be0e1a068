"""Tally's rules and registration: each round every player adds 1 or 2 to their total with a
button in the group; after two rounds the highest totals win."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import commands as shared
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.base import Game, Moment
from engine.model import Phase, Room, SeatStatus

ROUNDS = 2


class Refusal(StrEnum):
    """Tally's own refusals."""

    ADDED_ALREADY = "tally_added_already"
    BAD_AMOUNT = "tally_bad_amount"


class State(BaseModel):
    """A game of Tally: the totals, the round, who added this round."""

    round: int = 1
    totals: list[int] = Field(default_factory=list)
    added: list[int] = Field(default_factory=list)


class Add(BaseModel):
    """A player adds 1 or 2 to their total this round."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["tally_add"] = "tally_add"
    user_id: int
    amount: int
    game_id: int | None = None


class Started(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["tally_started"] = "tally_started"


class Added(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["tally_added"] = "tally_added"
    seat: int


class Finished(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["game_finished"] = "game_finished"


def state_of(room: Room) -> State:
    assert isinstance(room.play, State)
    return room.play


def start(ctx: Ctx) -> None:
    ctx.room.play = State(totals=[0] * len(ctx.room.seats))
    ctx.room.phase = Phase.PLAYING
    ctx.emit(Started())  # type: ignore[arg-type]


def act(ctx: Ctx, command: Any) -> None:
    state = state_of(ctx.room)
    if isinstance(command, shared.StopGame):
        ctx.room.phase, ctx.room.end_reason = Phase.ABANDONED, "stopped"
        ctx.emit(Finished())  # type: ignore[arg-type]
        return
    if not isinstance(command, Add):
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)
    seat = ctx.seat_for(command.user_id)
    if seat in state.added:
        raise RuleError(Refusal.ADDED_ALREADY)
    if command.amount not in (1, 2):
        raise RuleError(Refusal.BAD_AMOUNT, str(command.amount))
    state.totals[seat] += command.amount
    state.added.append(seat)
    ctx.emit(Added(seat=seat))  # type: ignore[arg-type]
    if len(state.added) == len(ctx.room.active_seats()):
        if state.round == ROUNDS:
            ctx.room.phase = Phase.FINISHED
            ctx.emit(Finished())  # type: ignore[arg-type]
            return
        state.round += 1
        state.added = []
    for index, total in enumerate(state.totals):
        ctx.room.seats[index].score = total


def winners(room: Room) -> list[int]:
    totals = state_of(room).totals
    return [i for i, total in enumerate(totals) if total == max(totals)]


def moment(room: Room) -> Moment | None:
    state = state_of(room)
    waiting = [i for i in room.active_seats() if i not in state.added]
    return Moment(state.round, "add", room.phase_at, waiting)


def refuse_late(ctx: Ctx, index: int) -> None:
    raise RuleError(ErrorCode.TOO_LATE_TO_JOIN)


GAME = Game(
    name="tally",
    title="Tally",
    start=start,
    act=act,
    join_late=refuse_late,
    joinable=lambda room: False,
    timer=lambda room: None,
    figures=("games", "wins", "points"),
    seat_figures=lambda room, index: {"points": state_of(room).totals[index]},
    winners=winners,
    moment=moment,
    timed_events=frozenset(),
    reminded_phases=frozenset(),
    state_model=State,
)
"""Tally at the table (untimed: its rounds wait for every press)."""

__all__ = ["GAME", "Add", "Refusal", "SeatStatus"]
