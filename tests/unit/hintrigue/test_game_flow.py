"""Turns, the end of the game, standings, leaving, late joining, abandon and replay."""

import pytest

from engine.commands import ComeBack, Join, Leave, StopGame
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.commands import PlayDecoy
from engine.games.hintrigue.events import GameAbandoned, GameFinished, RoundVoided
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of, state_of
from engine.games.hintrigue.turns import next_storyteller, standings, winners
from engine.model import Phase as TablePhase
from engine.model import Seat, SeatStatus
from tests.builders import a_room, card_locations, user
from tests.table import apply


def refused(game, command, code):
    before = game.room.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.room, command, game.now)
    assert caught.value.code is code
    assert game.room.model_dump_json() == before


def play_round(game, finder_count=1):
    game.give_hint().play_decoys()
    teller = game.storyteller()
    others = game.others()
    for n, seat in enumerate(others):
        game.vote(seat, teller if n < finder_count else others[(n + 1) % len(others)])
    game.time_out()


def test_the_game_ends_after_the_configured_rotations():
    game = a_room().with_players(4).with_settings(rotations=2).in_hint()
    storytellers = []
    while phase_of(game.room) is Phase.HINT:
        storytellers.append(game.storyteller())
        play_round(game)
    assert game.room.phase is TablePhase.FINISHED
    first = storytellers[0]
    assert storytellers == [(first + k) % 4 for k in range(8)]
    assert any(isinstance(e, GameFinished) for e in game.events)


def test_a_voided_round_uses_up_the_storytellers_turn():
    game = a_room().with_players(3).with_settings(rotations=1).in_hint()
    game.time_out()
    play_round(game)
    play_round(game)
    assert game.room.phase is TablePhase.FINISHED


def test_the_rotation_counts_when_the_walk_passes_a_skipped_first_storyteller():
    game = a_room().with_players(5).with_settings(rotations=2).in_hint()
    room = game.room.model_copy(deep=True)
    first = state_of(room).first_storyteller
    room.seats[first].status = SeatStatus.LEFT
    assert next_storyteller(room, (first - 1) % 5) == ((first + 1) % 5, 1)


def test_the_last_turn_is_flagged_and_closes_late_joining():
    game = a_room().with_players(3).with_settings(rotations=1).in_hint()
    play_round(game)
    assert not game.round.last
    game.do(Join(user_id=900, name="Late"))
    rounds = 1
    while not game.round.last:
        play_round(game)
        rounds += 1
    assert rounds >= 2 and phase_of(game.room) is Phase.HINT
    refused(game, Join(user_id=901, name="Later"), ErrorCode.TOO_LATE_TO_JOIN)


def test_a_late_joiner_is_dealt_a_hand_and_plays_from_the_next_round():
    game = a_room().with_players(3).with_settings(rotations=2).in_decoys()
    game.do(Join(user_id=900, name="Late"))
    late = game.room.seat_of(900)
    assert len(game.hand(late)) == 6 and late not in game.round.participants
    game.play_decoys()
    for seat in game.others():
        game.vote(seat, game.storyteller())
    game.time_out()
    assert late in game.round.participants
    assert sorted(card_locations(game.room)) == list(range(283))


def test_standings_order_by_points_then_finds_then_stolen_then_seat():
    game = a_room().with_players(4).in_hint()
    room = game.room
    stats = [(5, 1, 0), (5, 1, 2), (5, 2, 0), (7, 0, 0)]
    for seat, own, (score, finds, stolen) in zip(room.seats, own_seats(room), stats, strict=True):
        seat.score, own.finds, own.stolen = score, finds, stolen
    assert standings(room) == [3, 2, 1, 0]


def test_tied_top_totals_are_co_winners_and_left_seats_cannot_win():
    game = a_room().with_players(4).in_hint()
    room = game.room
    for seat, score in zip(room.seats, [9, 7, 9, 12], strict=True):
        seat.score = score
    own_seats(room)[0].finds = 5
    room.seats[3].status = SeatStatus.LEFT
    assert winners(room) == [0, 2]


