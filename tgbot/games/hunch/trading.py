"""Hunch!'s trading phase in the group: one message per auction, edited as bids come (at most
once every few seconds: `settling`), with the bidder's buttons (+1, +2, +5, pass); the sale
and the placement of the clue; and one message for the bargain round."""

from __future__ import annotations

from engine.games.hunch.events import CluePlaced
from engine.games.hunch.model import Clue, Phase
from engine.games.hunch.table import state_of
from engine.games.hunch.views import GroupView, group_view
from engine.model import Room, SeatStatus
from tgbot.egress.outgoing import Button, Outgoing
from tgbot.games.hunch import words
from tgbot.games.hunch.group import ROCKET, in_turn
from tgbot.i18n import _
from tgbot.table.render.common import Look, in_group_language, names, time_left, to_group
from tgbot.table.render.group import listed

RAISES = (1, 2, 5)
"""The bidder's buttons: raise the highest bid by these."""


def auction_key(game_round: int, seller: int) -> str:
    return f"auction:{game_round}:{seller}"


def bargain_key(game_round: int) -> str:
    return f"bargain:{game_round}"


def coins_line(room: Room, view: GroupView) -> str:
    who = names(room)
    return _("Coins: {coins}").format(coins=" · ".join(
        f"{who[i]} {view.seats[i].coins}" for i in in_turn(view)
        if view.seats[i].status is not SeatStatus.LEFT))  # fmt: skip


def _offer(view: GroupView, seller: int) -> list[Clue]:
    return [c for c in view.clues if c.writer == seller and c.round == view.game_round]


def _head(room: Room, view: GroupView, seller: int) -> list[str]:
    who = names(room)
    lines = [_("<b>Hunch! · Round {n}: {name}'s auction</b>").format(
        n=view.game_round, name=who[seller])]  # fmt: skip
    offer = [c for c in _offer(view, seller) if c.owner is None]
    if offer:
        lines.append(_("On offer: {clues}").format(
            clues=" · ".join(words.clue_text(c) for c in offer)))  # fmt: skip
    return lines


@in_group_language
def auction_message(room: Room, look: Look) -> Outgoing | None:
    """The current auction as it stands: the clues on offer, the bids, who holds the highest,
    the bidder on turn with its buttons and the time left; once sold, the buyer choosing in
    private. None when no auction runs."""
    state = state_of(room)
    view = group_view(state)
    auction = view.auction
    if auction is None or view.phase not in (Phase.AUCTION, Phase.PLACE):
        return None
    who = names(room)
    lines = _head(room, view, auction.seller)
    if auction.bids:
        lines.append(_("Bids: {bids}").format(
            bids=", ".join(f"{who[s]} {a}" for s, a in auction.bids)))  # fmt: skip
    if auction.passed:
        lines.append(_("Passed: {names}").format(names=listed([who[i] for i in auction.passed])))
    buttons: list[list[Button]] = []
    high = auction.high()
    if view.phase is Phase.PLACE and auction.buyer is not None:
        lines.append(_("Sold to {name} for {n} 🪙. {name} now chooses one of the clues and the "
                       "secret to put it before, in private{left}.").format(
            name=who[auction.buyer], n=auction.price, left=time_left(room, look)))  # fmt: skip
    elif view.waiting:
        bidder = view.waiting[0]
        if high is not None:
            lines.append(_("Highest bid: {name}, {n} 🪙.").format(name=who[high[0]], n=high[1]))
        lines.append(_("Now: {name} raises or passes{left}.").format(
            name=who[bidder], left=time_left(room, look)))  # fmt: skip
        buttons = [bid_buttons(room, look, view, bidder)]
    lines += ["", coins_line(room, view)]
    return to_group(room, key=auction_key(view.game_round, auction.seller),
                    text="\n".join(lines), buttons=buttons)  # fmt: skip


def bid_buttons(room: Room, look: Look, view: GroupView, bidder: int) -> list[Button]:
    """The bidder's buttons: +1, +2, +5 over the highest bid (as far as its coins go), pass."""
    assert view.auction is not None and view.step is not None
    high = view.auction.high()
    base = high[1] if high is not None else 0
    coins = view.seats[bidder].coins
    row = [look.button(f"+{up} → {base + up} 🪙", "hbid", view.step, base + up, room.game_id)
           for up in RAISES if base + up <= coins]  # fmt: skip
    row.append(look.button(_("Pass"), "hpass", view.step, room.game_id))
    return row


