"""The state of one game of Hunch!: pydantic models, one small JSON document.

Target cards and clue cards are numbers: a target card is a line of the room's language's deck
(`decks/<language>.txt`), a word on it is `card * 3 + position` (its *word id*); a clue card
is a line of `decks/clues.txt`, which names its category. A secret is known by its owner's
seat and its place among that seat's secrets (its *slot*).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.games.common.model import BaseSeat, Seats
from engine.model import SeatStatus

SCHEMA_VERSION: Literal[1] = 1
MIN_SEATS = 3
MAX_SEATS = 6
ROUNDS = 3
START_COINS = 5
MATRIX_CARDS = 12
CLUE_CARDS = 2
"""Clue cards each seat draws in a clue phase."""
BARGAIN_COINS = 2
"""Coins a seat takes from the supply in the bargain round."""
ADVANCED_COST = 2
"""Coins an extra hunch or "this is very easy" costs (advanced rules)."""
REMOVED = -1
"""A matrix place whose card left the game with a guessed secret."""


def word_id(card: int, position: int) -> int:
    """The id of the word at `position` (0–2) on target card `card`."""
    return card * 3 + position


def card_of(word: int) -> int:
    """The target card a word id is on."""
    return word // 3


class Phase(StrEnum):
    """Where a game stands. Secrets are chosen once; then each of the three rounds runs its
    clue phase, its trading phase (auctions, each sale's placement, the bargain round) and its
    hunch phase, whose reveal is shown before the next round."""

    SECRETS = "secrets"
    CLUES = "clues"
    AUCTION = "auction"
    PLACE = "place"
    BARGAIN = "bargain"
    HUNCH = "hunch"
    REVEAL = "reveal"
    FINISHED = "finished"
    ABANDONED = "abandoned"


RUNNING_PHASES = frozenset(
    {Phase.SECRETS, Phase.CLUES, Phase.AUCTION, Phase.PLACE, Phase.BARGAIN, Phase.HUNCH}
)
OVER_PHASES = frozenset({Phase.FINISHED, Phase.ABANDONED})


class Settings(BaseModel):
    """A game's settings; bounds live in `engine.games.hunch.settings`."""

    model_config = ConfigDict(frozen=True)

    max_seats: int = MAX_SEATS
    """The table's seats setting, copied in at the start (the game takes at most six)."""
    timers: bool = True
    advanced: bool = False
    """The advanced rules: two more bargain choices (an extra hunch, "this is very easy")."""
    secrets_s: int = 60
    clue_s: int = 120
    bid_s: int = 20
    choice_s: int = 30
    """A buyer's placement, or a seat's bargain choice."""
    hunch_s: int = 90
    reveal_s: int = 10


class Secret(BaseModel):
    """One of a seat's secrets: a word it chose on one of its dealt target cards."""

    card: int
    word: int | None = None
    """The chosen word's position on the card (0–2); None until chosen."""
    status: Literal["hidden", "guessed", "out"] = "hidden"
    """Hidden (in play), guessed (left the game with its card), or out of play (its owner
    left; its card stays in the matrix)."""
    easy: bool = False
    """Two coins lie on it this round ("this is very easy", advanced rules)."""

    @property
    def word_id(self) -> int | None:
        return None if self.word is None else word_id(self.card, self.word)


class Clue(BaseModel):
    """A clue written on a clue card: offered in its round's trading phase, then placed before
    a secret (it stays until that secret is guessed) or discarded."""

    id: int
    writer: int
    card: int
    """The clue card (its category: `deck.category_of(card)`)."""
    text: str
    round: int
    owner: int | None = None
    """The seat before whose secret it lies (None: still on offer)."""
    secret: int | None = None
    answer: bool | None = None
    """A question clue's yes or no, given by its buyer (None: not a question, or not given)."""


class Hunch(BaseModel):
    """A hunch placed this round: a matrix word on another seat's secret."""

    owner: int
    secret: int
    word: int


class Seat(BaseSeat):
    """One player's place in the game, in join order; `score` (the table's total) is its VP."""

    coins: int = START_COINS
    vp: int = 0
    missed: int = 0
    """Phases missed in a row (two: it becomes spectating)."""
    secrets: list[Secret] = Field(default_factory=list)
    hand: list[int] = Field(default_factory=list)
    """Its clue cards in the clue phase."""
    texts: list[str | None] = Field(default_factory=list)
    """The clue written on each card of `hand` (None: not yet)."""
    replaced: bool = False
    """It replaced a clue card this round."""
    hunches: list[Hunch] = Field(default_factory=list)
    extra: int = 0
    """Extra hunches bought this round (advanced rules)."""
    guessed: int = 0
    """Its correct hunches in the game."""
    exposed: int = 0
    """Its secrets guessed in the game."""

    def in_play(self) -> list[int]:
        """The slots of its secrets still in play."""
        return [i for i, s in enumerate(self.secrets) if s.status == "hidden"]


class Step(BaseModel):
    """The current timed step: its number is what timers and buttons name (one per phase of
    a round, one per bidding turn, placement and bargain choice)."""

    no: int
    seat: int | None = None
    """The one seat awaited (bidding, placing, bargaining)."""


class Auction(BaseModel):
    """One seller's auction: bidders in turn from the seat after the seller."""

    seller: int
    bidders: list[int]
    passed: list[int] = Field(default_factory=list)
    bids: list[tuple[int, int]] = Field(default_factory=list)
    """Every bid so far: (seat, amount), rising."""
    buyer: int | None = None
    price: int = 0

    def high(self) -> tuple[int, int] | None:
        """The highest bid of a seat still in the auction: (seat, amount)."""
        standing = [(seat, amount) for seat, amount in self.bids if seat not in self.passed]
        return max(standing, key=lambda bid: bid[1]) if standing else None


class RevealLine(BaseModel):
    """One secret's hunches at a reveal, and whether it was guessed."""

    owner: int
    secret: int
    hunches: list[tuple[int, int, bool]]
    """(guesser, word id, correct) in the guessers' seat order."""
    word: int | None = None
    """The secret's word id, told when it was guessed (else None)."""
    easy: bool = False
    clues: list[Clue] = Field(default_factory=list)
    """The clues that lay before the secret at the reveal (a guessed secret's leave with it)."""


class State(Seats, BaseModel):
    """Everything about one running (or ended) game of Hunch!."""

    schema_version: Literal[1] = SCHEMA_VERSION
    phase: Phase = Phase.SECRETS
    settings: Settings = Field(default_factory=Settings)
    host: int
    seats: list[Seat]
    rng: int
    language: str = "en"
    """Whose words the target cards show (the room's language at the start)."""
    game_round: int = 1
    """The round, 1–3 (the secrets are chosen in round 1 before its clue phase)."""
    round: Step | None = None
    starting: int = 0
    """The starting player (the rocket)."""
    matrix: list[int] = Field(default_factory=list)
    """The 12 target cards in their places, REMOVED where a guessed secret's card left."""
    clue_deck: list[int] = Field(default_factory=list)
    clue_discard: list[int] = Field(default_factory=list)
    clues: list[Clue] = Field(default_factory=list)
    """This round's clues still on offer, and the clues lying before secrets in play."""
    next_clue: int = 0
    in_phase: list[int] = Field(default_factory=list)
    """The seats taking part in the current clue or hunch phase (fixed at its start)."""
    order: list[int] = Field(default_factory=list)
    """The seats still to sell (auctions) or to choose (bargain), in turn."""
    auction: Auction | None = None
    revealed: list[RevealLine] = Field(default_factory=list)
    """The last hunch phase's reveal (shown until the next round starts)."""
    supply_in: int = 0
    """Coins the seats took from the supply."""
    discarded: int = 0
    """Coins the seats discarded (advanced rules)."""
    guessed_total: int = 0
    """Secrets guessed in the game (the group result)."""
    start_seats: int = 0
    deadline: float | None = None
    timer_scale: float = 1.0
    phase_at: float = 0.0
    end_reason: str | None = None
    """"too_few_players" or "stopped" once abandoned (None when the game was played out)."""

    def clone(self) -> State:
        """Return a copy sharing no mutable container with this state (settings are frozen)."""
        return self.model_copy(deep=True)

    def clue(self, clue_id: int) -> Clue | None:
        for clue in self.clues:
            if clue.id == clue_id:
                return clue
        return None

    def allowance(self, index: int) -> int:
        """Hunches a seat may place this round: the round's number and any it bought, at most
        one per secret of another seat in play."""
        targets = sum(len(s.in_play()) for i, s in enumerate(self.seats)
                      if i != index and s.status is not SeatStatus.LEFT)  # fmt: skip
        return min(self.game_round + self.seats[index].extra, targets)

    def waiting_for(self) -> list[int]:
        """The seats the game waits on now."""
        phase = self.phase
        if phase is Phase.SECRETS:
            return [i for i in self.in_phase
                    if any(s.word is None for s in self.seats[i].secrets)]  # fmt: skip
        if phase is Phase.CLUES:
            return [i for i in self.in_phase if None in self.seats[i].texts]
        if phase is Phase.HUNCH:
            return [i for i in self.in_phase if len(self.seats[i].hunches) < self.allowance(i)]
        if phase in (Phase.AUCTION, Phase.PLACE, Phase.BARGAIN) and self.round is not None:
            return [] if self.round.seat is None else [self.round.seat]
        return []

    def in_play(self) -> list[int]:
        """The seats that play (neither spectating nor left)."""
        return [i for i, s in enumerate(self.seats) if s.status is SeatStatus.PLAYING]
