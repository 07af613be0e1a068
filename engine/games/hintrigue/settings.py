"""Hintrigue's settings: bounds, names, and applying changes given by buttons or as text."""

from __future__ import annotations

from engine.errors import N_, ErrorCode, RuleError
from engine.games.common import settings as common
from engine.games.hintrigue.decks import decks
from engine.games.hintrigue.errors import Refusal
from engine.games.hintrigue.model import Settings
from engine.model import Room

BOUNDS: dict[str, tuple[int, int]] = {
    "rotations": (1, 5),
    "hand_size": (4, 8),
    "hint_s": (15, 900),
    "decoy_s": (15, 900),
    "vote_s": (15, 900),
    "reveal_s": (2, 60),
}
OWN_SETTINGS = frozenset({*BOUNDS, "deck"})
"""The game's own settings (`Room.game_settings`); the table's are the room's `Settings`."""
ALIASES = {
    "rotations": "rotations",
    "hand": "hand_size",
    "hand_size": "hand_size",
    "hint": "hint_s",
    "decoy": "decoy_s",
    "vote": "vote_s",
    "reveal": "reveal_s",
    "deck": "deck",
}
"""How /settings names them (`hint=60`)."""
WORDS = frozenset({"deck"})
"""Those whose value is a name (the others are numbers)."""


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is unknown or out of bounds."""
    numbers = {name: value for name, value in changes.items() if name != "deck"}
    if "deck" in changes and changes["deck"] not in decks():
        why = N_("deck must be one of {decks}")
        raise RuleError(ErrorCode.BAD_SETTING, why, decks=", ".join(decks()))
    new = common.apply_changes(settings, numbers, BOUNDS, ())
    return new.model_copy(update={"deck": changes["deck"]}) if "deck" in changes else new


def settings_of(room: Room) -> Settings:
    """The settings a game of Hintrigue in this room plays (or will play) with."""
    own = room.game_settings
    return own if isinstance(own, Settings) else Settings()


def check_deck(room: Room) -> None:
    """Refuse a deck smaller than max seats × (hand size + 1)."""
    settings = settings_of(room)
    need = room.settings.max_seats * (settings.hand_size + 1)
    have = len(decks()[settings.deck])
    if have < need:
        raise RuleError(
            Refusal.DECK_TOO_SMALL,
            N_("{deck} has {have} cards, needs {need}"),
            deck=settings.deck,
            have=have,
            need=need,
        )
