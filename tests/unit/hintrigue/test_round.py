"""A round: hint, decoys, voting, reveal and refill."""

import pytest

from engine.commands import GiveHint
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.errors import Refusal
from engine.games.hintrigue.events import RoundScored, VoteCast, VotingOpened
from engine.games.hintrigue.model import Phase, own_seats, phase_of, state_of
from tests.builders import a_room, card_locations, user
from tests.table import apply


def refused(game, command, code):
    before = game.room.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.room, command, game.now)
    assert caught.value.code is code
    assert game.room.model_dump_json() == before


def test_the_storyteller_may_change_its_card_until_the_hint():
    game = a_room().in_hint()
    teller = game.storyteller()
    first, second = game.hand(teller)[:2]
    game.do(ChooseCard(user_id=user(teller), card=first))
    game.do(ChooseCard(user_id=user(teller), card=second))
    game.do(GiveHint(user_id=user(teller), text="  dawn  "))
    assert game.round.plays[teller] == second and game.round.hint == "dawn"
    assert first in game.hand(teller) and second not in game.hand(teller)
    assert phase_of(game.room) is Phase.DECOYS


def test_a_hint_without_a_chosen_card_is_refused():
    game = a_room().in_hint()
    refused(game, GiveHint(user_id=user(game.storyteller()), text="x"), Refusal.NO_CARD_CHOSEN)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("   ", Refusal.HINT_EMPTY),
        ("\u034f\u034f\u034f", Refusal.HINT_EMPTY),
        ("\ufe0f\u034f \ufe0f", Refusal.HINT_EMPTY),
        ("\u0301\u20dd", Refusal.HINT_EMPTY),
        ("x" * 201, Refusal.HINT_TOO_LONG),
    ],
)
def test_an_empty_or_too_long_hint_is_refused(text, code):
    game = a_room().in_hint()
    teller = game.storyteller()
    game.do(ChooseCard(user_id=user(teller), card=game.hand(teller)[0]))
    refused(game, GiveHint(user_id=user(teller), text=text), code)


def test_a_hint_of_two_hundred_code_points_is_accepted():
    game = a_room().in_hint()
    game.give_hint("🌙" * 200)
    assert game.round.hint == "🌙" * 200


def test_only_the_storyteller_gives_the_hint():
    game = a_room().in_hint()
    other = game.others()[0]
    refused(
        game, ChooseCard(user_id=user(other), card=game.hand(other)[0]), ErrorCode.NOT_STORYTELLER
    )


def test_a_card_not_in_your_hand_is_refused():
    game = a_room().in_hint()
    teller = game.storyteller()
    foreign = game.hand(game.others()[0])[0]
    refused(game, ChooseCard(user_id=user(teller), card=foreign), Refusal.CARD_NOT_IN_HAND)


def test_a_decoy_once_chosen_is_final():
    game = a_room().in_decoys()
    seat = game.others()[0]
    game.do(PlayDecoy(user_id=user(seat), card=game.hand(seat)[0]))
    refused(game, PlayDecoy(user_id=user(seat), card=game.hand(seat)[0]), Refusal.ALREADY_PLAYED)


def test_a_decoy_before_the_hint_is_refused():
    game = a_room().in_hint()
    seat = game.others()[0]
    refused(game, PlayDecoy(user_id=user(seat), card=game.hand(seat)[0]), ErrorCode.WRONG_PHASE)


def test_someone_not_in_the_game_is_refused():
    game = a_room().in_decoys()
    refused(game, PlayDecoy(user_id=4242, card=1), ErrorCode.NOT_IN_GAME)


def test_the_last_decoy_opens_voting_with_a_seeded_shuffled_table():
    game = a_room().in_decoys()
    events = game.play_decoys().events
    opened = [e for e in events if isinstance(e, VotingOpened)]
    assert len(opened) == 1 and phase_of(game.room) is Phase.VOTING
    assert sorted(game.round.table) == sorted(game.round.plays.values())
    again = a_room().in_voting()
    assert again.round.table == game.round.table


def test_voting_for_your_own_decoy_is_refused():
    game = a_room().in_voting()
    seat = game.others()[0]
    refused(game, Vote(user_id=user(seat), card=game.card_of(seat)), Refusal.OWN_CARD)


def test_the_storyteller_cannot_vote():
    game = a_room().in_voting()
    teller = game.storyteller()
    refused(
        game,
        Vote(user_id=user(teller), card=game.card_of(game.others()[0])),
        ErrorCode.STORYTELLER_CANNOT_VOTE,
    )


def test_a_vote_for_a_card_not_on_the_table_is_refused():
    game = a_room().in_voting()
    seat = game.others()[0]
    refused(game, Vote(user_id=user(seat), card=game.hand(seat)[0]), Refusal.CARD_NOT_ON_TABLE)


def test_a_vote_may_change_while_voting_is_open_but_not_to_the_same_card():
    game = a_room().in_voting()
    a, b, c = game.others()
    game.vote(a, b)
    game.do(Vote(user_id=user(a), card=game.card_of(c)))
    assert isinstance(game.events[0], VoteCast) and game.events[0].changed
    assert game.round.votes[a] == game.card_of(c)
    refused(game, Vote(user_id=user(a), card=game.card_of(c)), Refusal.SAME_VOTE)


def test_voting_closes_on_the_last_eligible_vote_and_scores():
    game = a_room().in_voting()
    teller = game.storyteller()
    a, b, c = game.others()
    game.vote(a, teller).vote(b, teller)
    assert phase_of(game.room) is Phase.VOTING
    game.vote(c, a)
    scored = [e for e in game.events if isinstance(e, RoundScored)]
    assert len(scored) == 1 and phase_of(game.room) is Phase.REVEAL
    assert scored[0].points == {teller: 3, a: 4, b: 3, c: 0}
    assert own_seats(game.room)[a].finds == 1 and own_seats(game.room)[a].stolen == 1
    assert game.room.seats[teller].score == 3


def test_after_scoring_hands_are_refilled_and_table_cards_discarded():
    game = a_room().in_voting()
    table = list(game.round.table)
    teller = game.storyteller()
    for seat in game.others():
        game.vote(seat, teller)
    assert all(len(s.hand) == 6 for s in own_seats(game.room))
    assert set(table) <= set(state_of(game.room).discard)
    assert sorted(card_locations(game.room)) == list(range(283))


def test_the_reveal_timer_starts_the_next_turn_in_seat_order():
    game = a_room().in_voting()
    teller = game.storyteller()
    for seat in game.others():
        game.vote(seat, teller)
    game.time_out()
    assert phase_of(game.room) is Phase.HINT
    assert game.storyteller() == (teller + 1) % 4
    assert game.round.no == 2


def test_the_draw_pile_is_reshuffled_from_the_discard_pile_when_it_runs_out():
    game = a_room().with_players(8).with_settings(hand_size=8, rotations=5).in_hint()
    reshuffled = False
    for _ in range(30):
        game.give_hint().play_decoys()
        for seat in game.others():
            game.vote(seat, game.storyteller())
        reshuffled = reshuffled or any(e.kind == "deck_reshuffled" for e in game.events)
        assert sorted(card_locations(game.room)) == list(range(283))
        game.time_out()
    assert reshuffled


def test_a_button_of_another_round_is_refused_as_stale():
    game = a_room().in_voting()
    seat = game.others()[0]
    target = game.card_of(game.storyteller())
    refused(game, Vote(user_id=user(seat), card=target, round_no=2), ErrorCode.STALE)
    game.do(Vote(user_id=user(seat), card=target, round_no=1))
    assert game.round.votes[seat] == target
