"""Events of Guess What!: facts about what a command changed, as frozen models in one union.

`IconPicked` and `GuessPicked` are private to their seat; every other event may be told to the
group (none carries a secret before the reveal)."""

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

VoidReason = Literal["missed_clue", "skipped", "unreachable", "active_left"]


class GameStarted(_Event):
    """The deck was shuffled and the first active player drawn."""

    kind: Literal["game_started"] = "game_started"
    first_active: int


class RoundStarted(_Event):
    """An active player's turn began; we wait for its picks and clue."""

    kind: Literal["round_started"] = "round_started"
    round_no: int
    active: int
    board: list[int]
    new_board: bool
    """False when the turn goes on with the board of a turn that ended without a clue."""
    deadline: float | None
    after: int | None = None
    """The turn scored just before, whose reveal is over now."""


class IconPicked(_Event):
    """The active player picked an icon (private to the active player)."""

    kind: Literal["icon_picked"] = "icon_picked"
    round_no: int
    seat: int
    column: int
    icon: int


class BoardRedrawn(_Event):
    """The active player replaced three icons; picks on them were cleared."""

    kind: Literal["board_redrawn"] = "board_redrawn"
    round_no: int
    positions: list[int]
    board: list[int]
    deadline: float | None


class ClueGiven(_Event):
    """The clue was given; guessing is open."""

    kind: Literal["clue_given"] = "clue_given"
    round_no: int
    clue: str
    deadline: float | None


class GuessPicked(_Event):
    """A guesser picked an icon (private to that guesser)."""

    kind: Literal["guess_picked"] = "guess_picked"
    round_no: int
    seat: int
    column: int
    icon: int


class GuessConfirmed(_Event):
    """A guesser confirmed its guess (the group learns who, never what)."""

    kind: Literal["guess_confirmed"] = "guess_confirmed"
    round_no: int
    seat: int


class RoundScored(_Event):
    """Guessing closed: the answer and the confirmed guesses are revealed, points applied."""

    kind: Literal["round_scored"] = "round_scored"
    round_no: int
    answer: list[int]
    guesses: dict[int, list[int]]
    correct: list[int]
    points: dict[int, int]
    deadline: float


class RoundVoided(_Event):
    """The turn ended without a clue: no score changed; the board stays for the next one."""

    kind: Literal["round_voided"] = "round_voided"
    round_no: int
    active: int
    reason: VoidReason


class DeckReshuffled(_Event):
    """The discards (none of them on the board) became the new draw pile."""

    kind: Literal["deck_reshuffled"] = "deck_reshuffled"
    icons: int


class GameFinished(_Event):
    """A seat reached the target or the last rotation completed; winners are named."""

    kind: Literal["game_finished"] = "game_finished"
    reason: Literal["target", "rotations"]
    winners: list[int]
    standings: list[int]


Event = Annotated[
    GameStarted
    | RoundStarted
    | IconPicked
    | BoardRedrawn
    | ClueGiven
    | GuessPicked
    | GuessConfirmed
    | RoundScored
    | RoundVoided
    | SeatSpectating
    | SeatReturned
    | SeatLeft
    | SeatUnreachable
    | PlayerJoined
    | DeckReshuffled
    | GameFinished
    | GameAbandoned,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])

__all__ = [
    "GameStarted",
    "RoundStarted",
    "IconPicked",
    "BoardRedrawn",
    "ClueGiven",
    "GuessPicked",
    "GuessConfirmed",
    "RoundScored",
    "RoundVoided",
    "SeatSpectating",
    "SeatReturned",
    "SeatLeft",
    "SeatUnreachable",
    "PlayerJoined",
    "DeckReshuffled",
    "GameFinished",
    "GameAbandoned",
    "Event",
    "EVENT_ADAPTER",
    "VoidReason",
]