def test_a_storyteller_leaving_before_voting_voids_the_round():
    game = a_room().with_players(4).in_decoys()
    teller = game.storyteller()
    decoy_seat = game.others()[0]
    decoy = game.hand(decoy_seat)[0]
    game.do(PlayDecoy(user_id=user(decoy_seat), card=decoy))
    game.do(Leave(user_id=user(teller)))
    assert any(isinstance(e, RoundVoided) and e.reason == "storyteller_left" for e in game.events)
    assert decoy in game.hand(decoy_seat)
    assert own_seats(game.room)[teller].hand == [] and phase_of(game.room) is Phase.HINT
    assert sorted(card_locations(game.room)) == list(range(283))


def test_a_storyteller_leaving_during_voting_still_gets_its_points():
    game = a_room().with_players(4).in_voting()
    teller = game.storyteller()
    a, b, c = game.others()
    game.do(Leave(user_id=user(teller)))
    game.vote(a, teller).vote(b, c).vote(c, b)
    assert game.room.seats[teller].score == 3
    assert game.room.seats[teller].status is SeatStatus.LEFT


def test_a_leaving_voter_keeps_its_decoy_on_the_table_but_loses_its_vote():
    game = a_room().with_players(5).in_voting()
    teller = game.storyteller()
    a, b, c, d = game.others()
    game.vote(a, teller)
    game.do(Leave(user_id=user(a)))
    assert a not in game.round.votes
    game.vote(b, a).vote(c, teller).vote(d, teller)
    assert game.round.points[a] == 1
    assert game.round.points[teller] == 3


def test_a_player_who_left_cannot_rejoin():
    game = a_room().with_players(4).in_hint()
    game.do(Leave(user_id=user(3)))
    refused(game, Join(user_id=user(3), name="Again"), ErrorCode.HAS_LEFT)
    refused(game, Leave(user_id=user(3)), ErrorCode.HAS_LEFT)


def test_fewer_than_three_active_seats_abandon_the_game_and_drop_the_round():
    game = a_room().with_players(3).in_decoys()
    other = game.others()[0]
    game.do(Leave(user_id=user(other)))
    abandoned = [e for e in game.events if isinstance(e, GameAbandoned)]
    assert abandoned and abandoned[0].reason == "too_few_players"
    assert game.room.phase is TablePhase.ABANDONED
    assert sorted(card_locations(game.room)) == list(range(283))
    refused(game, ComeBack(user_id=user(0)), ErrorCode.NO_GAME)


def test_stop_ends_the_game_without_a_winner_for_the_creator_or_admin_only():
    game = a_room().with_players(4).in_voting()
    refused(game, StopGame(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(StopGame(user_id=user(0)))
    assert game.room.phase is TablePhase.ABANDONED and game.room.end_reason == "stopped"


def test_the_same_seed_and_commands_replay_byte_for_byte():
    def playthrough():
        game = a_room().with_players(5).with_seed(99).with_settings(rotations=1).in_hint()
        log = []
        while phase_of(game.room) is Phase.HINT:
            play_round(game, finder_count=2)
            log.append(game.room.model_dump_json())
            log.extend(e.model_dump_json() for e in game.events)
        return log

    assert playthrough() == playthrough()


def test_a_seat_in_the_state_round_trips_through_json():
    seat = Seat(user_id=1, name="<b>x</b>", hand=[1, 2])
    assert Seat.model_validate_json(seat.model_dump_json()) == seat


def _containers(model, path="room"):
    """Every list and dict reachable from a model, with where it sits."""
    from pydantic import BaseModel

    found = []
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            found += _containers(value, f"{path}.{name}")
        elif isinstance(value, list | dict):
            found.append((f"{path}.{name}", value))
            items = value if isinstance(value, list) else value.values()
            for n, item in enumerate(items):
                if isinstance(item, BaseModel):
                    found += _containers(item, f"{path}.{name}[{n}]")
    return found


def test_a_cloned_room_shares_no_mutable_container_with_the_original():
    game = a_room().with_players(5).in_voting()
    game.vote(game.others()[0], game.storyteller())
    round_of(game.room).points = {0: 1}
    original, copy = _containers(game.room), _containers(game.room.clone())
    assert [p for p, _ in original] == [p for p, _ in copy]
    shared = [p for (p, a), (_, b) in zip(original, copy, strict=True) if a is b]
    assert shared == []
    assert game.room.clone() == game.room
