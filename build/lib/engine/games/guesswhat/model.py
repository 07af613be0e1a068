"""The state of one game of Guess What!: pydantic models, one small JSON document."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.games.common.model import BaseSeat, Seats
from engine.model import SeatStatus

SCHEMA_VERSION: Literal[1] = 1
MIN_SEATS = 3
MAX_SEATS = 10
COLUMNS = 3
"""Columns A, B and C of the board."""
ROWS = 3
BOARD_SIZE = COLUMNS * ROWS
COLUMN_NAMES = ("A", "B", "C")


class Phase(StrEnum):
    """Where a game stands; each turn walks clue → guess → reveal, or ends at its clue."""

    CLUE = "clue"
    GUESS = "guess"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABANDONED = "abandoned"


RUNNING_PHASES = frozenset({Phase.CLUE, Phase.GUESS, Phase.REVEAL})
OVER_PHASES = frozenset({Phase.FINISHED, Phase.ABANDONED})


class Settings(BaseModel):
    """A game's settings; bounds live in `engine.games.guesswhat.settings`."""

    model_config = ConfigDict(frozen=True)

    max_seats: int = 8
    rotations: int = 3
    target: int = 12
    """The game ends at the end of a turn in which a seat reached this many points."""
    connoisseurs: bool = False
    """When every guesser finds the three icons, the active player scores nothing."""
    timers: bool = True
    clue_s: int = 60
    guess_s: int = 60
    reveal_s: int = 8


class Seat(BaseSeat):
    """One player's place in the game, in join order (shaped like `engine.model.Seat`)."""

    correct: int = 0
    """Turns in which this seat guessed the three icons."""
    missed: int = 0
    """Clues missed in a row as the active player (two: it becomes spectating)."""
    best: int = 0
    """The most points the seat scored in one turn of this game."""


def _no_picks() -> list[int | None]:
    return [None] * COLUMNS


class Round(BaseModel):
    """One round: one active player's turn on the current board."""

    no: int
    active: int
    participants: list[int]
    """The seats playing this turn (the active one included); a late joiner or a spectator
    coming back plays from the next turn."""
    last: bool = False
    picks: list[int | None] = Field(default_factory=_no_picks)
    """The active player's icon in columns A, B, C (secret until the reveal)."""
    redrawn: bool = False
    clue: str | None = None
    guesses: dict[int, list[int | None]] = Field(default_factory=dict)
    """Each guesser's icon per column (secret until the reveal); after the reveal, only the
    confirmed ones are kept."""
    confirmed: list[int] = Field(default_factory=list)
    dropped: list[int] = Field(default_factory=list)
    """Guessers that will not guess this turn (their private chat refused the bot)."""
    points: dict[int, int] | None = None
    correct: list[int] = Field(default_factory=list)

    def clone(self) -> Round:
        """Return a copy sharing no mutable container with this turn."""
        return self.model_copy(
            update={
                "participants": list(self.participants),
                "picks": list(self.picks),
                "guesses": {seat: list(g) for seat, g in self.guesses.items()},
                "confirmed": list(self.confirmed),
                "dropped": list(self.dropped),
                "points": dict(self.points) if self.points is not None else None,
                "correct": list(self.correct),
            }
        )


class State(Seats, BaseModel):
    """Everything about one running (or ended) game of Guess What!."""

    schema_version: Literal[1] = SCHEMA_VERSION
    phase: Phase = Phase.CLUE
    settings: Settings = Field(default_factory=Settings)
    host: int
    """Who may /skip and /stop besides a group admin (the lobby's creator)."""
    seats: list[Seat]
    rng: int
    board: list[int] = Field(default_factory=list)
    """Nine icon numbers: column A is `board[0:3]`, B `board[3:6]`, C `board[6:9]`."""
    draw: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    round: Round | None = None
    first_active: int = 0
    rotations_done: int = 0
    deadline: float | None = None
    timer_scale: float = 1.0
    phase_at: float = 0.0
    """When the current phase (of the current turn) began."""
    end_reason: str | None = None
    """"target", "rotations", "too_few_players" or "stopped" once the game is over."""

    def clone(self) -> State:
        """Return a copy sharing no mutable container with this state (settings are frozen)."""
        return self.model_copy(
            update={
                "seats": [seat.model_copy() for seat in self.seats],
                "board": list(self.board),
                "draw": list(self.draw),
                "discard": list(self.discard),
                "round": self.round.clone() if self.round is not None else None,
            }
        )

    def column_of(self, icon: int) -> int | None:
        """Return the column (0 = A) of an icon on the board, or None when it is not there."""
        try:
            return self.board.index(icon) // ROWS
        except ValueError:
            return None

    def guessers(self) -> list[int]:
        """Seats that guess this turn: its participants but the active one, still in the game
        and not dropped."""
        rnd = self.round
        if rnd is None:
            return []
        return [
            i
            for i in rnd.participants
            if i != rnd.active
            and self.seats[i].status is not SeatStatus.LEFT
            and i not in rnd.dropped
        ]

    def waiting_for(self) -> list[int]:
        """Seats whose action the current phase waits for (never what they chose)."""
        rnd = self.round
        if rnd is None:
            return []
        if self.phase is Phase.CLUE:
            return [rnd.active]
        if self.phase is Phase.GUESS:
            return [i for i in self.guessers() if i not in rnd.confirmed]
        return []
