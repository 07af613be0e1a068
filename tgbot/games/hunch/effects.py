"""What Hunch!'s events change on screen: the messages to send or edit, in order. Progress
edits of a phase's group message (a secret chosen, a clue written, a bid, a hunch placed)
settle: delivery shows the newest after a few seconds, so an auction's message is edited at
most once every few seconds however fast the bids come."""

from __future__ import annotations

from typing import Any

from engine.games.hunch import events as own
from engine.games.hunch.model import Phase
from engine.games.hunch.table import state_of
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Outgoing, settling
from tgbot.games import common
from tgbot.games.hunch import group, prompts, reveal, trading
from tgbot.games.hunch.hunches import hunch_dm
from tgbot.games.hunch.private import bargain_dm, clues_dm, place_dm, secrets_dm
from tgbot.table import render
from tgbot.table.effects import game_over
from tgbot.table.render import Look


def messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    """The messages one event of a game of Hunch! touches."""
    shared = common.table_messages(room, event, look, prompts.waiting_prompt)
    if shared is not None:
        return shared
    for kinds, show in _SHOWN:
        if isinstance(event, kinds):
            return show(room, event, look)
    return []


def _players(room: Room) -> list[int]:
    return [i for i, seat in enumerate(room.seats) if seat.status is not SeatStatus.LEFT]


def _started(room: Room, event: Any, look: Look) -> list[Outgoing]:
    return [render.lobby(room, look), group.secrets_message(room, look)]


def _chosen(room: Room, event: own.SecretChosen, look: Look) -> list[Outgoing]:
    out = [secrets_dm(room, event.seat, look)]
    if not event.auto:
        out.append(settling(group.secrets_message(room, look), look.now))
    return out


def _matrix(room: Room, event: own.MatrixShown, look: Look) -> list[Outgoing]:
    return [group.secrets_message(room, look, event.auto),
            *(secrets_dm(room, i, look) for i in _players(room))]  # fmt: skip


def _clue_written(room: Room, event: Any, look: Look) -> list[Outgoing]:
    out = [clues_dm(room, event.seat, look)]
    if isinstance(event, own.ClueWritten) and state_of(room).phase is Phase.CLUES:
        out.append(settling(group.round_message(room, look), look.now))
    return out


def _clues_shown(room: Room, event: own.CluesShown, look: Look) -> list[Outgoing]:
    # A seat that wrote a clue has its message (sent again below its text, when typed last);
    # any other is only edited, if it had one.
    wrote = {clue.writer for clue in event.clues}
    closed = [clues_dm(room, i, look).model_copy(update={"edit_only": i not in wrote})
              for i in _players(room)]  # fmt: skip
    return [group.round_message(room, look), *closed, group.clues_message(room, look)]


def _auction(room: Room, event: Any, look: Look) -> list[Outgoing]:
    message = trading.auction_message(room, look)
    if message is None:
        return []
    state = state_of(room)
    if isinstance(event, own.AuctionStarted):
        current = state.auction is not None and state.auction.seller == event.seller
        return [message] if current else []
    out = [settling(message, look.now)]
    if isinstance(event, own.AuctionWon):
        out.append(place_dm(room, event.buyer, look))
    return out


def _passed(room: Room, event: own.BidPassed, look: Look) -> list[Outgoing]:
    return _auction(room, event, look) if event.reason == "left" else []


def _unsold(room: Room, event: own.AuctionUnsold, look: Look) -> list[Outgoing]:
    game_round = state_of(room).game_round
    return [settling(trading.auction_closed(room, look, game_round, event.seller, None),
                     look.now)]  # fmt: skip


def _placed(room: Room, event: own.CluePlaced, look: Look) -> list[Outgoing]:
    state = state_of(room)
    clue = state.clue(event.clue)
    if clue is None:
        return []
    done = prompts.placed_text(room, event, clue)
    if event.how == "kept":
        return [settling(trading.bargain_message(room, look), look.now),
                bargain_dm(room, event.seat, look, done)]  # fmt: skip
    closed = trading.auction_closed(room, look, clue.round, clue.writer, event)
    return [settling(closed, look.now), place_dm(room, event.seat, look, clue.writer, done)]


