"""What the group may see and what one seat may see: no pick or guess reaches the group before
the reveal."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.games.guesswhat.model import Phase, State
from engine.games.guesswhat.turns import standings, winners
from engine.model import SeatStatus


class SeatLine(BaseModel):
    """One seat as the whole group sees it."""

    model_config = ConfigDict(frozen=True)

    index: int
    user_id: int
    name: str
    status: SeatStatus
    score: int
    correct: int


class GroupView(BaseModel):
    """The game as shown in the group chat."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    seats: list[SeatLine]
    round_no: int | None
    active: int | None
    board: list[int]
    """Nine icons: column A is `board[0:3]`, B `board[3:6]`, C `board[6:9]`."""
    redrawn: bool
    clue: str | None
    waiting_for: list[int]
    confirmed: list[int]
    """Who has confirmed a guess (never what), while guessing is open."""
    deadline: float | None
    answer: list[int]
    """The active player's three icons, once the round is scored."""
    guesses: dict[int, list[int]]
    """The confirmed guesses, once the round is scored."""
    correct: list[int]
    points: dict[int, int]
    standings: list[int]
    winners: list[int]
    end_reason: str | None


class SeatView(BaseModel):
    """The game as one seat sees it in its private chat: its own picks or guess only."""

    model_config = ConfigDict(frozen=True)

    index: int
    phase: Phase
    status: SeatStatus
    round_no: int | None
    active: bool
    in_round: bool
    board: list[int]
    picks: list[int | None]
    """The active player's own picks (all None for anyone else)."""
    can_redraw: bool
    guess: list[int | None]
    """This seat's own guess so far (all None when it has none)."""
    confirmed: bool
    owes_action: bool
    deadline: float | None


def group_view(state: State) -> GroupView:
    """Return what the group may see."""
    rnd = state.round
    scored = rnd is not None and rnd.points is not None
    return GroupView(
        phase=state.phase,
        seats=[
            SeatLine(
                index=i,
                user_id=s.user_id,
                name=s.name,
                status=s.status,
                score=s.score,
                correct=s.correct,
            )
            for i, s in enumerate(state.seats)
        ],
        round_no=rnd.no if rnd else None,
        active=rnd.active if rnd else None,
        board=list(state.board),
        redrawn=rnd.redrawn if rnd else False,
        clue=rnd.clue if rnd else None,
        waiting_for=state.waiting_for() if state.phase is not Phase.ABANDONED else [],
        confirmed=sorted(rnd.confirmed) if rnd and state.phase is Phase.GUESS else [],
        deadline=state.deadline,
        answer=[i for i in rnd.picks if i is not None] if rnd and scored else [],
        guesses=(
            {s: [i for i in g if i is not None] for s, g in rnd.guesses.items()}
            if rnd and scored
            else {}
        ),
        correct=list(rnd.correct) if rnd and scored else [],
        points=dict(rnd.points or {}) if rnd and scored else {},
        standings=standings(state),
        winners=winners(state) if state.phase is Phase.FINISHED else [],
        end_reason=state.end_reason,
    )


def seat_view(state: State, index: int) -> SeatView:
    """Return what one seat may see: the board, its own picks or its own guess."""
    seat = state.seats[index]
    rnd = state.round
    active = rnd is not None and rnd.active == index
    empty: list[int | None] = [None, None, None]
    guess = rnd.guesses.get(index) if rnd is not None else None
    return SeatView(
        index=index,
        phase=state.phase,
        status=seat.status,
        round_no=rnd.no if rnd else None,
        active=active,
        in_round=rnd is not None and index in rnd.participants,
        board=list(state.board),
        picks=list(rnd.picks) if rnd and active else empty,
        can_redraw=active and state.phase is Phase.CLUE and rnd is not None and not rnd.redrawn,
        guess=list(guess) if guess is not None else empty,
        confirmed=rnd is not None and index in rnd.confirmed,
        owes_action=seat.status is not SeatStatus.LEFT and index in state.waiting_for(),
        deadline=state.deadline,
    )
