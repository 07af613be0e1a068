"""What the group may see and what one seat may see: secrets never reach a group view."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.games.hintrigue.model import Phase, Round, own_seats, phase_of, round_of
from engine.games.hintrigue.turns import standings, winners
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus


class SeatLine(BaseModel):
    """One seat as the whole group sees it."""

    model_config = ConfigDict(frozen=True)

    index: int
    user_id: int
    name: str
    username: str | None
    status: SeatStatus
    score: int
    finds: int
    stolen: int


class RevealLine(BaseModel):
    """One table card after voting: its owner and its voters."""

    model_config = ConfigDict(frozen=True)

    card: int
    owner: int
    storyteller: bool
    voters: list[int]


class GroupView(BaseModel):
    """The room as shown in the group chat."""

    model_config = ConfigDict(frozen=True)

    phase: Phase | None
    seats: list[SeatLine]
    creator: int
    round_no: int | None
    storyteller: int | None
    hint: str | None
    table: list[int]
    waiting_for: list[int]
    voted: list[int]
    deadline: float | None
    reveal: list[RevealLine]
    points: dict[int, int]
    standings: list[int]
    winners: list[int]


class SeatView(BaseModel):
    """The room as one seat sees it in its private chat."""

    model_config = ConfigDict(frozen=True)

    index: int
    phase: Phase | None
    status: SeatStatus
    hand: list[int]
    storyteller: bool
    in_round: bool
    chosen: int | None
    played: int | None
    vote: int | None
    owes_action: bool


def waiting_for(room: Room) -> list[int]:
    """Seats whose action the current phase waits for (names only, never their choices)."""
    rnd = round_of(room)
    if rnd is None:
        return []
    present = [i for i in rnd.participants if room.seats[i].status is not SeatStatus.LEFT]
    if phase_of(room) is Phase.HINT:
        return [rnd.storyteller]
    others = [i for i in present if i != rnd.storyteller]
    if phase_of(room) is Phase.DECOYS:
        return [i for i in others if i not in rnd.plays]
    if phase_of(room) is Phase.VOTING:
        return [i for i in others if i not in rnd.votes]
    return []


def missed_voters(room: Room, rnd: Round) -> list[int]:
    """Seats that could vote in a round and have not (after it closed: did not)."""
    return [
        i
        for i in rnd.participants
        if i != rnd.storyteller
        and room.seats[i].status is not SeatStatus.LEFT
        and i not in rnd.votes
    ]


def group_view(room: Room) -> GroupView:
    """Return what the group may see; owners of table cards only after voting closed."""
    rnd, own = round_of(room), own_seats(room)
    revealed = phase_of(room) is Phase.REVEAL or (rnd is not None and rnd.points is not None)
    seats = [
        SeatLine(
            index=i,
            user_id=s.user_id,
            name=s.name,
            username=s.username,
            status=s.status,
            score=s.score,
            finds=own[i].finds,
            stolen=own[i].stolen,
        )
        for i, s in enumerate(room.seats)
    ]
    reveal: list[RevealLine] = []
    if rnd is not None and revealed:
        for card in rnd.table:
            owner = rnd.owner_of(card)
            assert owner is not None
            voters = sorted(i for i, c in rnd.votes.items() if c == card)
            reveal.append(
                RevealLine(
                    card=card, owner=owner, storyteller=owner == rnd.storyteller, voters=voters
                )
            )
    return GroupView(
        phase=phase_of(room),
        seats=seats,
        creator=room.creator,
        round_no=rnd.no if rnd else None,
        storyteller=rnd.storyteller if rnd else None,
        hint=rnd.hint if rnd else None,
        table=list(rnd.table) if rnd and phase_of(room) in (Phase.VOTING, Phase.REVEAL) else [],
        waiting_for=waiting_for(room),
        voted=sorted(rnd.votes) if rnd and phase_of(room) is Phase.VOTING else [],
        deadline=room.deadline,
        reveal=reveal,
        points=dict(rnd.points or {}) if rnd and revealed else {},
        standings=standings(room),
        winners=winners(room) if room.phase is TablePhase.FINISHED else [],
    )


def seat_view(room: Room, index: int) -> SeatView:
    """Return what one seat may see: its own hand and its own choices."""
    seat = room.seats[index]
    rnd = round_of(room)
    in_round = rnd is not None and index in rnd.participants
    storyteller = rnd is not None and rnd.storyteller == index
    return SeatView(
        index=index,
        phase=phase_of(room),
        status=seat.status,
        hand=list(own_seats(room)[index].hand),
        storyteller=storyteller,
        in_round=in_round,
        chosen=rnd.chosen if rnd and storyteller else None,
        played=rnd.plays.get(index) if rnd else None,
        vote=rnd.votes.get(index) if rnd else None,
        owes_action=seat.status is not SeatStatus.LEFT and index in waiting_for(room),
    )
