"""Events of Hintrigue: facts about what a command changed, as frozen models in one union.

`CardChosen` is the storyteller's own (its card, before the hint); every other event may be
told to the group. A seat's coming and going are the events every game at the table gives
(`engine.games.common.events`); a late join is the table's (`engine.events.PlayerJoined`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.games.common.events import (
    SeatLeft,
    SeatReturned,
    SeatSpectating,
    SeatUnreachable,
    _Event,
)
from engine.games.hintrigue.model import Round

VoidReason = Literal["missed_hint", "storyteller_left", "unreachable", "skipped"]


class GameStarted(_Event):
    """The cards were dealt."""

    kind: Literal["game_started"] = "game_started"
    first_storyteller: int


class RoundStarted(_Event):
    """A storyteller's turn began; we wait for its card and hint."""

    kind: Literal["round_started"] = "round_started"
    round_no: int
    storyteller: int
    deadline: float | None
    after: Round | None = None
    """The round scored just before, whose reveal is over now."""


class CardChosen(_Event):
    """The storyteller picked a card (private to the storyteller)."""

    kind: Literal["card_chosen"] = "card_chosen"
    round_no: int
    seat: int
    card: int


class HintGiven(_Event):
    """The hint was given; decoys are awaited."""

    kind: Literal["hint_given"] = "hint_given"
    round_no: int
    hint: str
    deadline: float | None


class DecoyPlayed(_Event):
    """A seat put a decoy on the table; `auto` when chosen for it."""

    kind: Literal["decoy_played"] = "decoy_played"
    round_no: int
    seat: int
    card: int
    auto: bool = False


class VotingOpened(_Event):
    """The shuffled table is shown; voting is open."""

    kind: Literal["voting_opened"] = "voting_opened"
    round_no: int
    table: list[int]
    deadline: float | None


class VoteCast(_Event):
    """A seat voted, or changed its vote."""

    kind: Literal["vote_cast"] = "vote_cast"
    round_no: int
    seat: int
    card: int
    changed: bool = False


class RoundScored(_Event):
    """Voting closed: owners and votes revealed, points applied, hands refilled."""

    kind: Literal["round_scored"] = "round_scored"
    round_no: int
    points: dict[int, int]
    finders: list[int]
    deadline: float


class RoundVoided(_Event):
    """The round was void: no card moved, no score changed."""

    kind: Literal["round_voided"] = "round_voided"
    round_no: int
    storyteller: int
    reason: VoidReason
    prompted: list[int] = Field(default_factory=list)
    """Seats whose private prompt of this round was still open (its buttons now go)."""


class DeckReshuffled(_Event):
    """The discard pile became the new draw pile."""

    kind: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


class GameFinished(_Event):
    """The last rotation completed; winners are named."""

    kind: Literal["game_finished"] = "game_finished"
    winners: list[int]
    standings: list[int]


class GameAbandoned(_Event):
    """The game ended without a winner."""

    kind: Literal["game_abandoned"] = "game_abandoned"
    reason: Literal["too_few_players", "stopped", "topic_gone"]
    standings: list[int]
    interrupted: str | None = None
    """The phase the game was in when it ended (its messages are closed)."""
    prompted: list[int] = Field(default_factory=list)
    """Seats whose private prompt of the round was still open."""


Event = Annotated[
    GameStarted
    | RoundStarted
    | CardChosen
    | HintGiven
    | DecoyPlayed
    | VotingOpened
    | VoteCast
    | RoundScored
    | RoundVoided
    | SeatSpectating
    | SeatReturned
    | SeatLeft
    | SeatUnreachable
    | DeckReshuffled
    | GameFinished
    | GameAbandoned,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])

__all__ = [
    "EVENT_ADAPTER",
    "CardChosen",
    "DecoyPlayed",
    "DeckReshuffled",
    "Event",
    "GameAbandoned",
    "GameFinished",
    "GameStarted",
    "HintGiven",
    "RoundScored",
    "RoundStarted",
    "RoundVoided",
    "SeatLeft",
    "SeatReturned",
    "SeatSpectating",
    "SeatUnreachable",
    "VoidReason",
    "VoteCast",
    "VotingOpened",
]
