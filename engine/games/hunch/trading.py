"""The trading phase (SPEC 11.4): an auction for each seller from the starting player on, each
sale's placement, the bargain round, the new starting player."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.hunch import bargain
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import (
    AuctionStarted,
    AuctionUnsold,
    AuctionWon,
    BidderUp,
    BidMade,
    BidPassed,
    PassReason,
    SellerSkipped,
)
from engine.games.hunch.model import Auction, Clue, Phase
from engine.games.hunch.placing import place
from engine.games.hunch.turns import (
    abandon_if_too_few,
    acted,
    in_turn_from,
    missed,
    next_step,
)
from engine.model import SeatStatus

MISSED: frozenset[PassReason] = frozenset({"timeout", "skipped", "unreachable"})


def start(ctx: Ctx) -> None:
    """Every seat, from the starting player on, is the seller once."""
    state = ctx.state
    state.order = in_turn_from(state, state.starting)
    next_auction(ctx)


def on_offer(ctx: Ctx, seller: int) -> list[Clue]:
    """The seller's clues of this round not yet sold."""
    state = ctx.state
    return [c for c in state.clues
            if c.writer == seller and c.owner is None and c.round == state.game_round]  # fmt: skip


def next_auction(ctx: Ctx) -> None:
    """The next seller's auction (a seller without a clue, sitting out or gone is skipped);
    after the last one, the bargain round."""
    state = ctx.state
    state.auction = None
    while state.order:
        seller = state.order.pop(0)
        status = state.seats[seller].status
        if status is SeatStatus.LEFT:
            continue
        if status is not SeatStatus.PLAYING:
            ctx.emit(SellerSkipped(seller=seller, reason="away"))
            continue
        clues = on_offer(ctx, seller)
        if not clues:
            ctx.emit(SellerSkipped(seller=seller, reason="no_clues"))
            continue
        bidders = [i for i in in_turn_from(state, seller)
                   if i != seller and state.seats[i].status is SeatStatus.PLAYING
                   and state.seats[i].in_play()]  # fmt: skip
        state.auction = Auction(seller=seller, bidders=bidders)
        state.phase = Phase.AUCTION
        ctx.emit(AuctionStarted(seller=seller, clues=[c.id for c in clues], bidders=bidders))
        advance(ctx, after=seller)
        return
    bargain.start(ctx)


def advance(ctx: Ctx, after: int) -> None:
    """Pass the bidding on from `after`: the auction ends when one bidder is left holding the
    highest bid (sold) or every bidder passed without a bid (unsold); a bidder who cannot
    raise passes."""
    state = ctx.state
    auction = state.auction
    assert auction is not None
    while True:
        high = auction.high()
        remaining = [b for b in auction.bidders if b not in auction.passed]
        if high is not None and remaining == [high[0]]:
            _sold(ctx, *high)
            return
        if not remaining:
            ctx.emit(AuctionUnsold(seller=auction.seller))
            next_auction(ctx)
            return
        count = len(state.seats)
        turn = min((b for b in remaining if high is None or b != high[0]),
                   key=lambda b: (b - after - 1) % count)  # fmt: skip
        price = high[1] if high is not None else 0
        if state.seats[turn].coins <= price:
            auction.passed.append(turn)
            ctx.emit(BidPassed(seat=turn, reason="cannot_raise"))
            after = turn
            continue
        state.phase = Phase.AUCTION
        next_step(ctx, state.settings.bid_s, seat=turn)
        ctx.emit(BidderUp(round_no=ctx.round.no, seat=turn, high=price, deadline=state.deadline))
        return


def _sold(ctx: Ctx, buyer: int, price: int) -> None:
    state = ctx.state
    auction = state.auction
    assert auction is not None
    auction.buyer, auction.price = buyer, price
    state.seats[buyer].coins -= price
    state.seats[auction.seller].coins += price
    state.phase = Phase.PLACE
    next_step(ctx, state.settings.choice_s, seat=buyer)
    ctx.emit(AuctionWon(round_no=ctx.round.no, seller=auction.seller, buyer=buyer, price=price,
                        deadline=state.deadline))  # fmt: skip


