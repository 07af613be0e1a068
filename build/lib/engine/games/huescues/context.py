"""The working context of one command of Hues and Cues (`engine.games.common.context`)."""

from __future__ import annotations

from engine.games.common.context import PlayCtx
from engine.games.huescues.events import Event
from engine.games.huescues.model import Round, Seat, State


class Ctx(PlayCtx[State, Round, Seat, Event]):
    """Mutable scratch state for applying one command to a copy of a game."""
