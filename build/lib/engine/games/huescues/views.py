"""What the group may see and what one seat may see: no colour and no cone reaches the group
before its time (first cones when the first guess closes, the rest at the reveal)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.games.huescues.model import GUESS_PHASES, Phase, State
from engine.games.huescues.turns import standings, winners
from engine.model import SeatStatus


class SeatLine(BaseModel):
    """One seat as the whole group sees it."""

    model_config = ConfigDict(frozen=True)

    index: int
    user_id: int
    name: str
    status: SeatStatus
    score: int
    exact: int


class GroupView(BaseModel):
    """The game as shown in the group chat."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    seats: list[SeatLine]
    round_no: int | None
    giver: int | None
    extra: int
    """The tie-break round's number, 0 for a regular round."""
    tied: list[int]
    """In a tie-break round, the seats tied at the top."""
    guessers: list[int]
    cues: list[str]
    second_skipped: bool
    waiting_for: list[int]
    placed: list[int]
    """Who has confirmed a cone in the guess now open (never where)."""
    cones: dict[int, int]
    """The first cones, once the first guess has closed."""
    second_cones: dict[int, int]
    """The second cones, once the round is scored."""
    colour: int | None
    """The chosen colour, once the round is scored."""
    deadline: float | None
    points: dict[int, int]
    exact: list[int]
    standings: list[int]
    winners: list[int]
    end_reason: str | None


class SeatView(BaseModel):
    """The game as one seat sees it in its private chat: its own card, colour and cones."""

    model_config = ConfigDict(frozen=True)

    index: int
    phase: Phase
    status: SeatStatus
    round_no: int | None
    giver: bool
    in_round: bool
    free_choice: bool
    card: list[int]
    """The cue giver's four colours (empty for anyone else, and with free choice)."""
    colour: int | None
    """The cue giver's chosen colour (None for anyone else)."""
    cues: list[str]
    choice: int | None
    """This seat's cell in the guess now open, not yet confirmed."""
    cone: int | None
    second_cone: int | None
    confirmed: bool
    """Whether this seat's cone of the guess now open is final."""
    first_cones: dict[int, int]
    """The first cones everybody may see (a second cone never goes on their cells)."""
    owes_action: bool
    deadline: float | None


def group_view(state: State) -> GroupView:
    """Return what the group may see."""
    rnd = state.round
    scored = rnd is not None and rnd.points is not None
    shown = state.phase in (Phase.SECOND_CUE, Phase.SECOND_GUESS, Phase.REVEAL) or scored
    placed: list[int] = []
    if rnd is not None and state.phase in GUESS_PHASES:
        placed = sorted(rnd.phase_cones(state.phase is Phase.SECOND_GUESS))
    return GroupView(
        phase=state.phase,
        seats=[
            SeatLine(
                index=i,
                user_id=s.user_id,
                name=s.name,
                status=s.status,
                score=s.score,
                exact=s.exact,
            )  # fmt: skip
            for i, s in enumerate(state.seats)
        ],
        round_no=rnd.no if rnd else None,
        giver=rnd.giver if rnd else None,
        extra=rnd.extra if rnd else 0,
        tied=list(rnd.tied) if rnd else [],
        guessers=state.guessers(),
        cues=list(rnd.cues) if rnd else [],
        second_skipped=rnd.second_skipped if rnd else False,
        waiting_for=state.waiting_for() if state.phase is not Phase.ABANDONED else [],
        placed=placed,
        cones=dict(rnd.cones) if rnd and shown else {},
        second_cones=dict(rnd.second_cones) if rnd and scored else {},
        colour=rnd.colour if rnd and scored else None,
        deadline=state.deadline,
        points=dict(rnd.points or {}) if rnd and scored else {},
        exact=list(rnd.exact) if rnd and scored else [],
        standings=standings(state),
        winners=winners(state) if state.phase is Phase.FINISHED else [],
        end_reason=state.end_reason,
    )


def seat_view(state: State, index: int) -> SeatView:
    """Return what one seat may see: its card and colour if it gives the cue, its own cones."""
    seat = state.seats[index]
    rnd = state.round
    giver = rnd is not None and rnd.giver == index
    second = state.phase is Phase.SECOND_GUESS
    shown = state.phase in (Phase.SECOND_CUE, Phase.SECOND_GUESS, Phase.REVEAL)
    return SeatView(
        index=index,
        phase=state.phase,
        status=seat.status,
        round_no=rnd.no if rnd else None,
        giver=giver,
        in_round=rnd is not None and index in rnd.participants,
        free_choice=state.settings.free_choice,
        card=state.card_cells() if giver else [],
        colour=rnd.colour if rnd and giver else None,
        cues=list(rnd.cues) if rnd else [],
        choice=rnd.choices.get(index) if rnd else None,
        cone=rnd.cones.get(index) if rnd else None,
        second_cone=rnd.second_cones.get(index) if rnd else None,
        confirmed=rnd is not None
        and state.phase in GUESS_PHASES
        and index in rnd.phase_cones(second),
        first_cones=dict(rnd.cones) if rnd and shown else {},
        owes_action=seat.status is not SeatStatus.LEFT and index in state.waiting_for(),
        deadline=state.deadline,
    )
