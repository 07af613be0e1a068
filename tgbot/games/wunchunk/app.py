"""Wunchunk in the board app: the hexhex board with its stones (the last turn's marked), the
turn being built (its seat only), the stones left to place; a tap on an empty cell places a
stone of the colour chosen, a tap on a pending stone changes its colour (past the last
colour, takes it back), Undo and End turn (or Pass) as in the chat (`wput`, `wrem`, `wund`,
`wend`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.model import Phase
from engine.games.wunchunk.table import state_of
from engine.games.wunchunk.views import group_view, seat_view
from engine.model import Room, SeatStatus
from tgbot.games.wunchunk import render
from tgbot.games.wunchunk.pictures import COLOURS
from tgbot.i18n import _
from tgbot.table.render.common import Look
from tgbot.webapp.board import BadTap, BoardApp, Press, plain

ROOT3 = math.sqrt(3)


def _cells(n: int) -> list[list[Any]]:
    """Each cell by number: its centre (a hexagon's width is √3 units, pointy-top, row a at
    the bottom, as the picture draws it) and its name."""
    geometry = hexes.geometry(n)
    return [[round(ROOT3 * (q + r / 2), 3), round(1.5 * r, 3), name]
            for (q, r, _), name in zip(geometry.cells, geometry.names, strict=True)]  # fmt: skip


def view(room: Room, index: int | None, look: Look) -> dict[str, Any]:
    """The board as the seat (or a watcher: the group) may see it now."""
    state = state_of(room)
    geometry = hexes.geometry(state.size)
    group = group_view(state)
    last = {geometry.index[cell] for cell, _ in group.last}
    stones = [[geometry.index[cell], colour, "last" if geometry.index[cell] in last else ""]
              for cell, colour in group.stones]  # fmt: skip
    shown: dict[str, Any] = {
        "size": state.size, "cells": _cells(state.size),
        "colours": ["#{:02x}{:02x}{:02x}".format(*COLOURS[i % len(COLOURS)])
                    for i in range(len(room.seats))],
        "names": [seat.name for seat in room.seats], "turn": group.turn,
        "own": index, "can": None, "allotment": 0, "placed": 0,
        "deadline": group.deadline, "now": look.now,
        "words": {"undo": _("↩️ Undo"), "end": _("✅ End turn"), "pass": _("⏭ Pass")},
    }  # fmt: skip
    mine = index is not None and group.turn == index and state.phase is Phase.TURN
    if mine and room.seats[index].status is not SeatStatus.LEFT and state.round is not None:
        assert index is not None
        pending = seat_view(state, index).pending
        stones += [[geometry.index[cell], colour, "pending"] for cell, colour in pending]
        shown.update(can="place", allotment=group.allotment, placed=len(pending),
                     text=plain(render.turn_dm(room, index, look, app=True).text))  # fmt: skip
    else:
        shown["text"] = plain(render.board_message(room, look).text)
    return {**shown, "stones": stones}


def press(room: Room, index: int, tap: Mapping[str, Any]) -> list[Press]:
    """The buttons a tap stands for."""
    state = state_of(room)
    rnd = state.round
    if rnd is None:
        raise BadTap("no turn")
    head = (room.chat_id, rnd.no)
    tail = (room.game_id, *((room.topic,) if room.topic else ()))
    action = tap.get("do")
    if action == "undo":
        return [("wund", (*head, *tail))]
    if action == "end":
        return [("wend", (*head, *tail))]
    number = tap.get("cell")
    if not isinstance(number, int) or not 0 <= number < hexes.geometry(state.size).size:
        raise BadTap("no such cell")
    if action == "place":
        colour = tap.get("colour")
        if not isinstance(colour, int) or not 0 <= colour < len(state.seats):
            raise BadTap("no such colour")
        return [("wput", (*head, colour, number, *tail))]
    if action == "recolour":
        pending = dict(rnd.pending) if rnd.seat == index else {}
        if number not in pending:
            raise BadTap("no pending stone there")
        following = pending[number] + 1
        back = ("wrem", (*head, number, *tail))
        if following >= len(state.seats):
            return [back]
        return [back, ("wput", (*head, following, number, *tail))]
    raise BadTap("no such action")


APP = BoardApp(view=view, press=press, script=resources.files(__package__).joinpath("app.js"))
