"""The state of one game of Wunchunk: pydantic models, one small JSON document.

The board is stored as one character per cell, in name order (`board.geometry(n).cells`):
`.` for an empty cell, `0`–`3` for a stone of that colour (a colour is a seat's index). The
turn under construction (`Round.pending`) is part of the state: its seat sees it, the group
does not, and it is applied whole when the turn ends.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.games.common.model import BaseSeat, Seats
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.board import Cell
from engine.model import SeatStatus

SCHEMA_VERSION: Literal[1] = 1
MIN_SEATS = 2
MAX_SEATS = 4
EMPTY = "."


class Phase(StrEnum):
    """Where a game stands: turn after turn, then the end is shown (reveal) and it finishes."""

    TURN = "turn"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABANDONED = "abandoned"


RUNNING_PHASES = frozenset({Phase.TURN, Phase.REVEAL})
OVER_PHASES = frozenset({Phase.FINISHED, Phase.ABANDONED})


class Settings(BaseModel):
    """A game's settings; bounds live in `engine.games.wunchunk.settings`."""

    model_config = ConfigDict(frozen=True)

    max_seats: int = MAX_SEATS
    """The table's seats setting, copied in at the start (the game takes at most four)."""
    size: int = 0
    """Cells per side of the board, 5–8; 0: by the seats at the start (6 for two, else 8)."""
    timers: bool = True
    turn_s: int = 120
    reveal_s: int = 10
    """How long the end is shown before the game finishes."""
    ai_level: int = 2
    """How well AI seats play: 1 (easy), 2 (normal), 3 (strong)."""


class Seat(BaseSeat):
    """One player's place in the game, in join order (shaped like `engine.model.Seat`); its
    colour is its index. `score` (the table's total) is how many seats its score list beats."""

    turns: int = 0
    """Turns this seat has taken (played or passed)."""
    missed: int = 0
    """Turns missed in a row (two: it becomes spectating)."""
    chunks: int = 0
    """Chunks of its colour now."""
    crumbs: int = 0
    """Single stones of its colour now."""
    groups: list[int] = Field(default_factory=list)
    """Its score list now: (chunks, groups of 1, groups of 2, …)."""


class Round(BaseModel):
    """One seat's turn, being built."""

    no: int
    seat: int
    allotment: int
    """The most stones this turn may place: the seat's chunks at its start, capped by the
    empty cells."""
    chunks_before: int
    """The seat's own chunks when the turn began (the balancing rule compares with it)."""
    balancing: bool = False
    """This is seat 1's second turn: it may not end with more seat-1 chunks than it began."""
    pending: list[tuple[int, int]] = Field(default_factory=list)
    """The stones placed so far in this turn, not yet applied: (cell number, colour)."""

    def clone(self) -> Round:
        return self.model_copy(update={"pending": list(self.pending)})


class State(Seats, BaseModel):
    """Everything about one running (or ended) game of Wunchunk."""

    schema_version: Literal[1] = SCHEMA_VERSION
    phase: Phase = Phase.TURN
    settings: Settings = Field(default_factory=Settings)
    host: int
    """Who may /skip and /stop besides a group admin (the lobby's creator)."""
    seats: list[Seat]
    rng: int
    size: int
    """Cells per side of the board."""
    board: str
    """One character per cell in name order: `.` empty, else the stone's colour digit."""
    first: int = 0
    """The seat that plays first (seat 1 of SPEC 11.5), drawn at the start."""
    round: Round | None = None
    last: list[tuple[int, int]] = Field(default_factory=list)
    """The stones of the last turn that placed any: (cell number, colour)."""
    passed: list[int] = Field(default_factory=list)
    """The seats that passed, one after another, since the last stone was placed."""
    deadline: float | None = None
    timer_scale: float = 1.0
    phase_at: float = 0.0
    """When the current turn (or the reveal) began."""
    end_reason: str | None = None
    """"board_full", "all_passed", "too_few_players" or "stopped" once the game ends."""

    def clone(self) -> State:
        """Return a copy sharing no mutable container with this state (settings are frozen)."""
        return self.model_copy(
            update={
                "seats": [
                    seat.model_copy(update={"groups": list(seat.groups)}) for seat in self.seats
                ],
                "round": self.round.clone() if self.round is not None else None,
                "last": list(self.last),
                "passed": list(self.passed),
            }
        )

    def colours(self) -> list[int]:
        """The board as one colour per cell number (−1 for empty)."""
        return [-1 if c == EMPTY else ord(c) - 48 for c in self.board]

    def stones(self) -> dict[Cell, int]:
        """The stones on the board (not the pending ones): cell → colour."""
        cells = hexes.geometry(self.size).cells
        return {cells[i]: ord(c) - 48 for i, c in enumerate(self.board) if c != EMPTY}

    def pending_stones(self) -> list[tuple[Cell, int]]:
        """The turn's pending stones, in the order placed: (cell, colour)."""
        if self.round is None:
            return []
        cells = hexes.geometry(self.size).cells
        return [(cells[i], colour) for i, colour in self.round.pending]

    def last_stones(self) -> list[tuple[Cell, int]]:
        cells = hexes.geometry(self.size).cells
        return [(cells[i], colour) for i, colour in self.last]

    def empty_cells(self) -> int:
        return self.board.count(EMPTY)

    def score_list(self, colour: int) -> tuple[int, ...]:
        """A colour's score list now, from the board."""
        return hexes.score_of_sizes(hexes.sizes_of(self.colours(), colour, self.size))

    def waiting_for(self) -> list[int]:
        """The seat whose turn it is (none during the reveal)."""
        if self.phase is Phase.TURN and self.round is not None:
            return [self.round.seat]
        return []

    def in_play(self) -> list[int]:
        """The seats that take turns (neither spectating nor left)."""
        return [i for i, s in enumerate(self.seats) if s.status is SeatStatus.PLAYING]
