"""What Hintrigue's events change on screen: the messages to send or edit, in order."""

from __future__ import annotations

from engine.events import AnyEvent, LanguageChosen, PlayerJoined
from engine.games.hintrigue.events import (
    CardChosen,
    DecoyPlayed,
    GameAbandoned,
    GameFinished,
    GameStarted,
    HintGiven,
    RoundScored,
    RoundStarted,
    RoundVoided,
    SeatLeft,
    SeatReturned,
    SeatSpectating,
    SeatUnreachable,
    VoteCast,
    VotingOpened,
)
from engine.games.hintrigue.game import GAME as HINTRIGUE
from engine.games.hintrigue.model import Phase, phase_of, round_of
from engine.model import Phase as TablePhase
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing, settling
from tgbot.games.hintrigue import group, private
from tgbot.table import render
from tgbot.table.effects import game_over
from tgbot.table.render import Look


def messages(
    room: Room, event: AnyEvent, look: Look, settings_mode: bool
) -> list[Outgoing]:
    """The messages one event of a game of Hintrigue touches."""
    rnd = round_of(room)
    if isinstance(event, GameStarted):  # the table showed the lobby's other events
        return [render.lobby(room, look, settings_mode), *_round_start(room, look)]
    if isinstance(event, PlayerJoined):
        return [render.late_join_notice(room, event.seat)]
    if isinstance(event, RoundStarted):
        # The reveal's "Next round in …" is left as it is: the round's message follows it.
        return _round_start(room, look)
    if isinstance(event, CardChosen):
        # The press's answer names the card; the prompt keeps its buttons, for a change of
        # mind, and is re-sent with the card marked by /start.
        return []
    if isinstance(event, HintGiven) and rnd is not None:
        decoys = [
            i
            for i in rnd.participants
            if i != rnd.storyteller and room.seats[i].status is not SeatStatus.LEFT
        ]
        # The answer below the typed hint closes the storyteller's prompt: a card pressed
        # there now is refused, saying why.
        return [
            group.round_message(room, look),
            private.hint_given(room, rnd.storyteller, rnd),
            *(private.decoy_dm(room, i, look) for i in decoys),
        ]
    if isinstance(event, DecoyPlayed):
        # A decoy pressed is confirmed by the press's answer and a second press is refused:
        # its prompt is edited only when the decoy was chosen for the player.
        return [
            *([private.decoy_dm(room, event.seat, look)] if event.auto else []),
            settling(group.round_message(room, look), look.now),
        ]
    if isinstance(event, VotingOpened):
        return [group.round_message(room, look), group.table(room, look)]
    if isinstance(event, VoteCast):
        return [settling(group.table(room, look), look.now)]
    if isinstance(event, RoundScored) and rnd is not None:
        # The table turns into the reveal. The round's message keeps "vote below": the
        # reveal below it says the rest. The answer to the hint is followed by the next
        # round's prompt (closed when the game ends).
        return [group.reveal(room, look)]
    if isinstance(event, RoundVoided):
        return [
            group.void_message(room, event.round_no, event.storyteller, event.reason),
            *(
                private.void_prompt(room, i, event.round_no, event.storyteller, event.reason)
                for i in event.prompted
            ),
        ]
    if isinstance(event, LanguageChosen):
        # The prompt the player has open now speaks their new language.
        prompt = private.waiting_prompt(room, event.seat, look)
        return [prompt] if prompt is not None else []
    if isinstance(event, SeatSpectating | SeatReturned):
        return [render.spectator_dm(room, event.seat, look)]
    if isinstance(event, SeatUnreachable):
        return [render.unreachable_notice(room, event.seat, look)]
    if isinstance(event, SeatLeft):
        # Said first: leaving may close the vote, or end the game.
        closed = [render.left_notice(room, event.seat)] + (
            [render.closed_prompt(room, event.seat, event.prompt_round, "left", HINTRIGUE.title)]
            if event.prompt_round is not None
            else []
        )
        if rnd is not None and room.phase is not TablePhase.ABANDONED:
            return closed + _phase_messages(room, look)
        return closed
    if isinstance(event, GameFinished):
        return [*_settled_reveal(room, look), *_hint_answer_closed(room),
                *game_over(room, look, render.spectator_dm)]  # fmt: skip
    if isinstance(event, GameAbandoned):
        return _interrupted(room, event, look) + game_over(room, look, render.spectator_dm)
    return []


def _round_start(room: Room, look: Look) -> list[Outgoing]:
    rnd = round_of(room)
    if rnd is None or phase_of(room) is not Phase.HINT:
        return []
    return [group.round_message(room, look), private.storyteller_dm(room, rnd.storyteller, look)]


def _settled_reveal(room: Room, look: Look) -> list[Outgoing]:
    """The current round's reveal without its countdown, once the game ended after it."""
    rnd = round_of(room)
    if rnd is None or rnd.points is None:
        return []
    return [group.reveal(room, look, rnd, settled=True)]


def _interrupted(room: Room, event: GameAbandoned, look: Look) -> list[Outgoing]:
    """Close the messages of the round a game ended in: no button of it stays."""
    rnd = round_of(room)
    if rnd is None:
        return []
    if event.interrupted == Phase.REVEAL.value:
        return _settled_reveal(room, look) + _hint_answer_closed(room)
    out = [group.round_message(room, look)]
    if event.interrupted == Phase.VOTING.value:
        out.append(group.table(room, look))
    # Once the hint was given, every player of the round has a private message of it.
    closing = event.prompted
    if event.interrupted in (Phase.DECOYS.value, Phase.VOTING.value):
        closing = [i for i in rnd.participants if room.seats[i].status is not SeatStatus.LEFT]
    out += [render.closed_prompt(room, i, rnd.no, "ended", HINTRIGUE.title) for i in closing]
    return out + _hint_answer_closed(room)


def _hint_answer_closed(room: Room) -> list[Outgoing]:
    """The answer to the last round's hint, which no next round's prompt follows, closed."""
    rnd = round_of(room)
    if rnd is None or rnd.hint is None:
        return []
    return [private.hint_given_closed(room, rnd.storyteller, rnd)]


def _phase_messages(room: Room, look: Look) -> list[Outgoing]:
    """Refresh the current phase's group message (someone left)."""
    if phase_of(room) is Phase.VOTING:
        return [group.table(room, look)]
    if phase_of(room) in (Phase.HINT, Phase.DECOYS):
        return [group.round_message(room, look)]
    return []
