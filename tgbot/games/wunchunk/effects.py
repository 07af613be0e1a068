"""What Wunchunk's events change on screen: the messages to send or edit, in order."""

from __future__ import annotations

from typing import Any

from engine.games.wunchunk import events as own
from engine.games.wunchunk.board import geometry
from engine.games.wunchunk.table import state_of
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing
from tgbot.games import common
from tgbot.games.wunchunk import render as wu
from tgbot.table import render
from tgbot.table.effects import game_over
from tgbot.table.render import Look
from tgbot.table.render.private import CLOSED_REASONS


def messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    """The messages one event of a game of Wunchunk touches."""
    shared = common.table_messages(room, event, look, wu.waiting_prompt)
    if shared is not None:
        return shared
    if isinstance(event, own.GameStarted):
        return [render.lobby(room, look)]
    if isinstance(event, own.TurnStarted):
        out = [wu.board_message(room, look)]
        if room.seats[event.seat].status is SeatStatus.PLAYING:
            out.append(wu.turn_dm(room, event.seat, look))
        return out
    if isinstance(event, own.StonesPending | own.StonesUndone):
        return [wu.turn_dm(room, event.seat, look)]
    if isinstance(event, own.TurnPlayed):
        n = state_of(room).size
        return [wu.turn_closed(room, event.seat, event.round_no,
                        wu.played_text(_stones(event.stones, n), n, event.seat))]  # fmt: skip
    if isinstance(event, own.TurnPassed):
        if event.reason == "left":
            return []  # the seat's message was closed as it left
        return [wu.turn_closed(room, event.seat, event.round_no, wu.PASS_REASONS[event.reason])]
    if isinstance(event, own.GameEnded):
        return [wu.board_message(room, look)]
    if isinstance(event, own.SeatSpectating | own.SeatReturned):
        return [wu.spectator_dm(room, event.seat, look)]
    if isinstance(event, own.SeatUnreachable):
        return [wu.unreachable_notice(room, event.seat, look)]
    if isinstance(event, own.SeatLeft):
        out = [render.left_notice(room, event.seat)]
        if event.prompt_round is not None:
            out.append(wu.turn_closed(room, event.seat, event.prompt_round, CLOSED_REASONS["left"]))
        return out
    if isinstance(event, own.GameFinished):  # the board said the end at GameEnded already
        return game_over(room, look, wu.spectator_dm)
    if isinstance(event, own.GameAbandoned):
        return [*_interrupted(room, look), *game_over(room, look, wu.spectator_dm)]
    return []


def _stones(stones: list[Any], n: int) -> list[Any]:
    """An event's stones as (cell, colour), whatever JSON made of the cells."""
    cells = geometry(n).index
    return [(tuple(cell), colour) for cell, colour in stones if tuple(cell) in cells]


def _interrupted(room: Room, look: Look) -> list[Outgoing]:
    """The board as the game ended, and the turn message of the seat on turn closed."""
    state = state_of(room)
    out = [wu.board_message(room, look)]
    rnd = state.round
    if rnd is not None and room.seats[rnd.seat].status is not SeatStatus.LEFT:
        out.append(wu.turn_closed(room, rnd.seat, rnd.no, CLOSED_REASONS["ended"]))
    return out
