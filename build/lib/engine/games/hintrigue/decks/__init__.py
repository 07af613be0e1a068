"""Card decks shipped as data: one scene of two or three emoji per line."""

from __future__ import annotations

from functools import cache
from importlib import resources

SHORT_DECK_SIZE = 48


def _load(name: str) -> tuple[str, ...]:
    text = resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    scenes = tuple(line.replace(" ", "") for line in text.splitlines())
    for number, line in enumerate(text.splitlines(), start=1):
        if not 2 <= len(line.split(" ")) <= 3:
            raise ValueError(f"deck {name} line {number}: a scene has two or three emoji")
    if len(set(scenes)) != len(scenes):
        raise ValueError(f"deck {name}: scenes must be distinct")
    return scenes


@cache
def decks() -> dict[str, tuple[str, ...]]:
    """Return every deck by name; `short` is the first scenes of the default deck."""
    default = _load("default")
    return {"default": default, "short": default[:SHORT_DECK_SIZE]}


def scene(deck: str, card: int) -> str:
    """Return how a card looks: the same string on its button, the table and the reveal."""
    return decks()[deck][card]
