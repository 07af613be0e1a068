"""Hintrigue's own documents in the room: its settings (`Room.game_settings`) and its state
(`Room.play`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import ErrorCode, RuleError
from engine.model import Room

SCHEMA_VERSION: Literal[1] = 1


class Phase(StrEnum):
    """Where a game stands: each round walks hint → decoys → voting → reveal (a round whose
    storyteller gives no hint ends at its hint); the game ends finished, or abandoned."""

    HINT = "hint"
    DECOYS = "decoys"
    VOTING = "voting"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABANDONED = "abandoned"


RUNNING_PHASES = frozenset({Phase.HINT, Phase.DECOYS, Phase.VOTING, Phase.REVEAL})


class Settings(BaseModel):
    """Hintrigue's own settings; bounds live in `engine.games.hintrigue.settings`. The table's
    (seats, timers, join time, language, pictures) are in the room's `Settings`."""

    model_config = ConfigDict(frozen=True)

    rotations: int = 2
    hand_size: int = 6
    hint_s: int = 120
    decoy_s: int = 90
    vote_s: int = 90
    reveal_s: int = 8
    deck: str = "default"


class Seat(BaseModel):
    """What the game keeps of one seat, beside the table's seat of the same index (its name,
    status and total are the table's)."""

    hand: list[int] = Field(default_factory=list)
    finds: int = 0
    stolen: int = 0
    best: int = 0
    """The most points the seat scored in one round of this game."""
    missed_hints: int = 0
    fooled: dict[int, int] = Field(default_factory=dict)
    """Over the game: seat index → how many of that seat's votes went to this seat's decoys."""

    def clone(self) -> Seat:
        """Return a copy sharing no mutable container with this seat."""
        return self.model_copy(update={"hand": list(self.hand), "fooled": dict(self.fooled)})


class Round(BaseModel):
    """One storyteller's turn. Played cards leave their owner's hand for `plays`."""

    no: int
    storyteller: int
    participants: list[int]
    last: bool = False
    chosen: int | None = None
    hint: str | None = None
    plays: dict[int, int] = Field(default_factory=dict)
    auto: list[int] = Field(default_factory=list)
    table: list[int] = Field(default_factory=list)
    votes: dict[int, int] = Field(default_factory=dict)
    points: dict[int, int] | None = None
    skipped: list[Phase] = Field(default_factory=list)
    """Phases of this round the host or an admin ended early (/skip), rather than time."""

    def clone(self) -> Round:
        """Return a copy sharing no mutable container with this round."""
        return self.model_copy(
            update={
                "participants": list(self.participants),
                "plays": dict(self.plays),
                "auto": list(self.auto),
                "table": list(self.table),
                "votes": dict(self.votes),
                "points": dict(self.points) if self.points is not None else None,
                "skipped": list(self.skipped),
            }
        )

    def owner_of(self, card: int) -> int | None:
        """Return the seat that played `card` this round, if any."""
        for seat, played in self.plays.items():
            if played == card:
                return seat
        return None


class State(BaseModel):
    """Everything about one running (or ended) game of Hintrigue (`Room.play`): the seats' hands
    and figures, the piles, the round, the turn order and the phase. The room keeps what the
    table reads: its phase (`playing` until the game ends), the deadline, the seats' status and
    totals, the end."""

    schema_version: Literal[1] = SCHEMA_VERSION
    phase: Phase = Phase.HINT
    """The game's phase; the room's is `playing` until the game ends, as this one does."""
    seats: list[Seat] = Field(default_factory=list)
    """One per seat of the room, in the same order."""
    draw: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    round: Round | None = None
    first_storyteller: int = 0
    rotations_done: int = 0

    def clone(self) -> State:
        """Return a copy sharing no mutable container with this state."""
        return self.model_copy(
            update={
                "seats": [seat.clone() for seat in self.seats],
                "draw": list(self.draw),
                "discard": list(self.discard),
                "round": self.round.clone() if self.round is not None else None,
            }
        )


def state_of(room: Room) -> State:
    """The running (or ended) game's state; a room without one (a lobby) is refused."""
    if not isinstance(room.play, State):
        raise RuleError(ErrorCode.WRONG_PHASE, "no game of Hintrigue here")
    return room.play


def phase_of(room: Room) -> Phase | None:
    """The game's phase (None before it starts)."""
    return room.play.phase if isinstance(room.play, State) else None


def round_of(room: Room) -> Round | None:
    """The game's current (or last) round, if it has one."""
    return room.play.round if isinstance(room.play, State) else None


def own_seats(room: Room) -> list[Seat]:
    """The game's seats beside the room's: its state's, or blank ones before it starts."""
    if isinstance(room.play, State):
        return room.play.seats
    return [Seat() for _ in room.seats]
