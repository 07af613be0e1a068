"""The working context of one command of Hunch! (`engine.games.common.context`)."""

from __future__ import annotations

from engine.games.common.context import PlayCtx
from engine.games.hunch.events import Event
from engine.games.hunch.model import Seat, State, Step


class Ctx(PlayCtx[State, Step, Seat, Event]):
    """Mutable scratch state for applying one command to a copy of a game."""
