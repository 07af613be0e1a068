"""Hintrigue rooms as stored by the version that kept the game in the room's own fields (a
lobby, a game mid-vote, a finished game), with every command and event that played them on:
they load, are upgraded on load to this version's shape (the game's settings and state in its
own documents, `Room.game_settings` and `Room.play`), and play on to the same end: where the
stored final room, loaded (upgraded) the same way, is.

The fixtures are written by tests/unit/data/make_hintrigue_rooms.py; they stay as written
(they prove that rooms stored then still load), so the script is not run again to mend them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.commands import StartGame, Timeout
from engine.games.hintrigue.commands import COMMAND_ADAPTER
from engine.games.hintrigue.model import Phase, Settings, own_seats, phase_of, round_of
from engine.games.hintrigue.settings import settings_of
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tests.table import apply, parse_room

DATA = Path(__file__).parent.parent / "data"
OWN = {"rotations", "hand_size", "hint_s", "decoy_s", "vote_s", "reveal_s", "deck"}
"""Hintrigue's own settings, kept in the table's settings by the old version."""
ROOM_FIELDS = {"draw", "discard", "round", "first_storyteller", "rotations_done"}
"""What the old version's room kept of a game of Hintrigue."""
SEAT_FIELDS = {"hand", "finds", "stolen", "best", "missed_hints", "fooled"}
"""What its seats kept of it."""
RUNNING = {"hint", "decoys", "voting", "reveal"}
"""The old room's phases while its game ran: the game's own phases now."""
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


def upgraded(old: dict[str, Any]) -> dict[str, Any]:
    """A room the old version wrote, as this version loads and writes it."""
    return parse_room(json.dumps(old)).model_dump(mode="json")


def check_upgrade(old: dict[str, Any]) -> None:
    """The upgrade moves the game's own settings out of the table's and its state out of the
    room's and the seats' fields (a running game's phase too: the room's is "playing"), keeps
    the rest, and loads again as it is."""
    new = upgraded(old)
    assert new["game_settings"] == {k: v for k, v in old["settings"].items() if k in OWN}
    assert new["settings"] == {k: v for k, v in old["settings"].items() if k not in OWN}
    assert not ROOM_FIELDS & new.keys()
    assert [{k: v for k, v in s.items() if k not in SEAT_FIELDS} for s in old["seats"]] == [
        s for s in new["seats"]
    ]
    if old["phase"] == "lobby":
        assert new["play"] is None and new["phase"] == "lobby"
    else:
        play = new["play"]
        assert play["phase"] == old["phase"]
        assert new["phase"] == ("playing" if old["phase"] in RUNNING else old["phase"])
        assert {k: play[k] for k in ROOM_FIELDS} == {k: old[k] for k in ROOM_FIELDS}
        assert play["seats"] == [{k: s[k] for k in SEAT_FIELDS} for s in old["seats"]]
    moved = {"settings", "seats", "game_settings", "play", "phase", *ROOM_FIELDS}
    assert {k: v for k, v in new.items() if k not in moved} == {
        k: v for k, v in old.items() if k not in moved
    }
    assert upgraded(new) == new


def replay(data: dict[str, Any]) -> Room:
    """Load the stored room and play it on with the stored commands, checking every event."""
    check_upgrade(data["room"])
    check_upgrade(data["final"])
    room = parse_room(json.dumps(data["room"]))
    assert room.game == "hintrigue" and isinstance(room.game_settings, Settings)
    assert len(data["commands"]) == len(data["events"])
    now = data["now"]
    for step, (raw, expected) in enumerate(zip(data["commands"], data["events"], strict=True)):
        command = COMMAND_ADAPTER.validate_python(raw)
        assert command.model_dump(mode="json") == raw, step
        now = at(room, command, now)
        room, events = apply(room, command, now)
        assert [e.model_dump(mode="json") for e in events] == expected, step
    assert room.model_dump(mode="json") == upgraded(data["final"])
    return room


def test_a_stored_lobby_with_an_ai_seat_starts_and_plays_to_the_same_end() -> None:
    data = stored("lobby")
    room = parse_room(json.dumps(data["room"]))
    assert room.phase is TablePhase.LOBBY and len(room.seats) == 4 and len(room.ai_seats()) == 1
    assert (settings_of(room).rotations, settings_of(room).hint_s) == (1, 60)
    assert COMMAND_ADAPTER.validate_python(data["commands"][0]) == StartGame(user_id=room.creator)
    assert replay(data).phase is TablePhase.FINISHED


def test_a_stored_game_mid_vote_with_a_late_joiner_plays_to_the_same_end() -> None:
    data = stored("voting")
    room = parse_room(json.dumps(data["room"]))
    assert phase_of(room) is Phase.VOTING and round_of(room) is not None
    assert (round_of(room).no, len(round_of(room).votes)) == (2, 1)
    assert len(room.seats) == 5 and 4 not in round_of(room).participants
    assert replay(data).phase is TablePhase.FINISHED


def test_a_stored_finished_game_loads_and_dumps_as_it_was() -> None:
    data = stored("finished")
    assert data["commands"] == data["events"] == [] and data["final"] == data["room"]
    room = replay(data)
    assert room.phase is TablePhase.FINISHED and room.end_reason == "finished"
    assert round_of(room) is not None and round_of(room).skipped == [Phase.DECOYS]
    assert [s.status for s in room.seats].count(SeatStatus.LEFT) == 1
    assert [s.missed_hints for s in own_seats(room)].count(1) == 1
