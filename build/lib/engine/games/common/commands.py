"""The commands every pure game takes, beside its own: small frozen models, tagged by `kind`.

A game's `Timeout` and `MarkUnreachable` name a phase of its own: it subclasses them with its
`Phase` (`Timeout[Phase]`)."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

P = TypeVar("P")


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True)


class _PlayerCommand(_Command):
    user_id: int


class _RoundCommand(_PlayerCommand):
    """Given on a button of one round; `round_no` refuses a button of another (None: typed),
    and at the table `game_id` one of another game in the same room (None: not a button)."""

    round_no: int | None = None
    game_id: int | None = None


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


class Timeout(_Command, Generic[P]):
    """A timer fired for the round and phase (P, the game's) it was set for."""

    kind: Literal["timeout"] = "timeout"
    round_no: int
    phase: P


class MarkUnreachable(_Command, Generic[P]):
    """A player's private chat refused the bot's message during this round and phase."""

    kind: Literal["mark_unreachable"] = "mark_unreachable"
    user_id: int
    round_no: int
    phase: P
