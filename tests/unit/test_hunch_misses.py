"""Hunch!'s advanced rules, missed actions (timeouts, /skip, players out of reach), sitting
out and coming back, leaving and abandoning, and what the group may see."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.hunch.commands import (
    BuyHunch,
    ComeBack,
    Leave,
    MarkEasy,
    MarkUnreachable,
    Skip,
    TakeCoins,
)
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import (
    AuctionUnsold,
    GameAbandoned,
    SeatSpectating,
    SellerSkipped,
)
from engine.games.hunch.model import Phase
from engine.games.hunch.views import group_view, seat_view
from engine.model import SeatStatus
from tests.hunch_builders import Game, a_game


def advanced_in_bargain() -> Game:
    return a_game().with_settings(advanced=True).in_auctions().pass_all()


# Advanced rules


def test_an_extra_hunch_costs_two_coins_discarded() -> None:
    game = advanced_in_bargain()
    game.do(BuyHunch(user_id=game.uid(0)))
    game.coins_all()
    assert game.state.seats[0].coins == 3 and game.state.discarded == 2
    assert game.state.allowance(0) == 2 and game.state.allowance(1) == 1


def test_this_is_very_easy_gives_the_owner_and_each_correct_guesser_one_more() -> None:
    game = advanced_in_bargain()
    game.do(MarkEasy(user_id=game.uid(0), secret=0))
    game.coins_all()
    assert game.state.seats[0].secrets[0].easy and game.state.seats[0].coins == 3
    right = game.secret_word(0)
    game.hunch(1, 0, 0, right).hunch(2, 0, 0, right).reveal_now()
    assert [s.vp for s in game.state.seats] == [3, 2, 2, 0]
    assert not game.state.seats[0].secrets[0].easy  # the coins are gone either way


def test_coins_on_a_secret_not_guessed_are_lost() -> None:
    game = advanced_in_bargain()
    game.do(MarkEasy(user_id=game.uid(0), secret=1))
    game.coins_all().reveal_now()
    assert [s.vp for s in game.state.seats] == [0, 0, 0, 0]
    assert game.state.seats[0].coins == 3 and not game.state.seats[0].secrets[1].easy


def test_an_advanced_choice_needs_two_coins() -> None:
    game = a_game().with_settings(advanced=True).in_clues()
    game.state.seats[0].coins = 1
    game.write_all().pass_all()
    with pytest.raises(RuleError) as error:
        game.do(BuyHunch(user_id=game.uid(0)))
    assert error.value.code is Refusal.NOT_ENOUGH_COINS


# Missed actions


def test_two_missed_phases_in_a_row_make_a_seat_sit_out_until_it_acts() -> None:
    game = a_game().with_players(4).started()
    for seat in (0, 1, 2):
        for card in range(3):
            game.choose(seat, card, 0)
    game.time_out()
    assert game.state.phase is Phase.CLUES  # seat 3 chose nothing: chosen for it (a miss)
    assert game.state.seats[3].missed == 1
    for seat in (0, 1, 2):
        for card in range(2):
            game.write(seat, card, "zq")
    assert game.state.phase is Phase.CLUES
    game.time_out()  # seat 3 missed the clues too
    assert game.state.seats[3].status is SeatStatus.SPECTATING
    assert any(isinstance(e, SeatSpectating) and e.seat == 3 for e in game.events)
    assert game.state.auction is not None and 3 not in game.state.auction.bidders
    game.do(ComeBack(user_id=game.uid(3)))
    assert game.state.seats[3].status is SeatStatus.PLAYING
    assert 3 not in game.state.auction.bidders  # it plays from the next phase


def test_a_seat_sitting_out_is_skipped_as_seller() -> None:
    game = a_game().in_clues()
    game.state.seats[1].status = SeatStatus.SPECTATING
    game.state.in_phase = [0, 2, 3]
    game.write_all()
    assert game.state.auction is not None and game.state.auction.seller == 0
    game.pass_bid().pass_bid()  # seats 2 and 3: seat 1 sits out
    assert any(isinstance(e, SellerSkipped) and e.seller == 1 and e.reason == "away"
               for e in game.events)  # fmt: skip
    assert game.state.auction is not None and game.state.auction.seller == 2


def test_skip_applies_the_phase_s_timeout_rule_once() -> None:
    game = a_game().with_settings(timers=False).in_auctions()
    assert game.state.deadline is None
    game.do(Skip(user_id=game.state.host))
    assert game.state.auction is not None and game.state.auction.passed == [1]
    assert game.state.seats[1].missed == 1


def test_a_seat_out_of_reach_misses_its_action_at_once() -> None:
    game = a_game().in_auctions()
    number = game.round.no
    game.do(MarkUnreachable(user_id=game.uid(1), round_no=number, phase=Phase.AUCTION))
    assert game.state.auction is not None and 1 in game.state.auction.passed
    with pytest.raises(RuleError) as error:
        game.do(MarkUnreachable(user_id=game.uid(3), round_no=game.round.no,
                                phase=Phase.AUCTION))  # fmt: skip
    assert error.value.code is ErrorCode.STALE  # seat 2 bids now, not seat 3


def test_hunches_not_placed_in_time_are_not_placed() -> None:
    game = a_game().in_hunches()
    game.hunch(0, 1, 0, game.wrong_word(1))
    game.time_out()
    assert game.state.phase is Phase.REVEAL
    assert [s.missed for s in game.state.seats] == [0, 1, 1, 1]


def test_a_missed_bargain_choice_takes_the_coins() -> None:
    game = a_game().in_auctions().pass_all()
    game.time_out()
    assert game.state.seats[0].coins == 7 and game.state.seats[0].missed == 1


# Leaving and abandoning


def test_a_seat_that_leaves_takes_its_secrets_out_of_play_and_cannot_win() -> None:
    game = a_game().in_hunches()
    game.hunch(1, 0, 0, game.secret_word(0))
    game.do(Leave(user_id=game.uid(0)))
    assert all(s.status == "out" for s in game.state.seats[0].secrets)
    assert game.state.seats[1].hunches == []  # its hunch on a secret now out of play
    assert len(game.state.matrix) == 12 and -1 not in game.state.matrix  # the words stay
    with pytest.raises(RuleError) as error:
        game.hunch(1, 0, 1, game.secret_word(0, 1))
    assert error.value.code is Refusal.NO_SUCH_SECRET
    game.reveal_now()
    for _ in (2, 3):
        game.time_out()
        game.write_all().to_hunches().reveal_now()
    game.state.seats[0].vp = 99
    game.time_out()
    assert game.state.phase is Phase.FINISHED and 0 not in game.events[-1].winners  # type: ignore[attr-defined]


def test_a_seller_who_leaves_sells_nothing() -> None:
    game = a_game().in_auctions()
    game.bid(1)
    game.do(Leave(user_id=game.uid(0)))
    assert any(isinstance(e, AuctionUnsold) and e.seller == 0 for e in game.events)
    assert game.state.auction is not None and game.state.auction.seller == 1
    assert [s.coins for s in game.state.seats] == [5, 5, 5, 5]


def test_the_bidder_holding_the_highest_bid_leaves_and_the_bids_go_on() -> None:
    game = a_game().in_auctions()
    game.bid(1).bid(2)  # seats 1 and 2
    game.do(Leave(user_id=game.uid(2)))
    assert game.on_turn() == 3
    auction = game.state.auction
    assert auction is not None and auction.high() == (1, 1)


def test_fewer_than_three_active_seats_abandon_the_game() -> None:
    game = a_game().with_players(3).in_auctions()
    game.do(Leave(user_id=game.uid(2)))
    assert game.state.phase is Phase.ABANDONED
    abandoned = [e for e in game.events if isinstance(e, GameAbandoned)]
    assert abandoned and abandoned[0].reason == "too_few_players"


def test_a_left_seat_never_plays_again() -> None:
    game = a_game().in_auctions().pass_all()
    game.do(Leave(user_id=game.uid(3)))
    with pytest.raises(RuleError) as error:
        game.do(TakeCoins(user_id=game.uid(3)))
    assert error.value.code is ErrorCode.HAS_LEFT


# What the group sees


def test_the_group_never_sees_a_secret_or_a_hunch_before_its_reveal() -> None:
    game = a_game().started()
    assert group_view(game.state).matrix == []  # the matrix shows once the secrets are set
    game.choose_all(word=0).write_all().to_hunches()
    game.hunch(1, 0, 0, game.secret_word(0))
    other = game.state.clone()
    for seat in other.seats:
        for secret in seat.secrets:
            secret.word = 2
        for hunch in seat.hunches:
            hunch.word = 0
    assert group_view(game.state) == group_view(other)
    assert seat_view(game.state, 1).hunches[0].word == game.secret_word(0)
    assert seat_view(game.state, 0).own_secrets[0] == game.secret_word(0)
    game.reveal_now()
    guessed = group_view(game.state).seats[0].secrets[0]
    assert guessed.status == "guessed" and guessed.word == game.secret_word(0)
    assert group_view(game.state).seats[0].secrets[1].word is None
