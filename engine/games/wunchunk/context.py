"""The working context of one command of Wunchunk (`engine.games.common.context`)."""

from __future__ import annotations

from engine.games.common.context import PlayCtx
from engine.games.wunchunk.events import Event
from engine.games.wunchunk.model import Round, Seat, State


class Ctx(PlayCtx[State, Round, Seat, Event]):
    """Mutable scratch state for applying one command to a copy of a game."""
