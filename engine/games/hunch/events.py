"""Events of Hunch!: facts about what a command changed, as frozen models in one union.

The events in `PRIVATE` tell a seat's secret matters (its dealt cards and secrets, its clue
cards before the clues are shown, its hunches before the reveal): only that seat's private
chat may tell them. Every other event may be told to the group: none carries a secret or a
hunch before its reveal."""

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

Missed = Literal["timeout", "skipped", "unreachable"]
PassReason = Literal["pass", "cannot_raise", "timeout", "skipped", "unreachable", "left"]
SkipReason = Literal["no_clues", "away"]
Placing = Literal["bought", "kept", "auto"]


class GameStarted(_Event):
    """Target cards were dealt (`dealt` per seat); the secrets are chosen until `deadline`."""

    kind: Literal["game_started"] = "game_started"
    starting: int
    dealt: list[int]
    deadline: float | None


class SecretsDealt(_Event):
    """A seat's dealt target cards (private)."""

    kind: Literal["hunch_secrets_dealt"] = "hunch_secrets_dealt"
    seat: int
    cards: list[int]


class SecretChosen(_Event):
    """A seat chose a word of a dealt card as a secret (private; `auto`: chosen for it)."""

    kind: Literal["hunch_secret_chosen"] = "hunch_secret_chosen"
    seat: int
    secret: int
    word: int
    auto: bool = False


class MatrixShown(_Event):
    """Every secret is chosen: the matrix of target cards is shown; `auto` are the seats whose
    secrets (some or all) were chosen for them."""

    kind: Literal["hunch_matrix_shown"] = "hunch_matrix_shown"
    matrix: list[int]
    auto: list[int]


class CluePhaseStarted(_Event):
    """A round began: every seat in `seats` drew clue cards and writes clues until
    `deadline`."""

    kind: Literal["hunch_clue_phase_started"] = "hunch_clue_phase_started"
    round_no: int
    game_round: int
    seats: list[int]
    deadline: float | None


class ClueCardsDrawn(_Event):
    """A seat's clue cards (private): `cards` are clue card numbers."""

    kind: Literal["hunch_clue_cards_drawn"] = "hunch_clue_cards_drawn"
    seat: int
    cards: list[int]
    replaced: int | None = None
    """The place in its hand of a card just replaced."""


class ClueWritten(_Event):
    """A seat wrote a clue on one of its clue cards (private until the clues are shown)."""

    kind: Literal["hunch_clue_written"] = "hunch_clue_written"
    seat: int
    card: int
    text: str


class ClueLine(_Event):
    """A clue as the group sees it."""

    kind: Literal["hunch_clue"] = "hunch_clue"
    id: int
    writer: int
    card: int
    text: str


class CluesShown(_Event):
    """The clue phase closed: every clue written is shown; `missed` wrote none."""

    kind: Literal["hunch_clues_shown"] = "hunch_clues_shown"
    clues: list[ClueLine]
    missed: list[int]


class AuctionStarted(_Event):
    """A seller's clues are on offer to `bidders`, in turn from the seat after the seller
    (`BidderUp` names each bidder's turn)."""

    kind: Literal["hunch_auction_started"] = "hunch_auction_started"
    seller: int
    clues: list[int]
    bidders: list[int]


class SellerSkipped(_Event):
    """A seat's turn to sell was skipped: it has no clue, or sits out or left."""

    kind: Literal["hunch_seller_skipped"] = "hunch_seller_skipped"
    seller: int
    reason: SkipReason


class BidMade(_Event):
    """A bidder raised the highest bid."""

    kind: Literal["hunch_bid_made"] = "hunch_bid_made"
    seat: int
    amount: int


class BidPassed(_Event):
    """A bidder is out of this auction (a pass, one that cannot raise, a missed bid…)."""

    kind: Literal["hunch_bid_passed"] = "hunch_bid_passed"
    seat: int
    reason: PassReason


class BidderUp(_Event):
    """The next bidder's turn, until `deadline`."""

    kind: Literal["hunch_bidder_up"] = "hunch_bidder_up"
    round_no: int
    seat: int
    high: int
    deadline: float | None


class AuctionWon(_Event):
    """The last bidder holding the highest bid pays the seller and places a clue by
    `deadline`."""

    kind: Literal["hunch_auction_won"] = "hunch_auction_won"
    round_no: int
    seller: int
    buyer: int
    price: int
    deadline: float | None


class AuctionUnsold(_Event):
    """Every bidder passed without a bid (or nobody could bid): nothing was sold."""

    kind: Literal["hunch_auction_unsold"] = "hunch_auction_unsold"
    seller: int


class CluePlaced(_Event):
    """A clue was put face up before a secret (with its answer, for a question clue)."""

    kind: Literal["hunch_clue_placed"] = "hunch_clue_placed"
    seat: int
    clue: int
    secret: int
    answer: bool | None
    how: Placing


class BargainTurn(_Event):
    """A seat chooses its bargain action until `deadline`."""

    kind: Literal["hunch_bargain_turn"] = "hunch_bargain_turn"
    round_no: int
    seat: int
    deadline: float | None


