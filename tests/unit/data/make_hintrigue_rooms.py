"""Write Hintrigue rooms as this version stores them, each with every command and event that
plays it on to its end (tests/unit/hintrigue/test_stored_hintrigue.py replays them).

Run: .venv/bin/python tests/unit/data/make_hintrigue_rooms.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.commands import (
    AddAI,
    ChangeSettings,
    ChooseLanguage,
    Command,
    GiveHint,
    Join,
    Leave,
    Skip,
    StartGame,
    Timeout,
)
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.model import OVER_PHASES, Phase, Room, SeatStatus
from tests.builders import a_room, user
from tests.table import apply

DATA = Path(__file__).parent
TICK = 1.0
"""Seconds between two moves of the players (a timer fires at its deadline)."""
HINT = "a lighthouse at dawn"

Moves = Callable[[Room], Command]


def at(room: Room, command: Command, now: float) -> float:
    """When a command comes: a timer at the room's deadline, a move a tick after `now`."""
    if isinstance(command, Timeout):
        assert room.deadline is not None
        return room.deadline
    return now + TICK


def next_move(room: Room) -> Command:
    """The next move: the host starts, everyone plays its first card, a reveal times out."""
    if room.phase is Phase.LOBBY:
        return StartGame(user_id=room.creator)
    rnd = room.round
    assert rnd is not None
    teller = room.seats[rnd.storyteller]
    if room.phase is Phase.HINT:
        if rnd.chosen is None:
            return ChooseCard(user_id=teller.user_id, card=teller.hand[0])
        return GiveHint(user_id=teller.user_id, text=HINT)
    others = [
        i
        for i in rnd.participants
        if i != rnd.storyteller and room.seats[i].status is not SeatStatus.LEFT
    ]
    if room.phase is Phase.DECOYS:
        seat = next(i for i in others if i not in rnd.plays)
        return PlayDecoy(user_id=room.seats[seat].user_id, card=room.seats[seat].hand[0])
    if room.phase is Phase.VOTING:
        seat = next(i for i in others if i not in rnd.votes)
        card = next(c for c in rnd.table if c != rnd.plays[seat])
        return Vote(user_id=room.seats[seat].user_id, card=card)
    return Timeout(round_no=rnd.no, phase=room.phase.value)


def play(room: Room, now: float, moves: Moves, until: Callable[[Room], bool]) -> tuple[Room, float]:
    """Play `moves` until `until` holds for the room."""
    while not until(room):
        command = moves(room)
        now = at(room, command, now)
        room, _ = apply(room, command, now)
    return room, now


def over(room: Room) -> bool:
    """Whether the game has ended."""
    return room.phase in OVER_PHASES


def stored(room: Room, now: float, moves: Moves = next_move) -> dict[str, Any]:
    """A room as stored, with every command and event that plays it on to its end."""
    data: dict[str, Any] = {"room": room.model_dump(mode="json"), "now": now}
    commands: list[dict[str, Any]] = []
    events: list[list[dict[str, Any]]] = []
    while not over(room):
        command = moves(room)
        now = at(room, command, now)
        room, done = apply(room, command, now)
        commands.append(command.model_dump(mode="json"))
        events.append([e.model_dump(mode="json") for e in done])
    return data | {"commands": commands, "events": events, "final": room.model_dump(mode="json")}


def lobby() -> dict[str, Any]:
    """An open lobby of three people and an AI player, its settings changed by its host."""
    game = a_room().with_players(3).with_seed(11).in_lobby()
    game.later(4).do(AddAI(user_id=user(0)))
    game.later(3).do(ChangeSettings(user_id=user(0), changes={"rotations": 1, "hint_s": 60}))
    game.later(2).do(ChooseLanguage(user_id=user(2), language="it"))
    assert game.room.phase is Phase.LOBBY and len(game.room.ai_seats()) == 1
    return stored(game.room, game.now)


def voting() -> dict[str, Any]:
    """A game of four mid-vote in round 2, one vote cast, a fifth player seated late."""
    game = a_room().with_players(4).with_seed(5).in_hint()

    def moves(room: Room) -> Command:
        assert room.round is not None
        if room.round.no == 2 and room.phase is Phase.DECOYS and len(room.seats) == 4:
            return Join(user_id=user(4), name="P4", username="late_p4")
        return next_move(room)

    def mid_vote(room: Room) -> bool:
        rnd = room.round
        voting = room.phase is Phase.VOTING
        return voting and rnd is not None and rnd.no == 2 and len(rnd.votes) == 1

    room, now = play(game.room, game.now, moves, mid_vote)
    assert len(room.seats) == 5 and 4 not in room.round.participants  # type: ignore[union-attr]
    return stored(room, now)


def twists(room: Room) -> Command:
    """A game off the plain path: a missed hint, a player who leaves, a skipped phase."""
    rnd = room.round
    if rnd is not None and rnd.no == 2 and room.phase is Phase.HINT:
        return Timeout(round_no=2, phase=Phase.HINT.value)
    if rnd is not None and rnd.last and room.phase is Phase.DECOYS and len(rnd.plays) == 2:
        return Skip(user_id=room.creator)
    if (
        rnd is not None
        and rnd.no == 4
        and room.phase is Phase.HINT
        and not any(s.status is SeatStatus.LEFT for s in room.seats)
    ):
        leaver = next(i for i in rnd.participants if i not in (rnd.storyteller, 0))
        return Leave(user_id=room.seats[leaver].user_id)
    return next_move(room)


def finished() -> dict[str, Any]:
    """A finished game of five with a missed hint, a skipped phase and a player who left."""
    game = a_room().with_players(5).with_seed(23).in_lobby()
    game.later(2).do(ChangeSettings(user_id=user(0), changes={"rotations": 1}))
    room, now = play(game.room, game.later(2).now, twists, over)
    assert room.phase is Phase.FINISHED
    assert any(s.status is SeatStatus.LEFT for s in room.seats)
    assert any(s.missed_hints for s in room.seats)
    dump = room.model_dump(mode="json")
    return {"room": dump, "now": now, "commands": [], "events": [], "final": dump}


def main() -> None:
    """Write the three fixtures beside this script."""
    for name, data in (("lobby", lobby()), ("voting", voting()), ("finished", finished())):
        path = DATA / f"hintrigue_{name}.json"
        path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"{path.name}: {len(data['commands'])} commands, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
