"""Commands of Guess What!: orders given to a game, as small frozen models in one tagged union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.games.common import commands as common
from engine.games.common.commands import (
    ComeBack,
    Join,
    Leave,
    Skip,
    StopGame,
    _PlayerCommand,
    _RoundCommand,
)
from engine.games.guesswhat.model import Phase


class PickIcon(_RoundCommand):
    """The active player picks (or re-picks) its icon in the icon's column."""

    kind: Literal["pick_icon"] = "pick_icon"
    icon: int


class Redraw(_RoundCommand):
    """The active player replaces three icons of the board, once per turn, before its clue."""

    kind: Literal["redraw"] = "redraw"
    icons: tuple[int, ...]


class GiveClue(_PlayerCommand):
    """The active player commits its three picks with a clue."""

    kind: Literal["give_clue"] = "give_clue"
    text: str


class GuessIcon(_RoundCommand):
    """A guesser picks (or re-picks) an icon in the icon's column."""

    kind: Literal["guess_icon"] = "guess_icon"
    icon: int


class ConfirmGuess(_RoundCommand):
    """A guesser confirms its three icons; a confirmed guess is final."""

    kind: Literal["confirm_guess"] = "confirm_guess"


class Timeout(common.Timeout[Phase]):
    """A timer fired for the round and phase it was set for."""


class MarkUnreachable(common.MarkUnreachable[Phase]):
    """A player's private chat refused the bot's message during this round and phase."""


Command = Annotated[
    PickIcon
    | Redraw
    | GiveClue
    | GuessIcon
    | ConfirmGuess
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
    "ComeBack",
    "ConfirmGuess",
    "GiveClue",
    "GuessIcon",
    "Join",
    "Leave",
    "MarkUnreachable",
    "PickIcon",
    "Redraw",
    "Skip",
    "StopGame",
    "Timeout",
    "Command",
    "COMMAND_ADAPTER",
]