class CoinsTaken(_Event):
    """A seat took 2 coins from the supply (`missed`: its choice was missed)."""

    kind: Literal["hunch_coins_taken"] = "hunch_coins_taken"
    seat: int
    amount: int
    missed: bool = False


class HunchBought(_Event):
    """A seat discarded 2 coins for an extra hunch this round (advanced)."""

    kind: Literal["hunch_hunch_bought"] = "hunch_hunch_bought"
    seat: int


class SecretMarkedEasy(_Event):
    """A seat put 2 coins on one of its secrets: "this is very easy" (advanced)."""

    kind: Literal["hunch_secret_marked_easy"] = "hunch_secret_marked_easy"
    seat: int
    secret: int


class LeftoversDiscarded(_Event):
    """The clues nobody bought or kept were discarded."""

    kind: Literal["hunch_leftovers_discarded"] = "hunch_leftovers_discarded"
    clues: list[int]


class StartingPlayerChosen(_Event):
    """The seat with the fewest coins is the starting player (ties: the current one, then the
    seats after it)."""

    kind: Literal["hunch_starting_player"] = "hunch_starting_player"
    seat: int
    previous: int


class HunchPhaseStarted(_Event):
    """Hunches are placed until `deadline`: `hunches` per seat (0: none)."""

    kind: Literal["hunch_hunch_phase_started"] = "hunch_hunch_phase_started"
    round_no: int
    game_round: int
    hunches: list[int]
    deadline: float | None


class HunchPlaced(_Event):
    """A seat placed (or changed, or took back: `word` None) a hunch (private)."""

    kind: Literal["hunch_hunch_placed"] = "hunch_hunch_placed"
    seat: int
    owner: int
    secret: int
    word: int | None


class Reveal(_Event):
    """One secret's hunches revealed; `word` is told when it was guessed."""

    kind: Literal["hunch_reveal"] = "hunch_reveal"
    owner: int
    secret: int
    hunches: list[tuple[int, int, bool]]
    word: int | None
    easy: bool = False


class HunchesRevealed(_Event):
    """Every hunch of the round, secret by secret in seat order from the starting player;
    `points` are the VP each seat gained, `missed` placed none of its hunches. The reveal is
    shown until `deadline`."""

    kind: Literal["hunch_hunches_revealed"] = "hunch_hunches_revealed"
    game_round: int
    reveals: list[Reveal]
    points: list[int]
    vp: list[int]
    missed: list[int]
    deadline: float


class GameFinished(_Event):
    """After round 3: winners (most VP, then most coins; still tied share), standings, every
    secret told, and the group result."""

    kind: Literal["game_finished"] = "game_finished"
    winners: list[int]
    standings: list[int]
    vp: list[int]
    coins: list[int]
    secrets: list[list[int | None]]
    """Each seat's secrets' word ids, in slot order."""
    guessed: int
    group_result: int
    """The seed's group result, 0 (nothing guessed) to 5 (the best)."""


Event = Annotated[
    GameStarted
    | SecretsDealt
    | SecretChosen
    | MatrixShown
    | CluePhaseStarted
    | ClueCardsDrawn
    | ClueWritten
    | CluesShown
    | AuctionStarted
    | SellerSkipped
    | BidMade
    | BidPassed
    | BidderUp
    | AuctionWon
    | AuctionUnsold
    | CluePlaced
    | BargainTurn
    | CoinsTaken
    | HunchBought
    | SecretMarkedEasy
    | LeftoversDiscarded
    | StartingPlayerChosen
    | HunchPhaseStarted
    | HunchPlaced
    | HunchesRevealed
    | GameFinished
    | PlayerJoined
    | SeatLeft
    | SeatReturned
    | SeatSpectating
    | SeatUnreachable
    | GameAbandoned,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])

PRIVATE = frozenset(
    {
        "hunch_secrets_dealt",
        "hunch_secret_chosen",
        "hunch_clue_cards_drawn",
        "hunch_clue_written",
        "hunch_hunch_placed",
    }
)
"""The kinds of events that only their seat may be told (`seat`)."""

__all__ = [
    "EVENT_ADAPTER",
    "PRIVATE",
    "AuctionStarted",
    "AuctionUnsold",
    "AuctionWon",
    "BargainTurn",
    "BidMade",
    "BidPassed",
    "BidderUp",
    "ClueCardsDrawn",
    "ClueLine",
    "CluePhaseStarted",
    "CluePlaced",
    "ClueWritten",
    "CluesShown",
    "CoinsTaken",
    "Event",
    "GameAbandoned",
    "GameFinished",
    "GameStarted",
    "HunchBought",
    "HunchPhaseStarted",
    "HunchPlaced",
    "HunchesRevealed",
    "LeftoversDiscarded",
    "MatrixShown",
    "PlayerJoined",
    "Reveal",
    "SeatLeft",
    "SeatReturned",
    "SeatSpectating",
    "SeatUnreachable",
    "SecretChosen",
    "SecretMarkedEasy",
    "SecretsDealt",
    "SellerSkipped",
    "StartingPlayerChosen",
]