@in_group_language
def auction_closed(room: Room, look: Look, game_round: int, seller: int,
                   placed: CluePlaced | None) -> Outgoing:  # fmt: skip
    """An auction over: nothing sold, or the clue its buyer put before which secret."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    lines = [_("<b>Hunch! · Round {n}: {name}'s auction</b>").format(n=game_round,
                                                                     name=who[seller])]
    clue = state.clue(placed.clue) if placed is not None else None
    if placed is None or clue is None:
        lines.append(_("Nobody bid: nothing sold."))
    else:
        lines.append(placement_line(room, placed, clue))
    lines += ["", coins_line(room, view)]
    return to_group(room, key=auction_key(game_round, seller), text="\n".join(lines))


def placement_line(room: Room, placed: CluePlaced, clue: Clue) -> str:
    """ "Bob put «red» (Colour) before their secret 2." """
    who = names(room)
    if placed.how == "auto":
        text = _("{name} did not choose in time: {clue} went before their secret {n}.")
    elif placed.how == "kept":
        text = _("{name} kept {clue} and put it before their secret {n}.")
    else:
        text = _("Sold to {name}, who put {clue} before their secret {n}.")
    return text.format(name=who[placed.seat], clue=words.clue_text(clue), n=placed.secret + 1)


@in_group_language
def bargain_message(room: Room, look: Look) -> Outgoing:
    """The bargain round: the clues placed this round (bought or kept) and where, the leftover
    clues, whose turn it is and the time left; at its end, the new starting player."""
    state = state_of(room)
    view = group_view(state)
    who = names(room)
    lines = [_("<b>Hunch! · Round {n}: bargain round</b>").format(n=view.game_round),
             _("Each player in turn keeps a leftover clue (never their own) before one of their "
               "secrets, or takes 2 🪙.")]  # fmt: skip
    if state.settings.advanced:
        lines.append(_("Advanced rules: or pays 2 🪙 for an extra hunch, or puts 2 🪙 on one of "
                       "their secrets («this is very easy»)."))  # fmt: skip
    placed = [c for c in view.clues if c.owner is not None and c.round == view.game_round]
    if placed:
        lines.append(_("Placed this round: {clues}").format(clues="; ".join(
            f"{words.clue_text(c)} ▸ {words.secret_name(who[c.owner], c.secret or 0)}"
            for c in placed)))  # fmt: skip
    if view.phase is Phase.BARGAIN:
        left = [c for c in view.clues if c.owner is None and c.round == view.game_round]
        if left:
            lines.append(_("Leftover clues: {clues}").format(
                clues=" · ".join(words.clue_text(c) for c in left)))  # fmt: skip
        if view.waiting:
            lines.append(_("Now: {name} chooses in private{left}.").format(
                name=who[view.waiting[0]], left=time_left(room, look)))  # fmt: skip
    elif view.phase is Phase.ABANDONED:
        lines.append(_("The game is over."))
    else:
        lines.append(_("The bargain round is over; the leftover clues are discarded."))
        lines.append(_("New starting player (fewest coins): {rocket} {name}.").format(
            rocket=ROCKET, name=who[view.starting]))  # fmt: skip
    lines += ["", coins_line(room, view)]
    return to_group(room, key=bargain_key(view.game_round), text="\n".join(lines))


@in_group_language
def auction_ended(room: Room, game_round: int, seller: int) -> Outgoing:
    """An auction the game ended in, without its buttons."""
    who = names(room)
    lines = [_("<b>Hunch! · Round {n}: {name}'s auction</b>").format(n=game_round,
                                                                     name=who[seller]),
             _("The game is over.")]  # fmt: skip
    return to_group(room, key=auction_key(game_round, seller), text="\n".join(lines))


def current_seller(room: Room) -> int | None:
    """The seller of the auction under way (or interrupted): the last seat in selling order
    that is no longer to sell."""
    state = state_of(room)
    view = group_view(state)
    sold = [i for i in in_turn(view) if i not in state.order]
    return sold[-1] if sold else None
