"""Hunch!'s rules (SPEC 11.4), one at a time: the deal and the matrix, secrets, clues,
auctions, placements, the bargain round, the starting player, hunches and VP, the end."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.hunch import deck
from engine.games.hunch.bargain import new_starting_player
from engine.games.hunch.commands import BuyHunch, ReplaceClueCard
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import (
    AuctionUnsold,
    BidPassed,
    CluePlaced,
    GameFinished,
    HunchesRevealed,
    SellerSkipped,
    StartingPlayerChosen,
)
from engine.games.hunch.model import REMOVED, Phase
from engine.games.hunch.turns import group_result, matrix_words
from tests.hunch_builders import Game, a_game


def refused(game: Game, action: object, code: object) -> None:
    before = game.state.model_dump_json()
    with pytest.raises(RuleError) as error:
        action() if callable(action) else None
    assert error.value.code == code
    assert game.state.model_dump_json() == before


# The deal and the matrix


@pytest.mark.parametrize(("players", "each", "from_deck"), [(3, 3, 3), (4, 3, 0), (5, 2, 2),
                                                            (6, 2, 0)])  # fmt: skip
def test_every_seat_is_dealt_its_cards_and_the_matrix_is_topped_up_to_twelve(
    players: int, each: int, from_deck: int
) -> None:
    game = a_game().with_players(players).started()
    state = game.state
    dealt = [s.card for seat in state.seats for s in seat.secrets]
    assert all(len(seat.secrets) == each for seat in state.seats)
    assert all(seat.coins == 5 and seat.vp == 0 for seat in state.seats)
    assert len(state.matrix) == 12 and len(set(state.matrix)) == 12
    assert set(dealt) <= set(state.matrix)
    assert len(set(state.matrix) - set(dealt)) == from_deck
    assert len(matrix_words(state)) == 36


def test_three_to_six_seats() -> None:
    with pytest.raises(RuleError) as error:
        a_game().with_players(2).started()
    assert error.value.code is ErrorCode.NOT_ENOUGH_PLAYERS
    with pytest.raises(RuleError) as error:
        a_game().with_players(7).with_settings(max_seats=10).started()
    assert error.value.code is ErrorCode.ROOM_FULL


def test_the_starting_player_is_drawn_from_the_seed() -> None:
    starts = {a_game().with_seed(seed).starting(None).started().state.starting
              for seed in range(30)}  # fmt: skip
    assert starts == {0, 1, 2, 3}


def test_each_seat_chooses_one_word_of_each_card_and_may_change_it() -> None:
    game = a_game().started()
    game.choose(0, 0, 2).choose(0, 0, 1)
    assert game.state.seats[0].secrets[0].word == 1
    refused(game, lambda: game.choose(0, 3, 0), Refusal.NO_SUCH_CARD)
    refused(game, lambda: game.choose(0, 0, 3), Refusal.NO_SUCH_WORD)
    game.choose_all(word=2)
    assert game.state.phase is Phase.CLUES and game.state.game_round == 1


def test_a_secret_not_chosen_in_time_is_chosen_at_random() -> None:
    game = a_game().started()
    game.choose(0, 0, 1)
    game.time_out()
    assert game.state.phase is Phase.CLUES
    assert all(s.word is not None for seat in game.state.seats for s in seat.secrets)
    assert game.state.seats[0].secrets[0].word == 1
    assert game.state.seats[0].missed == 0  # it chose some: not a whole phase missed
    assert [seat.missed for seat in game.state.seats[1:]] == [1, 1, 1]


# Clues


def test_each_seat_draws_two_clue_cards_and_may_replace_one_once_per_round() -> None:
    game = a_game().in_clues()
    assert all(len(seat.hand) == 2 for seat in game.state.seats)
    first = list(game.state.seats[0].hand)
    game.write(0, 0, "zq")
    game.do(_replace(game, 0, 0))
    assert game.state.seats[0].texts[0] is None and game.state.seats[0].hand[1] == first[1]
    refused(game, lambda: game.do(_replace(game, 0, 1)), Refusal.REPLACED_ALREADY)


def _replace(game: Game, seat: int, card: int) -> ReplaceClueCard:
    return ReplaceClueCard(user_id=game.uid(seat), card=card)


def test_a_clue_is_one_to_forty_characters() -> None:
    game = a_game().in_clues()
    refused(game, lambda: game.write(0, 0, "   "), Refusal.CLUE_EMPTY)
    refused(game, lambda: game.write(0, 0, "\u200b"), Refusal.CLUE_EMPTY)
    refused(game, lambda: game.write(0, 0, "z" * 41), Refusal.CLUE_TOO_LONG)
    game.write(0, 0, "  " + "z" * 40 + " ")
    assert game.state.seats[0].texts[0] == "z" * 40


def test_a_clue_naming_a_matrix_word_or_its_derivative_is_refused() -> None:
    game = a_game().in_clues()
    word = _a_word(game, longer_than=4)
    refused(game, lambda: game.write(0, 0, f"my {word.upper()}!"), Refusal.CLUE_NAMES_MATRIX_WORD)
    refused(game, lambda: game.write(0, 0, f"{word}s everywhere"), Refusal.CLUE_NAMES_MATRIX_WORD)
    game.write(0, 0, f"x{word}")  # beginning with, not containing
    short = _a_word(game, shorter_than=4)
    game.write(0, 1, f"{short}zz")  # a word of three letters or fewer: only itself
    refused(game, lambda: game.write(1, 0, short), Refusal.CLUE_NAMES_MATRIX_WORD)


def _a_word(game: Game, longer_than: int = 0, shorter_than: int = 99) -> str:
    return next(w for w in matrix_words(game.state).values()
                if longer_than <= len(w) < shorter_than)  # fmt: skip


def test_a_clue_not_written_in_time_is_not_offered() -> None:
    game = a_game().in_clues()
    game.write(0, 0, "zq").write(0, 1, "qx").write(1, 0, "wkw")
    game.time_out()
    assert game.state.phase is Phase.AUCTION
    assert sorted((c.writer, c.text) for c in game.state.clues) == [(0, "qx"), (0, "zq"),
                                                                    (1, "wkw")]  # fmt: skip
    assert [seat.missed for seat in game.state.seats] == [0, 0, 1, 1]


# Auctions


def test_bidding_goes_round_from_the_seat_after_the_seller_and_the_last_bidder_buys() -> None:
    game = a_game().in_auctions()
    assert game.state.auction is not None and game.state.auction.seller == 0
    assert game.on_turn() == 1
    game.bid(1)
    assert game.on_turn() == 2
    refused(game, lambda: game.bid(1), Refusal.BID_TOO_LOW)
    refused(game, lambda: game.bid(6), Refusal.NOT_ENOUGH_COINS)
    refused(game, lambda: game.bid(2, seat=3), Refusal.NOT_YOUR_TURN)
    game.bid(3).pass_bid()  # seat 3 passes
    assert game.on_turn() == 1
    game.pass_bid()  # seat 1 passes: seat 2 holds the highest bid alone
    assert game.state.phase is Phase.PLACE and game.on_turn() == 2
    assert [s.coins for s in game.state.seats] == [8, 5, 2, 5]
    clue = game.offered(0)[1]
    game.place(clue, secret=2)
    placed = game.state.clue(clue)
    assert placed is not None and (placed.owner, placed.secret) == (2, 2)
    assert game.state.auction is not None and game.state.auction.seller == 1


def test_an_auction_where_everyone_passes_sells_nothing() -> None:
    game = a_game().in_auctions()
    game.pass_bid().pass_bid().pass_bid()
    assert any(isinstance(e, AuctionUnsold) for e in game.events)
    assert [s.coins for s in game.state.seats] == [5, 5, 5, 5]
    assert len(game.offered(0)) == 2 and game.state.auction.seller == 1  # type: ignore[union-attr]


def test_a_bidder_with_no_coins_to_raise_passes() -> None:
    game = a_game().in_clues()
    game.state.seats[2].coins = 0
    game.write_all()
    game.bid(1)
    assert game.on_turn() == 3
    assert any(isinstance(e, BidPassed) and e.seat == 2 and e.reason == "cannot_raise"
               for e in game.events)  # fmt: skip
    game.bid(5)  # seat 1 holds 5 coins: it cannot raise five, so seat 3 buys
    assert game.state.phase is Phase.PLACE and game.on_turn() == 3
    assert [e.reason for e in game.events if isinstance(e, BidPassed)] == ["cannot_raise"]


def test_a_seller_without_clues_is_skipped() -> None:
    game = a_game().in_clues()
    game.write(1, 0, "zq").write(1, 1, "qx").write(2, 0, "wkw").write(3, 0, "jjy")
    game.time_out()  # seat 0 wrote nothing
    assert any(isinstance(e, SellerSkipped) and e.seller == 0 and e.reason == "no_clues"
               for e in game.events)  # fmt: skip
    assert game.state.auction is not None and game.state.auction.seller == 1


def test_a_missed_bid_is_a_pass() -> None:
    game = a_game().in_auctions()
    game.bid(2)
    game.time_out()
    assert game.state.auction is not None and 2 in game.state.auction.passed
    assert game.state.seats[2].missed == 1


def test_a_question_clue_is_answered_yes_or_no_by_its_buyer() -> None:
    game = a_game().in_auctions()
    question = game.offered(0)[0]
    game.state.clue(question).card = _card_of(deck.QUESTION)  # type: ignore[union-attr]
    other = game.offered(0)[1]
    game.state.clue(other).card = _card_of("colour")  # type: ignore[union-attr]
    game.bid(1).pass_bid().pass_bid()
    refused(game, lambda: game.place(question), Refusal.ANSWER_NEEDED)
    refused(game, lambda: game.place(other, answer=True), Refusal.NOT_A_QUESTION)
    game.place(question, secret=1, answer=False)
    placed = [e for e in game.events if isinstance(e, CluePlaced)]
    assert placed and placed[0].answer is False and placed[0].secret == 1
    assert game.state.clue(question).answer is False  # type: ignore[union-attr]


def _card_of(category: str) -> int:
    return deck.clue_cards().index(category)


def test_a_buyer_who_does_not_place_in_time_has_the_first_clue_before_its_first_secret() -> None:
    game = a_game().in_auctions()
    first = game.offered(0)[0]
    game.bid(1).pass_bid().pass_bid()
    game.time_out()
    placed = game.state.clue(first)
    assert placed is not None and (placed.owner, placed.secret) == (1, 0)
    assert game.state.seats[1].missed == 1


# Bargain round and the new starting player


def test_the_bargain_round_keeps_a_leftover_clue_or_takes_two_coins() -> None:
    game = a_game().in_auctions().pass_all()
    assert game.state.phase is Phase.BARGAIN and game.on_turn() == 0
    own = game.offered(0)[0]
    refused(game, lambda: game.keep(own), Refusal.OWN_CLUE)
    other = game.offered(1)[0]
    game.keep(other, secret=1)
    assert game.on_turn() == 1
    game.take_coins()
    assert game.state.seats[1].coins == 7 and game.state.supply_in == 2
    game.time_out()  # seat 2 missed its choice: the coins
    assert game.state.seats[2].coins == 7 and game.state.seats[2].missed == 1
    game.take_coins()
    assert game.state.phase is Phase.HUNCH
    assert [c.id for c in game.state.clues] == [other]  # the leftovers were discarded


def test_bargain_choices_of_the_advanced_rules_are_refused_without_them() -> None:
    game = a_game().in_auctions().pass_all()
    refused(game, lambda: game.do(BuyHunch(user_id=game.uid(0))), Refusal.ADVANCED_ONLY)


def test_the_new_starting_player_has_the_fewest_coins_ties_to_the_current_then_after() -> None:
    assert new_starting_player([(0, 5), (1, 3), (2, 3), (3, 4)], current=0, count=4) == 1
    assert new_starting_player([(0, 3), (1, 3), (2, 3), (3, 4)], current=2, count=4) == 2
    assert new_starting_player([(0, 3), (1, 3), (2, 5), (3, 4)], current=2, count=4) == 0
    assert new_starting_player([(0, 3), (1, 3), (3, 4)], current=2, count=4) == 0


def test_the_seat_with_the_fewest_coins_starts_the_next_round() -> None:
    game = a_game().starting(1).in_auctions()
    game.bid(2).pass_bid().pass_bid()  # seat 2 buys seat 1's clue for 2
    game.place(game.offered(1)[0]).pass_all().coins_all()
    chosen = [e for e in game.events if isinstance(e, StartingPlayerChosen)]
    assert chosen and chosen[0].seat == 2 and game.state.starting == 2


# Hunches, the reveal and VP


def test_each_seat_places_as_many_hunches_as_the_round_on_different_secrets() -> None:
    game = a_game().in_hunches()
    assert game.state.allowance(0) == 1
    word = game.wrong_word(1)
    refused(game, lambda: game.hunch(0, 0, 1, word), Refusal.OWN_SECRET)
    refused(game, lambda: game.hunch(0, 1, 5, word), Refusal.NO_SUCH_SECRET)
    refused(game, lambda: game.hunch(0, 1, 0, 10_000), Refusal.NO_SUCH_WORD)
    game.hunch(0, 1, 0, word).hunch(0, 1, 0, game.secret_word(1))  # a change, not a second
    assert len(game.state.seats[0].hunches) == 1
    refused(game, lambda: game.hunch(0, 2, 0, word), Refusal.NO_HUNCH_LEFT)


def test_a_correct_hunch_scores_its_guesser_and_the_secret_s_owner() -> None:
    game = a_game().in_hunches()
    game.hunch(1, 0, 0, game.secret_word(0))
    game.hunch(2, 0, 1, game.wrong_word(0, 1))
    game.reveal_now()
    assert [s.vp for s in game.state.seats] == [1, 1, 0, 0]
    revealed = [e for e in game.events if isinstance(e, HunchesRevealed)][0]
    assert revealed.points == [1, 1, 0, 0] and revealed.missed == [0, 3]


def test_a_secret_guessed_by_two_or_more_gives_its_owner_one_more_and_no_more() -> None:
    game = a_game().in_hunches()
    right = game.secret_word(0)
    game.hunch(1, 0, 0, right).hunch(2, 0, 0, right).hunch(3, 0, 0, right)
    game.hunch(0, 1, 0, game.wrong_word(1))
    assert game.state.phase is Phase.REVEAL
    assert [s.vp for s in game.state.seats] == [2, 1, 1, 1]
    game = a_game().in_hunches()
    right = game.secret_word(0)
    game.hunch(1, 0, 0, right).hunch(2, 0, 0, right).reveal_now()
    assert [s.vp for s in game.state.seats] == [2, 1, 1, 0]


def test_a_guessed_secret_leaves_with_its_clues_and_its_card() -> None:
    game = a_game().in_auctions()
    game.bid(1).pass_bid().pass_bid()
    bought = game.offered(0)[0]
    game.place(bought, secret=0)  # seat 1's secret 0
    game.bid(1, seat=2).pass_bid().pass_bid()  # seat 2 buys seat 1's clue
    kept = game.offered(1)[0]
    game.place(kept, secret=0)
    game.pass_all().coins_all()
    card = game.state.seats[1].secrets[0].card
    game.hunch(0, 1, 0, game.secret_word(1)).reveal_now()
    assert game.state.seats[1].secrets[0].status == "guessed"
    assert card not in game.state.matrix and game.state.matrix.count(REMOVED) == 1
    assert len(matrix_words(game.state)) == 33
    assert game.state.clue(bought) is None
    assert game.state.clue(kept) is not None  # seat 2's secret was not guessed


def test_the_game_ends_after_three_rounds_with_the_most_vp_then_coins() -> None:
    game = a_game().in_hunches()
    game.hunch(1, 0, 0, game.secret_word(0)).reveal_now()  # seats 0 and 1 have 1 VP
    for number in (2, 3):
        game.time_out()  # the reveal is over
        assert game.state.game_round == number
        game.write_all().to_hunches().reveal_now()
    game.state.seats[1].coins += 1
    game.time_out()
    finished = [e for e in game.events if isinstance(e, GameFinished)][0]
    assert game.state.phase is Phase.FINISHED
    assert finished.winners == [1] and finished.standings[:2] == [1, 0]


def test_seats_tied_on_vp_and_coins_share_the_victory() -> None:
    game = a_game().in_hunches()
    game.hunch(1, 0, 0, game.secret_word(0)).reveal_now()
    for _ in (2, 3):
        game.time_out()
        game.write_all().to_hunches().reveal_now()
    game.time_out()
    finished = [e for e in game.events if isinstance(e, GameFinished)][0]
    assert finished.winners == [0, 1]
    assert finished.guessed == 1 and finished.group_result == 1


def test_the_group_result_follows_the_seed_s_table() -> None:
    assert [group_result(n, 3) for n in (0, 1, 2, 3, 5, 7, 9)] == [0, 1, 1, 2, 3, 4, 5]
    assert [group_result(n, 6) for n in (0, 2, 3, 5, 6, 9, 11, 12)] == [0, 1, 2, 2, 3, 4, 4, 5]
