"""Rooms of Hintrigue stored by the version that kept the game in the room's own fields, brought
to this version's shape as they load: its settings move into the room's game settings; its
piles, round, turn order and phase, and each seat's hand and figures, into the game's state,
the room's phase becoming `playing` while the game runs (the timers set then name the game's
phase and round, as they did)."""

from __future__ import annotations

from typing import Any

from engine.games.hintrigue.settings import OWN_SETTINGS

ROOM_FIELDS = ("draw", "discard", "round", "first_storyteller", "rotations_done")
"""What the room kept of a game of Hintrigue."""
SEAT_FIELDS = ("hand", "finds", "stolen", "best", "missed_hints", "fooled")
"""What each seat kept of it."""
NO_GAME = ("lobby", "closed")
"""A room in these phases had no game yet (nor will it: a closed lobby)."""
RUNNING = ("hint", "decoys", "voting", "reveal")
"""The game's phases while it runs, which were the room's."""


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """The stored room's JSON in this version's shape (a new dict; a room stored by this
    version comes back as it is)."""
    settings = data.get("settings")
    seats = data.get("seats")
    old_settings = isinstance(settings, dict) and bool(OWN_SETTINGS & settings.keys())
    old_state = any(name in data for name in ROOM_FIELDS) or (
        isinstance(seats, list) and any(isinstance(s, dict) and "hand" in s for s in seats)
    )
    if not old_settings and not old_state:
        return data
    data = dict(data)
    if old_settings:
        assert isinstance(settings, dict)
        data["settings"] = {k: v for k, v in settings.items() if k not in OWN_SETTINGS}
        if data.get("game_settings") is None:
            data["game_settings"] = {k: v for k, v in settings.items() if k in OWN_SETTINGS}
    if old_state:
        state: dict[str, Any] = {k: data.pop(k) for k in ROOM_FIELDS if k in data}
        seats = [dict(s) for s in data.get("seats", [])]
        state["seats"] = [{k: s.pop(k) for k in SEAT_FIELDS if k in s} for s in seats]
        data["seats"] = seats
        phase = data.get("phase", "lobby")
        if data.get("play") is None and phase not in NO_GAME:
            data["play"] = {"phase": phase, **state}
            if phase in RUNNING:
                data["phase"] = "playing"
    return data
