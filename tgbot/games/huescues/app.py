"""Hues and Cues in the board app: the board with what the seat may see (the group's cones and
frame, its own card, colour, choice and cones), what a tap does now, and the presses it stands
for (a cell: the guesser's `hcel` or the cue giver's `hcol`; Confirm: `hok`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from engine.games.huescues import board
from engine.games.huescues.model import GUESS_PHASES, Phase
from engine.games.huescues.table import state_of
from engine.games.huescues.views import group_view, seat_view
from engine.model import Room, SeatStatus
from tgbot.games.huescues import render
from tgbot.i18n import _
from tgbot.table.render.common import Look
from tgbot.webapp.board import BadTap, BoardApp, Press, plain


@cache
def _colours() -> list[str]:
    return ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in board.colours()]


def view(room: Room, index: int | None, look: Look) -> dict[str, Any]:
    """The board as the seat (or a watcher: the group) may see it now."""
    state = state_of(room)
    rnd = state.round
    group = group_view(state)
    cones = [{"cell": c, "seat": s, "second": False} for s, c in sorted(group.cones.items())]
    cones += [{"cell": c, "seat": s, "second": True} for s, c in sorted(group.second_cones.items())]
    shown: dict[str, Any] = {
        "rows": board.ROWS, "columns": board.COLUMNS, "colours": _colours(),
        "names": [seat.name for seat in room.seats], "cues": group.cues,
        "frame": group.colour, "card": [], "choice": None, "can": None, "taken": [],
        "confirm": False, "deadline": group.deadline, "now": look.now,
        "words": {"confirm": _("✔️ Confirm"), "change": _("↩️ Change")},
    }  # fmt: skip
    if rnd is None:
        return {**shown, "cones": cones, "text": ""}
    if index is None or index not in rnd.participants:
        return {**shown, "cones": cones, "text": plain(render.board_message(room, look).text)}
    mine = seat_view(state, index)
    seen = {(cone["cell"], cone["second"]) for cone in cones}
    for cell, second in ((mine.cone, False), (mine.second_cone, True)):
        if cell is not None and (cell, second) not in seen:
            cones.append({"cell": cell, "seat": index, "second": second})
    present = room.seats[index].status is not SeatStatus.LEFT
    owes = present and mine.owes_action
    if mine.giver:
        prompt = render.giver_dm(room, index, look, app=True)
        shown.update(card=mine.card, frame=mine.colour, choice=mine.colour)
        if owes and state.phase is Phase.CUE:
            shown["can"] = "colour"
    else:
        prompt = render.guesser_dm(room, index, look, app=True)
        guessing = owes and state.phase in GUESS_PHASES and not mine.confirmed
        shown.update(choice=mine.choice if guessing else None, can="cell" if guessing else None,
                     confirm=guessing and mine.choice is not None)  # fmt: skip
        if guessing and state.phase is Phase.SECOND_GUESS:
            shown["taken"] = sorted(set(mine.first_cones.values()))
    return {**shown, "cones": cones, "text": plain(prompt.text)}


def press(room: Room, index: int, tap: Mapping[str, Any]) -> list[Press]:
    """The button a tap stands for: a cell (a cone not yet final, or the cue giver's colour),
    or Confirm."""
    state = state_of(room)
    rnd = state.round
    if rnd is None:
        raise BadTap("no round")
    fields = (room.chat_id, rnd.no)
    tail = (room.game_id, *((room.topic,) if room.topic else ()))
    action = tap.get("do")
    if action == "confirm":
        return [("hok", (*fields, *tail))]
    cell = tap.get("cell")
    if action != "cell" or not isinstance(cell, int) or not 0 <= cell < board.CELLS:
        raise BadTap("no such cell")
    kind = "hcol" if rnd.giver == index and state.phase is Phase.CUE else "hcel"
    return [(kind, (*fields, cell, *tail))]


APP = BoardApp(view=view, press=press, script=resources.files(__package__).joinpath("app.js"))
