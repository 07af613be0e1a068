"""Commands of Hues and Cues: orders given to a game, as small frozen models in one tagged
union."""

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
from engine.games.huescues.model import Phase


class ChooseColour(_RoundCommand):
    """The cue giver chooses (or changes) the colour of its card it will give cues for."""

    kind: Literal["choose_colour"] = "choose_colour"
    cell: int


class GiveCue(_PlayerCommand):
    """The cue giver gives the first cue (one word) or the second (one or two words)."""

    kind: Literal["give_cue"] = "give_cue"
    text: str


class NoSecondCue(_RoundCommand):
    """The cue giver gives no second cue: the round goes to the reveal."""

    kind: Literal["no_second_cue"] = "no_second_cue"


class ChooseCell(_RoundCommand):
    """A guesser puts its cone, tentatively, on a cell (it may change until confirmed)."""

    kind: Literal["choose_cell"] = "choose_cell"
    cell: int


class ConfirmCone(_RoundCommand):
    """A guesser confirms its cone: it is final."""

    kind: Literal["confirm_cone"] = "confirm_cone"


class Timeout(common.Timeout[Phase]):
    """A timer fired for the round and phase it was set for."""


class MarkUnreachable(common.MarkUnreachable[Phase]):
    """A player's private chat refused the bot's message during this round and phase."""


Command = Annotated[
    ChooseColour
    | GiveCue
    | NoSecondCue
    | ChooseCell
    | ConfirmCone
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
    "ChooseCell",
    "ChooseColour",
    "ComeBack",
    "ConfirmCone",
    "GiveCue",
    "Join",
    "Leave",
    "MarkUnreachable",
    "NoSecondCue",
    "Skip",
    "StopGame",
    "Timeout",
    "Command",
    "COMMAND_ADAPTER",
]
