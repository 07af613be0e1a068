"""What Hues and Cues' events change on screen: the messages to send or edit, in order."""

from __future__ import annotations

from typing import Any

from engine.games.huescues import events as own
from engine.games.huescues.model import GUESS_PHASES, Phase
from engine.games.huescues.table import state_of
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing, settling
from tgbot.games import common
from tgbot.games.huescues import render as hc
from tgbot.table import render
from tgbot.table.effects import game_over
from tgbot.table.render import Look


def messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    """The messages one event of a game of Hues and Cues touches."""
    shared = common.table_messages(room, event, look, hc.waiting_prompt)
    if shared is not None:
        return shared
    if isinstance(event, own.GameStarted):
        return [render.lobby(room, look)]
    if isinstance(event, own.TieBreak):
        return [hc.tie_break_notice(room, event.tied, event.extra)]
    if isinstance(event, own.RoundStarted):
        return _round(room, look)
    if isinstance(event, own.ColourChosen):
        return [hc.giver_dm(room, event.seat, look)]
    if isinstance(event, own.CueGiven):
        state = state_of(room)
        rnd = state.round
        assert rnd is not None
        out = [hc.board_message(room, look), hc.giver_dm(room, rnd.giver, look)]
        if state.phase in GUESS_PHASES:  # a new prompt for each guess, at the chat's bottom
            out += [hc.guesser_dm(room, i, look) for i in state.guessers()]
        return out
    if isinstance(event, own.CellChosen):
        return [hc.guesser_dm(room, event.seat, look)]
    if isinstance(event, own.ConeConfirmed):
        return [
            hc.guesser_dm(room, event.seat, look),
            settling(hc.board_message(room, look), look.now),
        ]
    if isinstance(event, own.GuessClosed):  # their prompts still show buttons
        return [
            *(hc.guesser_dm(room, i, look, unconfirmed=True) for i in event.unconfirmed),
            *(hc.guesser_dm(room, i, look) for i in event.missing),
        ]
    if isinstance(event, own.FirstConesShown):
        state = state_of(room)
        rnd = state.round
        assert rnd is not None
        out = [hc.board_message(room, look)]
        if state.phase is Phase.SECOND_CUE:
            out.append(hc.giver_dm(room, rnd.giver, look))
        return out
    if isinstance(event, own.SecondCueSkipped):
        rnd = state_of(room).round
        assert rnd is not None
        return [hc.board_message(room, look), hc.giver_dm(room, rnd.giver, look)]
    if isinstance(event, own.RoundScored):
        return [
            hc.board_message(room, look),
            hc.reveal(room, look),
            hc.points_message(room, look),
        ]
    if isinstance(event, own.RoundVoided):
        return [
            hc.void_message(room, event.round_no, event.giver, event.reason),
            hc.void_prompt(room, event.giver, event.round_no, event.reason),
        ]
    if isinstance(event, own.SeatSpectating | own.SeatReturned):
        return [hc.spectator_dm(room, event.seat, look)]
    if isinstance(event, own.SeatUnreachable):
        return [hc.unreachable_notice(room, event.seat, look)]
    if isinstance(event, own.SeatLeft):
        out = [render.left_notice(room, event.seat)]
        if event.prompt_round is not None:
            second = _second_prompt(room, event.seat)
            out.append(hc.closed(room, event.seat, event.prompt_round, "left", second))
        if state_of(room).phase in (Phase.CUE, *GUESS_PHASES, Phase.SECOND_CUE):
            out.append(hc.board_message(room, look))
        return out
    if isinstance(event, own.GameFinished):
        return [*_settled(room, look), *game_over(room, look, hc.spectator_dm)]
    if isinstance(event, own.GameAbandoned):
        return [*_interrupted(room, event, look), *game_over(room, look, hc.spectator_dm)]
    return []


def _round(room: Room, look: Look) -> list[Outgoing]:
    """A new round: its board message, and the cue giver's prompt."""
    rnd = state_of(room).round
    assert rnd is not None
    return [hc.board_message(room, look), hc.giver_dm(room, rnd.giver, look)]


def _settled(room: Room, look: Look) -> list[Outgoing]:
    """The last round's points without their countdown, once the game ended after it."""
    rnd = state_of(room).round
    if rnd is None or rnd.points is None:
        return []
    return [hc.points_message(room, look, settled=True)]


def _interrupted(room: Room, event: own.GameAbandoned, look: Look) -> list[Outgoing]:
    """Close the messages of the round a game ended in: no button of it stays."""
    state = state_of(room)
    rnd = state.round
    if rnd is None:
        return []
    if event.interrupted == Phase.REVEAL.value:
        return _settled(room, look)
    out = [hc.board_message(room, look)]
    if event.interrupted in (Phase.CUE.value, Phase.SECOND_CUE.value):
        prompted = [rnd.giver]
    else:
        prompted = [i for i in rnd.participants if i != rnd.giver]
    out += [
        hc.closed(room, i, rnd.no, "ended", _second_prompt(room, i))
        for i in prompted
        if room.seats[i].status is not SeatStatus.LEFT
    ]
    return out


def _second_prompt(room: Room, index: int) -> bool:
    """Whether a seat's open prompt of the round is its second one (cue or guess)."""
    state = state_of(room)
    rnd = state.round
    if rnd is None:
        return False
    if index == rnd.giver:
        return hc.second_reached(state)
    return len(rnd.cues) == 2
