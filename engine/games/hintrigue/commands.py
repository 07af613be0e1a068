"""Commands of Hintrigue: its cards chosen on buttons, as small frozen models, in one tagged
union with the table's commands (the hint is the text the storyteller types in private, the
table's `GiveHint`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.commands import TableCommand, _ButtonCommand


class _CardCommand(_ButtonCommand):
    """A card chosen on a button of one round; `round_no` refuses a button from another."""

    card: int
    round_no: int | None = None


class ChooseCard(_CardCommand):
    """The storyteller picks (or re-picks) its card before giving the hint."""

    kind: Literal["choose_card"] = "choose_card"


class PlayDecoy(_CardCommand):
    """A non-storyteller slips a card from its hand onto the table."""

    kind: Literal["play_decoy"] = "play_decoy"


class Vote(_CardCommand):
    """Vote (or change the vote) for a table card."""

    kind: Literal["vote"] = "vote"


OWN_ACTIONS = (ChooseCard, PlayDecoy, Vote)

Command = Annotated[ChooseCard | PlayDecoy | Vote | TableCommand, Field(discriminator="kind")]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
