"""Hintrigue rooms as stored by the version that kept the game in the room's own fields (a
lobby, a game mid-vote, a finished game), with every command and event that played them on:
they load, dump back to the same JSON, and play on to the same end.

The fixtures are written by tests/unit/data/make_hintrigue_rooms.py; they stay as written
(they prove that rooms stored then still load), so the script is not run again to mend them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.commands import COMMAND_ADAPTER, StartGame, Timeout
from engine.model import Phase, Room, SeatStatus
from tests.table import apply, parse_room

DATA = Path(__file__).parent / "data"
TICK = 1.0
"""Seconds between two stored moves of the players (a timer fires at its deadline)."""


def stored(name: str) -> dict[str, Any]:
    """A stored fixture by name."""
    data: dict[str, Any] = json.loads((DATA / f"hintrigue_{name}.json").read_text())
    assert set(data) == {"room", "now", "commands", "events", "final"}
    return data


def at(room: Room, command: Any, now: float) -> float:
    """When a stored command came: a timer at the room's deadline, a move a tick after `now`."""
    if isinstance(command, Timeout):
        assert room.deadline is not None
        return room.deadline
    return now + TICK


def replay(data: dict[str, Any]) -> Room:
    """Load the stored room and play it on with the stored commands, checking every event."""
    room = parse_room(json.dumps(data["room"]))
    assert room.game == "hintrigue" and room.play is None and room.game_settings is None
    assert room.model_dump(mode="json") == data["room"]
    assert len(data["commands"]) == len(data["events"])
    now = data["now"]
    for step, (raw, expected) in enumerate(zip(data["commands"], data["events"], strict=True)):
        command = COMMAND_ADAPTER.validate_python(raw)
        assert command.model_dump(mode="json") == raw, step
        now = at(room, command, now)
        room, events = apply(room, command, now)
        assert [e.model_dump(mode="json") for e in events] == expected, step
    assert room.model_dump(mode="json") == data["final"]
    assert parse_room(json.dumps(data["final"])).model_dump(mode="json") == data["final"]
    return room


def test_a_stored_lobby_with_an_ai_seat_starts_and_plays_to_the_same_end() -> None:
    data = stored("lobby")
    room = parse_room(json.dumps(data["room"]))
    assert room.phase is Phase.LOBBY and len(room.seats) == 4 and len(room.ai_seats()) == 1
    assert (room.settings.rotations, room.settings.hint_s) == (1, 60)
    assert COMMAND_ADAPTER.validate_python(data["commands"][0]) == StartGame(user_id=room.creator)
    assert replay(data).phase is Phase.FINISHED


def test_a_stored_game_mid_vote_with_a_late_joiner_plays_to_the_same_end() -> None:
    data = stored("voting")
    room = parse_room(json.dumps(data["room"]))
    assert room.phase is Phase.VOTING and room.round is not None
    assert (room.round.no, len(room.round.votes)) == (2, 1)
    assert len(room.seats) == 5 and 4 not in room.round.participants
    assert replay(data).phase is Phase.FINISHED


def test_a_stored_finished_game_loads_and_dumps_as_it_was() -> None:
    data = stored("finished")
    assert data["commands"] == data["events"] == [] and data["final"] == data["room"]
    room = replay(data)
    assert room.phase is Phase.FINISHED and room.end_reason == "finished"
    assert room.round is not None and room.round.skipped == [Phase.DECOYS]
    assert [s.status for s in room.seats].count(SeatStatus.LEFT) == 1
    assert [s.missed_hints for s in room.seats].count(1) == 1