def _bargain_turn(room: Room, event: own.BargainTurn, look: Look) -> list[Outgoing]:
    return [settling(trading.bargain_message(room, look), look.now),
            bargain_dm(room, event.seat, look)]  # fmt: skip


def _bargained(room: Room, event: Any, look: Look) -> list[Outgoing]:
    done = prompts.bargain_text(event)
    return [settling(trading.bargain_message(room, look), look.now),
            bargain_dm(room, event.seat, look, done)]  # fmt: skip


def _new_start(room: Room, event: Any, look: Look) -> list[Outgoing]:
    return [trading.bargain_message(room, look)]


def _hunch_phase(room: Room, event: own.HunchPhaseStarted, look: Look) -> list[Outgoing]:
    prompted = [hunch_dm(room, i, look) for i, n in enumerate(event.hunches) if n > 0
                and room.seats[i].status is not SeatStatus.LEFT]  # fmt: skip
    return [group.hunch_message(room, look, event.game_round), *prompted]


def _hunch_placed(room: Room, event: own.HunchPlaced, look: Look) -> list[Outgoing]:
    return [hunch_dm(room, event.seat, look), settling(group.hunch_message(room, look), look.now)]


def _revealed(room: Room, event: own.HunchesRevealed, look: Look) -> list[Outgoing]:
    closed = [hunch_dm(room, i, look).model_copy(update={"edit_only": True})
              for i in _players(room)]  # fmt: skip
    return [group.hunch_message(room, look, event.game_round), *closed,
            *reveal.reveal(room, look)]  # fmt: skip


def _round(room: Room, event: own.CluePhaseStarted, look: Look) -> list[Outgoing]:
    return [group.round_message(room, look, event.game_round)]


def _finished(room: Room, event: Any, look: Look) -> list[Outgoing]:
    settled = reveal.reveal(room, look, settled=True) if state_of(room).revealed else []
    return [*settled, *game_over(room, look, prompts.spectator_dm)]


def _abandoned(room: Room, event: own.GameAbandoned, look: Look) -> list[Outgoing]:
    closed = prompts.close_prompts(room, event.interrupted, "ended")
    return [*prompts.phase_messages(room, look, event.interrupted), *closed,
            *game_over(room, look, prompts.spectator_dm)]  # fmt: skip


def _left(room: Room, event: own.SeatLeft, look: Look) -> list[Outgoing]:
    out = [render.left_notice(room, event.seat)]
    if event.prompt_round is not None:
        out += prompts.close_prompts(room, state_of(room).phase.value, "left", [event.seat])
    return [*out, *prompts.phase_messages(room, look)]


def _away(room: Room, event: Any, look: Look) -> list[Outgoing]:
    return [prompts.spectator_dm(room, event.seat, look)]


def _unreachable(room: Room, event: own.SeatUnreachable, look: Look) -> list[Outgoing]:
    return [prompts.unreachable_notice(room, event.seat, look)]


_SHOWN: tuple[tuple[Any, Any], ...] = (
    (own.GameStarted, _started),
    (own.SecretsDealt, lambda room, event, look: [secrets_dm(room, event.seat, look)]),
    (own.SecretChosen, _chosen),
    (own.MatrixShown, _matrix),
    (own.ClueCardsDrawn | own.ClueWritten, _clue_written),
    (own.CluePhaseStarted, _round),
    (own.CluesShown, _clues_shown),
    (own.AuctionStarted | own.BidderUp | own.AuctionWon, _auction),
    (own.BidPassed, _passed),
    (own.AuctionUnsold, _unsold),
    (own.CluePlaced, _placed),
    (own.BargainTurn, _bargain_turn),
    (own.CoinsTaken | own.HunchBought | own.SecretMarkedEasy, _bargained),
    (own.StartingPlayerChosen, _new_start),
    (own.HunchPhaseStarted, _hunch_phase),
    (own.HunchPlaced, _hunch_placed),
    (own.HunchesRevealed, _revealed),
    (own.GameFinished, _finished),
    (own.GameAbandoned, _abandoned),
    (own.SeatLeft, _left),
    (own.SeatSpectating | own.SeatReturned, _away),
    (own.SeatUnreachable, _unreachable),
)
"""Each kind of event and the messages it touches (the events not named touch none: a bid
made or a seller skipped shows in the message of what follows it)."""
