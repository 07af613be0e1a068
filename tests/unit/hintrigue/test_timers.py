"""Timers and missed actions: void rounds, spectators, automatic decoys, missed votes, skip."""

import pytest

from engine.commands import ComeBack, MarkUnreachable, Skip, Timeout
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import (
    DecoyPlayed,
    RoundVoided,
    SeatReturned,
    SeatSpectating,
    SeatUnreachable,
)
from engine.games.hintrigue.model import Phase, own_seats, phase_of
from engine.model import Phase as TablePhase
from engine.model import SeatStatus
from tests.builders import a_room, card_locations, user
from tests.table import apply


def refused(game, command, code):
    before = game.room.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.room, command, game.now)
    assert caught.value.code is code
    assert game.room.model_dump_json() == before


def test_a_missed_hint_voids_the_round_and_moves_no_card():
    game = a_room().in_hint()
    teller = game.storyteller()
    game.do(ChooseCard(user_id=user(teller), card=game.hand(teller)[2]))
    hands = [list(s.hand) for s in own_seats(game.room)]
    scores = [s.score for s in game.room.seats]
    game.time_out()
    assert any(isinstance(e, RoundVoided) and e.reason == "missed_hint" for e in game.events)
    assert [s.hand for s in own_seats(game.room)] == hands
    assert [s.score for s in game.room.seats] == scores
    assert phase_of(game.room) is Phase.HINT and game.storyteller() == (teller + 1) % 4


def test_a_timer_fired_before_its_deadline_changes_nothing():
    game = a_room().in_hint()
    game.now = game.room.deadline - 0.01
    refused(game, Timeout(round_no=1, phase=Phase.HINT), ErrorCode.TOO_EARLY)


def test_a_timer_for_a_phase_the_room_has_left_changes_nothing():
    game = a_room().in_decoys()
    game.now += 10_000
    refused(game, Timeout(round_no=1, phase=Phase.HINT), ErrorCode.STALE)
    refused(game, Timeout(round_no=7, phase=Phase.DECOYS), ErrorCode.STALE)


def test_with_timers_off_no_player_action_times_out():
    game = a_room().with_settings(timers=False).in_hint()
    assert game.room.deadline is None
    game.now += 10_000
    refused(game, Timeout(round_no=1, phase=Phase.HINT), ErrorCode.STALE)


def test_with_timers_off_the_presentation_still_runs():
    game = a_room().with_settings(timers=False).in_voting()
    for seat in game.others():
        game.vote(seat, game.storyteller())
    assert game.room.deadline == game.now + 8
    game.time_out()
    assert phase_of(game.room) is Phase.HINT and game.round.no == 2


def test_skip_applies_the_timeout_rule_once_for_the_creator_or_an_admin():
    game = a_room().with_settings(timers=False).in_decoys()
    not_creator = next(i for i in game.others() if user(i) != game.room.creator)
    refused(game, Skip(user_id=user(not_creator)), ErrorCode.NOT_ALLOWED)
    game.do(Skip(user_id=999, is_admin=True))
    assert sum(isinstance(e, DecoyPlayed) and e.auto for e in game.events) == 3
    assert phase_of(game.room) is Phase.VOTING


def test_two_missed_hints_in_a_row_make_the_storyteller_spectate_and_may_abandon():
    game = a_room().with_players(3).with_settings(rotations=3).in_hint()
    sleeper = game.storyteller()
    game.time_out()
    for _ in range(2):
        game.give_hint().play_decoys()
        for seat in game.others():
            game.vote(seat, game.storyteller())
        game.time_out()
    assert game.storyteller() == sleeper
    game.time_out()
    assert any(isinstance(e, SeatSpectating) for e in game.events)
    assert game.room.phase is TablePhase.ABANDONED  # three seats, one spectating: too few


def test_a_spectator_comes_back_from_the_next_round_on_its_next_action():
    game = a_room().with_players(4).with_settings(rotations=3).in_hint()
    sleeper = game.storyteller()
    for _ in range(4):  # one miss, then three played rounds, back to the sleeper
        if game.storyteller() == sleeper:
            game.time_out()
            continue
        game.give_hint().play_decoys()
        for seat in game.others():
            game.vote(seat, game.storyteller())
        game.time_out()
    assert game.storyteller() == sleeper
    game.time_out()
    assert any(isinstance(e, SeatSpectating) and e.seat == sleeper for e in game.events)
    assert game.room.seats[sleeper].status is SeatStatus.SPECTATING
    assert sleeper not in game.round.participants
    game.give_hint().play_decoys()
    voter = game.others()[0]
    refused(game, ComeBack(user_id=user(voter)), ErrorCode.NOT_SPECTATING)
    events = game.do(Vote(user_id=user(sleeper), card=game.round.table[0]))
    assert events == [SeatReturned(seat=sleeper)]
    assert game.room.seats[sleeper].status is SeatStatus.PLAYING
    assert sleeper not in game.round.votes


def test_missing_decoys_are_chosen_at_random_from_the_missing_hands():
    game = a_room().in_decoys()
    first = game.others()[0]
    game.do(PlayDecoy(user_id=user(first), card=game.hand(first)[0]))
    game.time_out()
    autos = [e for e in game.events if isinstance(e, DecoyPlayed) and e.auto]
    assert sorted(e.seat for e in autos) == sorted(game.others()[1:])
    assert phase_of(game.room) is Phase.VOTING
    assert sorted(card_locations(game.room)) == list(range(283))


def test_missed_votes_do_not_count_but_their_decoys_still_earn():
    game = a_room().in_voting()
    teller = game.storyteller()
    a, b, c = game.others()
    game.vote(a, c).vote(b, teller)
    game.time_out()
    assert game.round.points == {teller: 3, a: 0, b: 3, c: 1}


def test_an_unreachable_storyteller_voids_the_round_and_counts_a_miss():
    game = a_room().in_hint()
    teller = game.storyteller()
    game.do(MarkUnreachable(user_id=user(teller), round_no=1, phase=Phase.HINT))
    assert any(isinstance(e, SeatUnreachable) for e in game.events)
    assert any(isinstance(e, RoundVoided) and e.reason == "unreachable" for e in game.events)
    assert own_seats(game.room)[teller].missed_hints == 1


def test_an_unreachable_decoy_seat_gets_its_decoy_chosen():
    game = a_room().in_decoys()
    seat = game.others()[1]
    game.do(MarkUnreachable(user_id=user(seat), round_no=1, phase=Phase.DECOYS))
    assert seat in game.round.plays and seat in game.round.auto
    refused(
        game, MarkUnreachable(user_id=user(seat), round_no=1, phase=Phase.DECOYS), ErrorCode.STALE
    )
