"""The state of one game of Hues and Cues: pydantic models, one small JSON document."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.games.common.model import BaseSeat, Seats
from engine.model import SeatStatus

SCHEMA_VERSION: Literal[1] = 1
MIN_SEATS = 3
MAX_SEATS = 10
CARD_SIZE = 4
"""Colours on a card."""
EXTRA_ROUNDS = 3
"""Tie-break rounds at most (void ones count); those still level are co-winners."""


class Phase(StrEnum):
    """Where a game stands: each round walks cue → guess → second_cue → second_guess → reveal
    (the second guess only after a second cue), or ends at its first cue."""

    CUE = "cue"
    GUESS = "guess"
    SECOND_CUE = "second_cue"
    SECOND_GUESS = "second_guess"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABANDONED = "abandoned"


RUNNING_PHASES = frozenset(
    {Phase.CUE, Phase.GUESS, Phase.SECOND_CUE, Phase.SECOND_GUESS, Phase.REVEAL}
)
OVER_PHASES = frozenset({Phase.FINISHED, Phase.ABANDONED})
GUESS_PHASES = frozenset({Phase.GUESS, Phase.SECOND_GUESS})


class Settings(BaseModel):
    """A game's settings; bounds live in `engine.games.huescues.settings`."""

    model_config = ConfigDict(frozen=True)

    max_seats: int = 8
    turns: int = 0
    """How often each seat gives the cue: 0 by the table's size at the start (twice with 3–6
    seats, once with 7 or more), else 1–3."""
    free_choice: bool = False
    """The cue giver chooses any cell of the board instead of one of its card's four."""
    timers: bool = True
    cue_s: int = 90
    guess_s: int = 60
    second_cue_s: int = 60
    second_guess_s: int = 60
    reveal_s: int = 10


class Seat(BaseSeat):
    """One player's place in the game, in join order (shaped like `engine.model.Seat`)."""

    exact: int = 0
    """Cones this seat placed on the chosen colour itself."""
    missed: int = 0
    """First cues missed in a row as the cue giver (two: it becomes spectating)."""
    best: int = 0
    """The most points the seat scored in one round of this game."""


class Round(BaseModel):
    """One cue giver's round."""

    no: int
    giver: int
    participants: list[int]
    """The seats playing this round (the cue giver included); in a tie-break round, the cue
    giver and the tied seats still playing."""
    last: bool = False
    """No turn of the regular game follows this one (nobody may join any more)."""
    extra: int = 0
    """The tie-break round's number (1–3), 0 for a regular round."""
    tied: list[int] = Field(default_factory=list)
    """In a tie-break round, the seats tied at the top when it began."""
    giver_scores: bool = True
    """Whether the cue giver scores (not in a tie-break round it is not tied in)."""
    card: int | None = None
    """The card drawn (None with free choice)."""
    colour: int | None = None
    """The chosen cell (secret until the reveal)."""
    cues: list[str] = Field(default_factory=list)
    """The first cue, then the second one if given."""
    second_skipped: bool = False
    choices: dict[int, int] = Field(default_factory=dict)
    """Each guesser's cell in the current guessing phase, not yet confirmed (secret)."""
    cones: dict[int, int] = Field(default_factory=dict)
    """First cones, confirmed (secret until the first guesses close)."""
    second_cones: dict[int, int] = Field(default_factory=dict)
    """Second cones, confirmed (secret until the reveal)."""
    dropped: list[int] = Field(default_factory=list)
    """Guessers that will not guess any more this round (their private chat refused the bot)."""
    points: dict[int, int] | None = None
    exact: list[int] = Field(default_factory=list)
    """Seats with a cone on the chosen colour (once per cone)."""

    def clone(self) -> Round:
        """Return a copy sharing no mutable container with this round."""
        return self.model_copy(
            update={
                "participants": list(self.participants),
                "tied": list(self.tied),
                "cues": list(self.cues),
                "choices": dict(self.choices),
                "cones": dict(self.cones),
                "second_cones": dict(self.second_cones),
                "dropped": list(self.dropped),
                "points": dict(self.points) if self.points is not None else None,
                "exact": list(self.exact),
            }
        )

    def phase_cones(self, second: bool) -> dict[int, int]:
        """The confirmed cones of the first or the second guess."""
        return self.second_cones if second else self.cones


class State(Seats, BaseModel):
    """Everything about one running (or ended) game of Hues and Cues."""

    schema_version: Literal[1] = SCHEMA_VERSION
    phase: Phase = Phase.CUE
    settings: Settings = Field(default_factory=Settings)
    language: str = "en"
    """The room's language when the game started: its colour words are forbidden cues."""
    host: int
    """Who may /skip and /stop besides a group admin (the lobby's creator)."""
    seats: list[Seat]
    rng: int
    cards: list[list[int]] = Field(default_factory=list)
    """The 120 cards of four cells each, dealt by the seeded generator at the start."""
    draw: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    used_cues: list[str] = Field(default_factory=list)
    """Every cue given so far in this game, folded (a cue may not come back)."""
    round: Round | None = None
    turns: int = 2
    """How often each seat gives the cue, fixed at the start."""
    first_giver: int = 0
    rotations_done: int = 0
    extra_done: int = 0
    """Tie-break rounds played so far."""
    deadline: float | None = None
    timer_scale: float = 1.0
    phase_at: float = 0.0
    """When the current phase (of the current round) began."""
    end_reason: str | None = None
    """"rounds", "tie_break", "too_few_players" or "stopped" once the game is over."""

    def clone(self) -> State:
        """Return a copy sharing no mutable container with this state (settings are frozen)."""
        return self.model_copy(
            update={
                "seats": [seat.model_copy() for seat in self.seats],
                "cards": self.cards,  # never changed after the deal
                "draw": list(self.draw),
                "discard": list(self.discard),
                "used_cues": list(self.used_cues),
                "round": self.round.clone() if self.round is not None else None,
            }
        )

    def card_cells(self) -> list[int]:
        """The four cells of the current round's card (none with free choice)."""
        rnd = self.round
        if rnd is None or rnd.card is None:
            return []
        return list(self.cards[rnd.card])

    def guessers(self) -> list[int]:
        """Seats that guess this round: its participants but the cue giver, still in the
        game and not dropped."""
        rnd = self.round
        if rnd is None:
            return []
        return [
            i
            for i in rnd.participants
            if i != rnd.giver
            and self.seats[i].status is not SeatStatus.LEFT
            and i not in rnd.dropped
        ]

    def waiting_for(self) -> list[int]:
        """Seats whose action the current phase waits for (never what they chose)."""
        rnd = self.round
        if rnd is None:
            return []
        if self.phase in (Phase.CUE, Phase.SECOND_CUE):
            return [rnd.giver]
        if self.phase in GUESS_PHASES:
            placed = rnd.phase_cones(self.phase is Phase.SECOND_GUESS)
            return [i for i in self.guessers() if i not in placed]
        return []

    def all_cones(self) -> list[tuple[int, int, bool]]:
        """The cones on the board that everybody may see now: (seat, cell, second)."""
        rnd = self.round
        if rnd is None:
            return []
        shown: list[tuple[int, int, bool]] = []
        if self.phase in (Phase.SECOND_CUE, Phase.SECOND_GUESS, Phase.REVEAL):
            shown += [(seat, cell, False) for seat, cell in sorted(rnd.cones.items())]
        if self.phase is Phase.REVEAL:
            shown += [(seat, cell, True) for seat, cell in sorted(rnd.second_cones.items())]
        return shown
