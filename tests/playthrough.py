"""What the seeded random games of Guess What! and Hues and Cues share: the seat a random
command comes from, and the table's commands a player or a timer might send at any moment,
legal or not."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any


def random_user(state: Any, rnd: random.Random) -> int:
    """A user id: mostly of a seat the game waits on, sometimes of anybody, or of nobody
    seated."""
    waiting = state.waiting_for()
    if waiting and rnd.random() < 0.6:
        seat = rnd.choice(waiting)
    else:
        seat = rnd.randrange(len(state.seats) + 1)
    return state.seats[seat].user_id if seat < len(state.seats) else 7_000 + rnd.randrange(9)


def table_command(state: Any, rnd: random.Random, now: float, commands: ModuleType, uid: int,
                  number: int, roll: float) -> tuple[Any, float] | None:  # fmt: skip
    """For a `roll` below 0.151: a timeout, or one of the table's commands from the game's
    `commands` module (skip, leave, join, come back, out of reach, stop), and its time; None
    for a higher roll."""
    if roll < 0.08:
        at = state.deadline if state.deadline is not None else now
        at -= rnd.random() < 0.1
        phase = state.phase if rnd.random() < 0.9 else rnd.choice(list(type(state.phase)))
        return commands.Timeout(round_no=number, phase=phase), max(now, at)
    if roll < 0.10:
        admin = rnd.random() < 0.3
        return commands.Skip(user_id=state.host if rnd.random() < 0.7 else uid,
                             is_admin=admin), now  # fmt: skip
    if roll < 0.11:
        return commands.Leave(user_id=uid), now
    if roll < 0.13:
        return commands.Join(user_id=8_000 + rnd.randrange(12), name="late"), now
    if roll < 0.14:
        return commands.ComeBack(user_id=uid), now
    if roll < 0.15:
        return commands.MarkUnreachable(user_id=uid, round_no=number, phase=state.phase), now
    if roll < 0.151:
        return commands.StopGame(user_id=uid, is_admin=rnd.random() < 0.5), now
    return None
