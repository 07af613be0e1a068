"""Each game's part in the workers, by name: the mind its AI seats play with. The top of
`workers` (beside `engine.games.registry` and `tgbot.games.registry`), which the worker's
runtime hands down; nothing below imports it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.games.hintrigue.decks import decks
from engine.model import Room
from workers.ai import guesswhat, hintrigue, huescues, hunch, wunchunk
from workers.ai.gloss import dictionary
from workers.ai.model import load
from workers.ai.vocab import LANGUAGES, concept_matrix

Mind = Callable[[Room, int], list[Any]]
"""What the AI at a seat does now in a room's game: the engine commands it owes (none: it
owes nothing)."""


def _hintrigue(room: Room, seat: int) -> list[Any]:
    return list(hintrigue.decide(room, seat))


MINDS: Mapping[str, Mind] = {
    "hintrigue": _hintrigue,
    "guesswhat": guesswhat.in_room,
    "huescues": huescues.in_room,
    "wunchunk": wunchunk.in_room,
    "hunch": hunch.in_room,
}


def warm_up() -> None:
    """Load the meaning model, embed the vocabulary, build the gloss dictionaries, and warm
    each game's mind (about a second; a worker may call it when it starts, or leave it to the
    first decision)."""
    load()
    concept_matrix()
    for language in LANGUAGES[1:]:
        dictionary(language)
    for deck in decks():
        hintrigue.concept_bias(deck)
    huescues.variants()
