"""Commands of Guess What!: orders given to a game, as small frozen models in one tagged union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.games.guesswhat.model import Phase


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True)


class _PlayerCommand(_Command):
    user_id: int


class _RoundCommand(_PlayerCommand):
    """Given on a button of one turn; `round_no` refuses a button of another (None: typed),
    and at the table `game_id` one of another game in the same room (None: not a button)."""

    round_no: int | None = None
    game_id: int | None = None


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


class Join(_PlayerCommand):
    """Take a seat in the running game (until its last turn starts)."""

    kind: Literal["join"] = "join"
    name: str


class Leave(_PlayerCommand):
    """Leave the game for good."""

    kind: Literal["leave"] = "leave"


class ComeBack(_PlayerCommand):
    """A spectating seat plays again from the next turn."""

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
    """A timer fired for the turn and phase it was set for."""

    kind: Literal["timeout"] = "timeout"
    round_no: int
    phase: Phase


class MarkUnreachable(_Command):
    """A player's private chat refused the bot's message during this turn and phase."""

    kind: Literal["mark_unreachable"] = "mark_unreachable"
    user_id: int
    round_no: int
    phase: Phase


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
