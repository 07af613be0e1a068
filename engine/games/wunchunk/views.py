"""What the group may see and what one seat may see: everything but the turn being built,
which only its seat sees until it ends."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.games.wunchunk.board import Cell
from engine.games.wunchunk.model import Phase, State
from engine.games.wunchunk.turns import standings, winners
from engine.model import SeatStatus

Stone = tuple[Cell, int]


class SeatLine(BaseModel):
    """One seat as the whole group sees it (its colour is its index)."""

    model_config = ConfigDict(frozen=True)

    index: int
    user_id: int
    name: str
    status: SeatStatus
    chunks: int
    crumbs: int
    groups: list[int]
    """Its score list: (chunks, groups of 1, groups of 2, …)."""


class GroupView(BaseModel):
    """The game as shown in the group chat."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    size: int
    seats: list[SeatLine]
    stones: list[Stone]
    """Every stone on the board, in name order of its cell."""
    last: list[Stone]
    """The stones of the last turn that placed any (to mark them)."""
    round_no: int | None
    turn: int | None
    """The seat on turn."""
    allotment: int
    balancing: bool
    first: int
    deadline: float | None
    standings: list[int]
    winners: list[int]
    end_reason: str | None


class SeatView(GroupView):
    """The game as one seat sees it in its private chat: with its pending stones on its turn."""

    seat: int
    pending: list[Stone]


def group_view(state: State) -> GroupView:
    rnd = state.round
    playing = state.phase is Phase.TURN and rnd is not None
    return GroupView(
        phase=state.phase,
        size=state.size,
        seats=[
            SeatLine(
                index=i,
                user_id=s.user_id,
                name=s.name,
                status=s.status,
                chunks=s.chunks,
                crumbs=s.crumbs,
                groups=list(s.groups),
            )  # fmt: skip
            for i, s in enumerate(state.seats)
        ],
        stones=list(state.stones().items()),
        last=state.last_stones(),
        round_no=rnd.no if rnd is not None else None,
        turn=rnd.seat if playing and rnd is not None else None,
        allotment=rnd.allotment if playing and rnd is not None else 0,
        balancing=bool(playing and rnd is not None and rnd.balancing),
        first=state.first,
        deadline=state.deadline,
        standings=standings(state),
        winners=winners(state) if state.phase is Phase.FINISHED else [],
        end_reason=state.end_reason,
    )


def seat_view(state: State, seat: int) -> SeatView:
    group = group_view(state)
    mine = group.turn == seat
    return SeatView(**group.model_dump(), seat=seat, pending=state.pending_stones() if mine else [])
