"""Commands of Hunch!: orders given to a game, as small frozen models in one tagged union.

A seat's dealt target card and clue card are named by their place in its hand (0, 1, 2), a
secret by its owner's seat and its slot, a matrix word by its word id (`model.word_id`), a
clue by its id. Each command of a timed step may carry that step's number (`round_no`), so a
button of an earlier step is refused."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.games.common import commands as common
from engine.games.common.commands import ComeBack, Join, Leave, Skip, StopGame, _RoundCommand
from engine.games.hunch.model import Phase


class ChooseSecret(_RoundCommand):
    """Choose (or change, until the phase closes) the word of a dealt card as a secret."""

    kind: Literal["hunch_choose_secret"] = "hunch_choose_secret"
    card: int
    """The dealt card's place among the seat's secrets (0–2)."""
    word: int
    """The word's position on the card (0–2)."""


class ReplaceClueCard(_RoundCommand):
    """Discard one clue card and draw another in its place (once per round)."""

    kind: Literal["hunch_replace_clue_card"] = "hunch_replace_clue_card"
    card: int


class WriteClue(_RoundCommand):
    """Write (or rewrite, until the phase closes) the clue of one of the seat's clue cards."""

    kind: Literal["hunch_write_clue"] = "hunch_write_clue"
    card: int
    text: str


class Bid(_RoundCommand):
    """Raise the highest bid to `amount` coins."""

    kind: Literal["hunch_bid"] = "hunch_bid"
    amount: int


class PassBid(_RoundCommand):
    """Pass: out of this auction."""

    kind: Literal["hunch_pass"] = "hunch_pass"


class PlaceClue(_RoundCommand):
    """The buyer takes one of the seller's clues and puts it before one of its secrets in play;
    a question clue with its answer for that secret."""

    kind: Literal["hunch_place_clue"] = "hunch_place_clue"
    clue: int
    secret: int
    answer: bool | None = None


class KeepClue(_RoundCommand):
    """Bargain: keep a leftover clue (not one's own) before one of one's secrets in play."""

    kind: Literal["hunch_keep_clue"] = "hunch_keep_clue"
    clue: int
    secret: int
    answer: bool | None = None


class TakeCoins(_RoundCommand):
    """Bargain: take 2 coins from the supply."""

    kind: Literal["hunch_take_coins"] = "hunch_take_coins"


class BuyHunch(_RoundCommand):
    """Bargain (advanced): discard 2 coins for one extra hunch this round."""

    kind: Literal["hunch_buy_hunch"] = "hunch_buy_hunch"


class MarkEasy(_RoundCommand):
    """Bargain (advanced): put 2 coins on one of one's secrets ("this is very easy")."""

    kind: Literal["hunch_mark_easy"] = "hunch_mark_easy"
    secret: int


class PlaceHunch(_RoundCommand):
    """Place a hunch (or change its word) on another seat's secret in play: a matrix word."""

    kind: Literal["hunch_place_hunch"] = "hunch_place_hunch"
    owner: int
    secret: int
    word: int


class TakeBackHunch(_RoundCommand):
    """Take back one's hunch from a secret (while the hunch phase is open)."""

    kind: Literal["hunch_take_back_hunch"] = "hunch_take_back_hunch"
    owner: int
    secret: int


class Timeout(common.Timeout[Phase]):
    """A timer fired for the step and phase it was set for."""


class MarkUnreachable(common.MarkUnreachable[Phase]):
    """A player's private chat refused the bot's message during this step."""


OWN_ACTIONS = (
    ChooseSecret,
    ReplaceClueCard,
    WriteClue,
    Bid,
    PassBid,
    PlaceClue,
    KeepClue,
    TakeCoins,
    BuyHunch,
    MarkEasy,
    PlaceHunch,
    TakeBackHunch,
)

Command = Annotated[
    ChooseSecret
    | ReplaceClueCard
    | WriteClue
    | Bid
    | PassBid
    | PlaceClue
    | KeepClue
    | TakeCoins
    | BuyHunch
    | MarkEasy
    | PlaceHunch
    | TakeBackHunch
    | Join
    | Leave
    | ComeBack
    | Skip
    | StopGame
    | Timeout
    | MarkUnreachable,
    Field(discriminator="kind"),
]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)

__all__ = [
    "COMMAND_ADAPTER",
    "OWN_ACTIONS",
    "Bid",
    "BuyHunch",
    "ChooseSecret",
    "ComeBack",
    "Command",
    "Join",
    "KeepClue",
    "Leave",
    "MarkEasy",
    "MarkUnreachable",
    "PassBid",
    "PlaceClue",
    "PlaceHunch",
    "ReplaceClueCard",
    "Skip",
    "StopGame",
    "TakeBackHunch",
    "TakeCoins",
    "Timeout",
    "WriteClue",
]