def _on_turn(ctx: Ctx, index: int, phase: Phase) -> None:
    state = ctx.state
    if state.phase is not phase:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    if ctx.round.seat != index:
        raise RuleError(Refusal.NOT_YOUR_TURN)


def bid(ctx: Ctx, index: int, amount: int) -> None:
    """The bidder on turn raises the highest bid to `amount` (at most its coins)."""
    _on_turn(ctx, index, Phase.AUCTION)
    auction = ctx.state.auction
    assert auction is not None
    high = auction.high()
    if amount <= (high[1] if high is not None else 0):
        raise RuleError(Refusal.BID_TOO_LOW, str(high[1] if high is not None else 0))
    if amount > ctx.state.seats[index].coins:
        raise RuleError(Refusal.NOT_ENOUGH_COINS, str(ctx.state.seats[index].coins))
    auction.bids.append((index, amount))
    acted(ctx, index)
    ctx.emit(BidMade(seat=index, amount=amount))
    advance(ctx, after=index)


def pass_bid(ctx: Ctx, index: int, reason: PassReason = "pass") -> None:
    """The bidder on turn passes (or missed its bid): it is out of this auction."""
    _on_turn(ctx, index, Phase.AUCTION)
    auction = ctx.state.auction
    assert auction is not None
    auction.passed.append(index)
    ctx.emit(BidPassed(seat=index, reason=reason))
    if reason in MISSED:
        missed(ctx, index)
        if abandon_if_too_few(ctx):
            return
    else:
        acted(ctx, index)
    advance(ctx, after=index)


def place_bought(ctx: Ctx, index: int, clue_id: int, slot: int, answer: bool | None) -> None:
    """The buyer takes one of the seller's clues and puts it before one of its secrets."""
    _on_turn(ctx, index, Phase.PLACE)
    auction = ctx.state.auction
    assert auction is not None
    clue = ctx.state.clue(clue_id)
    if clue is None or clue not in on_offer(ctx, auction.seller):
        raise RuleError(Refusal.NO_SUCH_CLUE, str(clue_id))
    place(ctx, index, clue, slot, answer, "bought")
    acted(ctx, index)
    next_auction(ctx)


def place_missed(ctx: Ctx, reason: str) -> None:
    """The buyer did not place its clue in time: the seller's first clue on offer goes before
    the buyer's first secret in play (a question stays unanswered)."""
    state = ctx.state
    auction = state.auction
    assert auction is not None and auction.buyer is not None
    buyer = auction.buyer
    offered = on_offer(ctx, auction.seller)
    secrets = state.seats[buyer].in_play()
    if offered and secrets:
        place(ctx, buyer, offered[0], secrets[0], None, "auto")
    missed(ctx, buyer)
    if abandon_if_too_few(ctx):
        return
    next_auction(ctx)


def leave_auction(ctx: Ctx, index: int) -> None:
    """A seat left during an auction or a placement: the seller's auction is over, nothing
    sold (if the seller left before a sale); a bidder is out of it; a buyer's clue stays on
    offer."""
    state = ctx.state
    auction = state.auction
    assert auction is not None
    if state.phase is Phase.PLACE:
        if auction.buyer == index:
            next_auction(ctx)
        return
    if index == auction.seller:
        ctx.emit(AuctionUnsold(seller=index))
        next_auction(ctx)
        return
    if index not in auction.bidders or index in auction.passed:
        return
    auction.passed.append(index)
    ctx.emit(BidPassed(seat=index, reason="left"))
    on_turn = ctx.round.seat
    high = auction.high()
    if on_turn == index or (high is not None and high[0] == on_turn):
        advance(ctx, after=index if on_turn == index else on_turn or 0)
        return
    remaining = [b for b in auction.bidders if b not in auction.passed]
    if (high is not None and remaining == [high[0]]) or not remaining:
        advance(ctx, after=index)
