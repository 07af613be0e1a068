"""Every row of the points table, and its edge cases."""

from engine.games.hintrigue.scoring import score_round

# Seat 0 is the storyteller with card 10; seats 1-3 played decoys 11-13.
PLAYS = {0: 10, 1: 11, 2: 12, 3: 13}


def test_some_but_not_all_finders_give_storyteller_and_finders_three():
    points, finders = score_round(0, PLAYS, {1: 10, 2: 11, 3: 10})
    assert finders == [1, 3]
    assert points == {0: 3, 1: 4, 2: 0, 3: 3}


def test_nobody_finding_gives_each_voter_two_and_storyteller_nothing():
    points, finders = score_round(0, PLAYS, {1: 12, 2: 13, 3: 11})
    assert finders == []
    assert points == {0: 0, 1: 3, 2: 3, 3: 3}


def test_everybody_finding_gives_each_voter_two_and_storyteller_nothing():
    points, finders = score_round(0, PLAYS, {1: 10, 2: 10, 3: 10})
    assert finders == [1, 2, 3]
    assert points == {0: 0, 1: 2, 2: 2, 3: 2}


def test_no_voters_at_all_gives_nobody_anything():
    points, finders = score_round(0, PLAYS, {})
    assert finders == []
    assert points == {0: 0, 1: 0, 2: 0, 3: 0}


def test_a_decoy_earns_for_a_seat_that_did_not_vote():
    points, _ = score_round(0, PLAYS, {1: 13, 2: 10})
    assert points[3] == 1
    assert points == {0: 3, 1: 0, 2: 3, 3: 1}


def test_decoy_points_are_not_capped():
    plays = {0: 10, 1: 11, 2: 12, 3: 13, 4: 14, 5: 15}
    points, _ = score_round(0, plays, {2: 11, 3: 11, 4: 11, 5: 11, 1: 10})
    assert points[1] == 3 + 4


def test_a_single_voter_who_finds_is_every_voter_so_gets_two():
    points, finders = score_round(0, PLAYS, {1: 10})
    assert finders == [1]
    assert points == {0: 0, 1: 2, 2: 0, 3: 0}
