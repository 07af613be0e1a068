"""Commands of Hues and Cues: orders given to a game, as small frozen models in one tagged
union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.games.huescues.model import Phase


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True)


class _PlayerCommand(_Command):
    user_id: int


class _RoundCommand(_PlayerCommand):
    """Given on a button of one round; `round_no` refuses a button of another (None: typed),
    and at the table `game_id` one of another game in the same room (None: not a button)."""

    round_no: int | None = None
    game_id: int | None = None


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


class Join(_PlayerCommand):
    """Take a seat in the running game (until its last turn starts)."""

    kind: Literal["join"] = "join"
    name: str


class Leave(_PlayerCommand):
    """Leave the game for good."""

    kind: Literal["leave"] = "leave"


class ComeBack(_PlayerCommand):
    """A spectating seat plays again from the next round."""

    kind: Literal["come_back"] = "come_back"


class Skip(_PlayerCommand):
    """Apply the current phase's timeout rule once (host or group admin)."""

    kind: Literal["skip"] = "skip"
    is_admin: bool = False
    grace: float = 0.0
    """Refused while the phase is younger than this (seconds)."""


class StopGame(_PlayerCommand):
    """End the game now without a winner (host or group admin)."""

    kind: Literal["stop_game"] = "stop_game"
    is_admin: bool = False


class Timeout(_Command):
    """A timer fired for the round and phase it was set for."""

    kind: Literal["timeout"] = "timeout"
    round_no: int
    phase: Phase


class MarkUnreachable(_Command):
    """A player's private chat refused the bot's message during this round and phase."""

    kind: Literal["mark_unreachable"] = "mark_unreachable"
    user_id: int
    round_no: int
    phase: Phase


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
