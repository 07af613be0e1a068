"""Events of Hues and Cues: facts about what a command changed, as frozen models in one union.

`CardDrawn`, `ColourChosen` and `CellChosen` are private to their seat; every other event may
be told to the group (none carries a secret before its time: `ConeConfirmed` says who, never
where; `FirstConesShown` comes when the first guesses close)."""

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

VoidReason = Literal["missed_cue", "skipped", "unreachable", "giver_left"]
NoSecondReason = Literal[
    "declined", "timeout", "skipped", "giver_left", "unreachable", "no_guessers"
]


class GameStarted(_Event):
    """The cards were dealt and the first cue giver drawn."""

    kind: Literal["game_started"] = "game_started"
    first_giver: int
    turns: int
    """How often each seat gives the cue in this game."""


class RoundStarted(_Event):
    """A cue giver's round began; we wait for its colour and first cue."""

    kind: Literal["round_started"] = "round_started"
    round_no: int
    giver: int
    deadline: float | None
    extra: int = 0
    """The tie-break round's number (1–3), 0 for a regular round."""
    guessers: list[int] = Field(default_factory=list)
    after: int | None = None
    """The round scored just before, whose reveal is over now."""


class CardDrawn(_Event):
    """The cue giver drew a card (private to the cue giver)."""

    kind: Literal["card_drawn"] = "card_drawn"
    round_no: int
    seat: int
    cells: list[int]


class ColourChosen(_Event):
    """The cue giver chose its colour (private to the cue giver)."""

    kind: Literal["colour_chosen"] = "colour_chosen"
    round_no: int
    seat: int
    cell: int


class CueGiven(_Event):
    """A cue was given; its guessing is open."""

    kind: Literal["cue_given"] = "cue_given"
    round_no: int
    cue: str
    second: bool
    deadline: float | None


class CellChosen(_Event):
    """A guesser put its cone on a cell, not yet final (private to that guesser)."""

    kind: Literal["cell_chosen"] = "cell_chosen"
    round_no: int
    seat: int
    cell: int
    second: bool


class ConeConfirmed(_Event):
    """A guesser confirmed its cone (the group learns who, never where)."""

    kind: Literal["cone_confirmed"] = "cone_confirmed"
    round_no: int
    seat: int
    second: bool


class FirstConesShown(_Event):
    """The first guesses closed: their cones are shown; we wait for the second cue."""

    kind: Literal["first_cones_shown"] = "first_cones_shown"
    round_no: int
    cones: dict[int, int]
    deadline: float | None


class SecondCueSkipped(_Event):
    """There is no second cue this round (neither a void nor a miss)."""

    kind: Literal["second_cue_skipped"] = "second_cue_skipped"
    round_no: int
    reason: NoSecondReason


class RoundScored(_Event):
    """Guessing closed: the colour and every cone are revealed, points applied."""

    kind: Literal["round_scored"] = "round_scored"
    round_no: int
    colour: int
    cones: dict[int, int]
    second_cones: dict[int, int]
    points: dict[int, int]
    exact: list[int]
    deadline: float


class RoundVoided(_Event):
    """The round ended without a first cue: no score changed."""

    kind: Literal["round_voided"] = "round_voided"
    round_no: int
    giver: int
    reason: VoidReason


class TieBreak(_Event):
    """The top total is tied: an extra round follows, in which only these seats score."""

    kind: Literal["tie_break"] = "tie_break"
    extra: int
    tied: list[int]


class DeckReshuffled(_Event):
    """The discarded cards became the new draw pile."""

    kind: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


class GameFinished(_Event):
    """Every round was played (and any tie-break): winners are named."""

    kind: Literal["game_finished"] = "game_finished"
    reason: Literal["rounds", "tie_break"]
    winners: list[int]
    standings: list[int]


Event = Annotated[
    GameStarted
    | RoundStarted
    | CardDrawn
    | ColourChosen
    | CueGiven
    | CellChosen
    | ConeConfirmed
    | FirstConesShown
    | SecondCueSkipped
    | RoundScored
    | RoundVoided
    | TieBreak
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
    "CardDrawn",
    "ColourChosen",
    "CueGiven",
    "CellChosen",
    "ConeConfirmed",
    "FirstConesShown",
    "SecondCueSkipped",
    "RoundScored",
    "RoundVoided",
    "TieBreak",
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
    "NoSecondReason",
    "VoidReason",
]
