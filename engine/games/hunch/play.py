"""What each phase does when its time runs out (or /skip), when a seat is out of reach, and
when a seat leaves; and the dispatch of the game's own commands."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.hunch import bargain, clues, hunches, setup, trading
from engine.games.hunch.commands import (
    Bid,
    BuyHunch,
    ChooseSecret,
    Command,
    KeepClue,
    MarkEasy,
    PassBid,
    PlaceClue,
    PlaceHunch,
    ReplaceClueCard,
    TakeBackHunch,
    TakeCoins,
    WriteClue,
)
from engine.games.hunch.context import Ctx
from engine.games.hunch.events import SeatLeft, SeatUnreachable
from engine.games.hunch.model import ROUNDS, Phase
from engine.games.hunch.turns import abandon_if_too_few, finish
from engine.model import SeatStatus


def round_action(ctx: Ctx, index: int, command: Command) -> None:
    """One of the game's own commands by a seat."""
    if isinstance(command, ChooseSecret):
        setup.choose(ctx, index, command.card, command.word)
    elif isinstance(command, ReplaceClueCard):
        clues.replace(ctx, index, command.card)
    elif isinstance(command, WriteClue):
        clues.write(ctx, index, command.card, command.text)
    elif isinstance(command, Bid):
        trading.bid(ctx, index, command.amount)
    elif isinstance(command, PassBid):
        trading.pass_bid(ctx, index)
    elif isinstance(command, PlaceClue):
        trading.place_bought(ctx, index, command.clue, command.secret, command.answer)
    elif isinstance(command, KeepClue):
        bargain.keep(ctx, index, command.clue, command.secret, command.answer)
    elif isinstance(command, TakeCoins):
        bargain.take_coins(ctx, index)
    elif isinstance(command, BuyHunch):
        bargain.buy_hunch(ctx, index)
    elif isinstance(command, MarkEasy):
        bargain.mark_easy(ctx, index, command.secret)
    elif isinstance(command, PlaceHunch):
        hunches.place(ctx, index, command.owner, command.secret, command.word)
    elif isinstance(command, TakeBackHunch):
        hunches.take_back(ctx, index, command.owner, command.secret)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def time_out(ctx: Ctx, skipped: bool = False) -> None:
    """The step's time ran out (or /skip): the phase's missed-action rule, once."""
    phase = ctx.state.phase
    if phase is Phase.SECRETS:
        setup.close(ctx, timed_out=True)
    elif phase is Phase.CLUES:
        clues.close(ctx, timed_out=True)
    elif phase is Phase.AUCTION:
        seat = ctx.round.seat
        assert seat is not None
        trading.pass_bid(ctx, seat, "skipped" if skipped else "timeout")
    elif phase is Phase.PLACE:
        trading.place_missed(ctx, "skipped" if skipped else "timeout")
    elif phase is Phase.BARGAIN:
        bargain.choice_missed(ctx)
    elif phase is Phase.HUNCH:
        hunches.reveal(ctx, timed_out=True)
    elif phase is Phase.REVEAL:
        next_round(ctx)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE)


def next_round(ctx: Ctx) -> None:
    """After a reveal: the next round, or the end after round 3."""
    state = ctx.state
    if state.game_round >= ROUNDS:
        finish(ctx)
    else:
        clues.start_round(ctx, state.game_round + 1)


def unreachable(ctx: Ctx, index: int) -> None:
    """The private chat of a seat the game waits on refused the bot: that seat's action is
    missed at once."""
    state = ctx.state
    if index not in state.waiting_for():
        raise RuleError(ErrorCode.STALE, "nothing awaited from this seat")
    ctx.emit(SeatUnreachable(seat=index))
    phase = state.phase
    if phase is Phase.SECRETS:
        setup.miss(ctx, index)
    elif phase is Phase.CLUES:
        clues.miss(ctx, index)
    elif phase is Phase.AUCTION:
        trading.pass_bid(ctx, index, "unreachable")
    elif phase is Phase.PLACE:
        trading.place_missed(ctx, "unreachable")
    elif phase is Phase.BARGAIN:
        bargain.choice_missed(ctx)
    else:
        hunches.miss(ctx, index)


def leave(ctx: Ctx, index: int) -> None:
    """A seat leaves for good: its secrets go out of play (their words stay in the matrix)
    with the clues before them, and it can no longer win; the phase goes on without it."""
    state = ctx.state
    awaited = index in state.waiting_for()
    seat = state.seats[index]
    seat.status = SeatStatus.LEFT
    for secret in seat.secrets:
        if secret.status == "hidden" and state.phase is not Phase.SECRETS:
            secret.status = "out"
    gone = [c for c in state.clues if c.owner == index]
    state.clue_discard.extend(c.card for c in gone)
    state.clues = [c for c in state.clues if c.owner != index]
    state.clue_discard.extend(seat.hand)
    seat.hand, seat.texts = [], []
    hunches.drop_seat(state, index)
    prompt = state.round.no if awaited and state.round is not None else None
    ctx.emit(SeatLeft(seat=index, prompt_round=prompt))
    if abandon_if_too_few(ctx):
        return
    _go_on(ctx, index)


def _go_on(ctx: Ctx, index: int) -> None:
    """The phase goes on without the seat that left."""
    state = ctx.state
    phase = state.phase
    if phase is Phase.SECRETS:
        state.in_phase = [i for i in state.in_phase if i != index]
        if not state.waiting_for():
            setup.close(ctx, timed_out=False)
    elif phase is Phase.CLUES:
        state.in_phase = [i for i in state.in_phase if i != index]
        if not state.waiting_for():
            clues.close(ctx, timed_out=False)
    elif phase in (Phase.AUCTION, Phase.PLACE):
        trading.leave_auction(ctx, index)
    elif phase is Phase.BARGAIN:
        if ctx.round.seat == index:
            bargain.next_turn(ctx)
    elif phase is Phase.HUNCH and not state.waiting_for():
        hunches.reveal(ctx, timed_out=False)
