"""Rooms of Guess What! and Hues and Cues stored mid-game, with every command and event the
rest of the game took and gave, as written by an earlier version: they load, dump back to the
same JSON (but for the fields the table kept for Hintrigue then, which it keeps no more), and
play on to the same end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from engine.commands import COMMAND_ADAPTER, Join, Timeout
from engine.games import guesswhat, huescues
from engine.model import OVER_PHASES
from tests.guesswhat_builders import next_move as next_guesswhat
from tests.huescues_builders import next_move as next_huescues
from tests.table import apply, parse_room

DATA = Path(__file__).parent / "data"
LATE_JOIN_STEP = 14
"""How many commands after the stored room a fifth player joined."""

GAMES: dict[str, tuple[Any, Callable[[Any, float], tuple[Any, float]]]] = {
    "guesswhat": (guesswhat, next_guesswhat),
    "huescues": (huescues, next_huescues),
}


HINTRIGUES = {"rotations", "hand_size", "hint_s", "decoy_s", "vote_s", "reveal_s", "deck"}
"""What the table's settings kept for Hintrigue when these rooms were stored."""


HINTRIGUES_ROOM = {"draw", "discard", "round", "first_storyteller", "rotations_done"}
"""What the room kept for Hintrigue then."""
HINTRIGUES_SEAT = {"hand", "finds", "stolen", "best", "missed_hints", "fooled"}
"""What each of its seats kept for Hintrigue then."""


def as_now(old: dict[str, Any]) -> dict[str, Any]:
    """A stored room as this version writes it: the table's fields for Hintrigue left out."""
    settings = {k: v for k, v in old["settings"].items() if k not in HINTRIGUES}
    seats = [{k: v for k, v in s.items() if k not in HINTRIGUES_SEAT} for s in old["seats"]]
    room = {k: v for k, v in old.items() if k not in HINTRIGUES_ROOM}
    return {**room, "settings": settings, "seats": seats}


def stored(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{game}_room.json").read_text())
    return data


@pytest.mark.parametrize("game", list(GAMES))
def test_a_stored_room_loads_dumps_the_same_and_plays_on_to_the_same_end(game: str) -> None:
    package, next_move = GAMES[game]
    data = stored(game)
    room = parse_room(json.dumps(data["room"]))
    assert room.game == game and isinstance(room.play, package.State)
    assert room.model_dump(mode="json") == as_now(data["room"])
    now = data["now"]
    step = 0
    while room.phase not in OVER_PHASES:
        command, now = next_move(room.play, now)
        if step == LATE_JOIN_STEP:
            command = Join(user_id=5, name="P5")
        if isinstance(command, package.commands.Timeout):
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        assert command.model_dump(mode="json") == data["commands"][step]
        room, events = apply(room, command, now)
        assert [e.model_dump(mode="json") for e in events] == data["events"][step]
        step += 1
    assert step == len(data["commands"])
    assert room.model_dump(mode="json") == as_now(data["final"])
    assert parse_room(json.dumps(data["final"])).model_dump(mode="json") == as_now(data["final"])


@pytest.mark.parametrize("game", list(GAMES))
def test_every_stored_command_and_event_of_a_game_loads_and_dumps_as_it_was(game: str) -> None:
    package, _ = GAMES[game]
    data = stored(game)
    commands = [package.COMMAND_ADAPTER.validate_python(c) for c in data["every_command"]]
    assert [c.model_dump(mode="json") for c in commands] == data["every_command"]
    events = package.EVENT_ADAPTER.validate_python(data["every_event"])
    assert package.EVENT_ADAPTER.dump_python(events, mode="json") == data["every_event"]
    shared: TypeAdapter[Any] = COMMAND_ADAPTER
    for command in data["commands"]:
        if command["kind"] in ("join", "timeout"):
            assert shared.dump_python(shared.validate_python(command), mode="json") == command
