"""What Guess What!'s events change on screen: the messages to send or edit, in order."""

from __future__ import annotations

from typing import Any

from engine.games.guesswhat import events as own
from engine.games.guesswhat.model import Phase
from engine.games.guesswhat.table import GAME, state_of
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing, settling
from tgbot.games import common
from tgbot.games.guesswhat import render as gw
from tgbot.table import render
from tgbot.table.effects import game_over
from tgbot.table.render import Look


def messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    """The messages one event of a game of Guess What! touches."""
    shared = common.table_messages(room, event, look, gw.waiting_prompt)
    if shared is not None:
        return shared
    if isinstance(event, own.GameStarted):
        return [render.lobby(room, look)]
    if isinstance(event, own.RoundStarted):
        return _turn(room, look)
    if isinstance(event, own.IconPicked):
        return [gw.active_dm(room, event.seat, look)]
    if isinstance(event, own.BoardRedrawn):
        return [gw.board_message(room, look), *_turn_prompt(room, look)]
    if isinstance(event, own.ClueGiven):
        state = state_of(room)
        rnd = state.round
        assert rnd is not None
        return [
            gw.board_message(room, look),
            gw.active_dm(room, rnd.active, look),
            *(gw.guesser_dm(room, i, look) for i in state.guessers()),
        ]
    if isinstance(event, own.GuessPicked):
        return [gw.guesser_dm(room, event.seat, look)]
    if isinstance(event, own.GuessConfirmed):
        return [
            gw.guesser_dm(room, event.seat, look),
            settling(gw.board_message(room, look), look.now),
        ]
    if isinstance(event, own.RoundScored):
        state = state_of(room)
        rnd = state.round
        assert rnd is not None
        unconfirmed = [i for i in state.guessers() if i not in rnd.confirmed]
        return [
            gw.board_message(room, look),
            *(gw.guesser_dm(room, i, look) for i in unconfirmed),
            *gw.reveal(room, look),
        ]
    if isinstance(event, own.RoundVoided):
        return [
            gw.void_message(room, event.round_no, event.active, event.reason),
            gw.void_prompt(room, event.active, event.round_no, event.reason),
        ]
    if isinstance(event, own.SeatSpectating | own.SeatReturned):
        return [gw.spectator_dm(room, event.seat, look)]
    if isinstance(event, own.SeatUnreachable):
        return [gw.unreachable_notice(room, event.seat, look)]
    if isinstance(event, own.SeatLeft):
        out = [render.left_notice(room, event.seat)]
        if event.prompt_round is not None:
            closed = render.closed_prompt(room, event.seat, event.prompt_round, "left", GAME.title)
            out.append(closed)
        if state_of(room).phase in (Phase.CLUE, Phase.GUESS):
            out.append(gw.board_message(room, look))
        return out
    if isinstance(event, own.GameFinished):
        return [*_settled(room, look), *game_over(room, look, gw.spectator_dm)]
    if isinstance(event, own.GameAbandoned):
        return [*_interrupted(room, event, look), *game_over(room, look, gw.spectator_dm)]
    return []


def _turn(room: Room, look: Look) -> list[Outgoing]:
    """A new turn: its board message, and the active player's prompt."""
    return [gw.board_message(room, look), *_turn_prompt(room, look)]


def _turn_prompt(room: Room, look: Look) -> list[Outgoing]:
    rnd = state_of(room).round
    return [gw.active_dm(room, rnd.active, look)] if rnd is not None else []


def _settled(room: Room, look: Look) -> list[Outgoing]:
    """The last turn's reveal without its countdown, once the game ended after it."""
    rnd = state_of(room).round
    if rnd is None or rnd.points is None:
        return []
    return gw.reveal(room, look, settled=True)


def _interrupted(room: Room, event: own.GameAbandoned, look: Look) -> list[Outgoing]:
    """Close the messages of the turn a game ended in: no button of it stays."""
    state = state_of(room)
    rnd = state.round
    if rnd is None:
        return []
    if event.interrupted == Phase.REVEAL.value:
        return _settled(room, look)
    out = [gw.board_message(room, look)]
    prompted = [rnd.active] if event.interrupted == Phase.CLUE.value else [
        i for i in rnd.participants if i != rnd.active
    ]  # fmt: skip
    out += [
        render.closed_prompt(room, i, rnd.no, "ended", GAME.title)
        for i in prompted
        if room.seats[i].status is not SeatStatus.LEFT
    ]
    return out
