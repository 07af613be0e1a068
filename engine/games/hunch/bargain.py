"""The bargain round (SPEC 11.4), from the starting player on: each seat keeps a leftover clue
(never its own) or takes 2 coins; with the advanced rules it may instead buy an extra hunch or
put 2 coins on a secret ("this is very easy"). Then the leftovers are discarded and the seat
with the fewest coins becomes the starting player."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.hunch import hunches
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import (
    BargainTurn,
    CoinsTaken,
    HunchBought,
    LeftoversDiscarded,
    SecretMarkedEasy,
    StartingPlayerChosen,
)
from engine.games.hunch.model import ADVANCED_COST, BARGAIN_COINS, Phase
from engine.games.hunch.placing import place
from engine.games.hunch.turns import (
    abandon_if_too_few,
    acted,
    in_turn_from,
    missed,
    next_step,
)
from engine.model import SeatStatus


def start(ctx: Ctx) -> None:
    """Every seat in play chooses once, from the starting player on."""
    state = ctx.state
    state.auction = None
    state.order = in_turn_from(state, state.starting)
    next_turn(ctx)


def next_turn(ctx: Ctx) -> None:
    """The next seat in play chooses; after the last, the trading phase ends."""
    state = ctx.state
    while state.order:
        seat = state.order.pop(0)
        if state.seats[seat].status is SeatStatus.PLAYING:
            state.phase = Phase.BARGAIN
            next_step(ctx, state.settings.choice_s, seat=seat)
            ctx.emit(BargainTurn(round_no=ctx.round.no, seat=seat, deadline=state.deadline))
            return
    end_trading(ctx)


def _require(ctx: Ctx, index: int, advanced: bool = False) -> None:
    state = ctx.state
    if state.phase is not Phase.BARGAIN:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    if ctx.round.seat != index:
        raise RuleError(Refusal.NOT_YOUR_TURN)
    if advanced and not state.settings.advanced:
        raise RuleError(Refusal.ADVANCED_ONLY)


def keep(ctx: Ctx, index: int, clue_id: int, slot: int, answer: bool | None) -> None:
    """Keep a leftover clue of another seat before one of one's secrets in play."""
    _require(ctx, index)
    state = ctx.state
    clue = state.clue(clue_id)
    if clue is None or clue.owner is not None or clue.round != state.game_round:
        raise RuleError(Refusal.NO_SUCH_CLUE, str(clue_id))
    if clue.writer == index:
        raise RuleError(Refusal.OWN_CLUE)
    place(ctx, index, clue, slot, answer, "kept")
    _done(ctx, index)


def take_coins(ctx: Ctx, index: int) -> None:
    """Take 2 coins from the supply."""
    _require(ctx, index)
    _coins(ctx, index, missed_it=False)
    _done(ctx, index)


def _coins(ctx: Ctx, index: int, missed_it: bool) -> None:
    ctx.state.seats[index].coins += BARGAIN_COINS
    ctx.state.supply_in += BARGAIN_COINS
    ctx.emit(CoinsTaken(seat=index, amount=BARGAIN_COINS, missed=missed_it))


def _pay(ctx: Ctx, index: int) -> None:
    seat = ctx.state.seats[index]
    if seat.coins < ADVANCED_COST:
        raise RuleError(Refusal.NOT_ENOUGH_COINS, str(seat.coins))
    seat.coins -= ADVANCED_COST
    ctx.state.discarded += ADVANCED_COST


def buy_hunch(ctx: Ctx, index: int) -> None:
    """Discard 2 coins for one extra hunch this round (advanced rules)."""
    _require(ctx, index, advanced=True)
    _pay(ctx, index)
    ctx.state.seats[index].extra += 1
    ctx.emit(HunchBought(seat=index))
    _done(ctx, index)


def mark_easy(ctx: Ctx, index: int, slot: int) -> None:
    """Put 2 coins on one of one's secrets in play: "this is very easy" (advanced rules)."""
    _require(ctx, index, advanced=True)
    seat = ctx.state.seats[index]
    if slot not in seat.in_play():
        raise RuleError(Refusal.NO_SUCH_SECRET, str(slot))
    _pay(ctx, index)
    seat.secrets[slot].easy = True
    ctx.emit(SecretMarkedEasy(seat=index, secret=slot))
    _done(ctx, index)


def _done(ctx: Ctx, index: int) -> None:
    acted(ctx, index)
    next_turn(ctx)


def choice_missed(ctx: Ctx) -> None:
    """The seat on turn did not choose in time: it takes the 2 coins."""
    index = ctx.round.seat
    assert index is not None
    _coins(ctx, index, missed_it=True)
    missed(ctx, index)
    if abandon_if_too_few(ctx):
        return
    next_turn(ctx)


def new_starting_player(state_seats: list[tuple[int, int]], current: int, count: int) -> int:
    """The seat with the fewest coins among `state_seats` ((index, coins), seats still in
    the game); ties go to the current starting player, then the seats after it in order."""
    return min(state_seats, key=lambda seat: (seat[1], (seat[0] - current) % count))[0]


def end_trading(ctx: Ctx) -> None:
    """Discard the leftover clues, choose the new starting player, start the hunch phase."""
    state = ctx.state
    leftovers = [c for c in state.clues if c.owner is None]
    state.clue_discard.extend(c.card for c in leftovers)
    state.clues = [c for c in state.clues if c.owner is not None]
    ctx.emit(LeftoversDiscarded(clues=[c.id for c in leftovers]))
    present = [(i, state.seats[i].coins) for i in state.present_seats()]
    previous = state.starting
    state.starting = new_starting_player(present, previous, len(state.seats))
    ctx.emit(StartingPlayerChosen(seat=state.starting, previous=previous))
    hunches.start(ctx)
