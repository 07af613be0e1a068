"""Commands of Wunchunk: orders given to a game, as small frozen models in one tagged union.

A cell is a cube coordinate (q, r, s) (`engine.games.wunchunk.board`), a colour a seat's
index. The seat on turn builds its turn stone by stone (`PlaceStone`, or several at once
typed: `PlaceStones`), takes stones back (`Undo`), and ends it (`EndTurn`: the pending stones
are applied whole) or passes (`Pass`: the pending stones are dropped)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.games.common import commands as common
from engine.games.common.commands import ComeBack, Join, Leave, Skip, StopGame, _RoundCommand
from engine.games.wunchunk.board import Cell
from engine.games.wunchunk.model import Phase


class PlaceStone(_RoundCommand):
    """Add a stone of `colour` on `cell` to the turn being built."""

    kind: Literal["place_stone"] = "place_stone"
    cell: Cell
    colour: int


class PlaceStones(_RoundCommand):
    """Add several stones to the turn being built, all or none (a typed turn: `g5 g6 b:f7`)."""

    kind: Literal["place_stones"] = "place_stones"
    stones: tuple[tuple[Cell, int], ...]


class Undo(_RoundCommand):
    """Take back the last pending stone, the one on `cell`, or every one (`all`)."""

    kind: Literal["undo"] = "undo"
    cell: Cell | None = None
    all: bool = False


class EndTurn(_RoundCommand):
    """Apply the pending stones as the turn (none: a pass)."""

    kind: Literal["end_turn"] = "end_turn"


class Pass(_RoundCommand):
    """Place no stone this turn (pending stones are dropped)."""

    kind: Literal["pass"] = "pass"


class Timeout(common.Timeout[Phase]):
    """A timer fired for the turn (round) and phase it was set for."""


class MarkUnreachable(common.MarkUnreachable[Phase]):
    """A player's private chat refused the bot's message during this turn."""


OWN_ACTIONS = (PlaceStone, PlaceStones, Undo, EndTurn, Pass)

Command = Annotated[
    PlaceStone
    | PlaceStones
    | Undo
    | EndTurn
    | Pass
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
    "ComeBack",
    "Command",
    "EndTurn",
    "Join",
    "Leave",
    "MarkUnreachable",
    "Pass",
    "PlaceStone",
    "PlaceStones",
    "Skip",
    "StopGame",
    "Timeout",
    "Undo",
]
