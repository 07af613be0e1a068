"""Hues and Cues: one test per rule (SPEC 11.3, with section 6 read for this game)."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.huescues import board
from engine.games.huescues.commands import (
    COMMAND_ADAPTER,
    ChooseCell,
    ChooseColour,
    ComeBack,
    Command,
    ConfirmCone,
    GiveCue,
    Join,
    Leave,
    MarkUnreachable,
    NoSecondCue,
    Skip,
    StopGame,
    Timeout,
)
from engine.games.huescues.errors import Refusal
from engine.games.huescues.events import (
    EVENT_ADAPTER,
    FirstConesShown,
    GameAbandoned,
    GameFinished,
    GuessClosed,
    RoundScored,
    RoundVoided,
    SecondCueSkipped,
    TieBreak,
)
from engine.games.huescues.model import Phase, Settings, State
from engine.games.huescues.rules import apply, start
from engine.games.huescues.scoring import score_round
from engine.games.huescues.turns import standings, winners
from engine.games.huescues.views import group_view, seat_view
from engine.model import SeatStatus
from tests.huescues_builders import Game, a_game, user


def refused(game: Game, command: Command, code: ErrorCode) -> None:
    """The command is refused with `code`, and the game is exactly as it was."""
    before = game.state.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.state, command, game.now)
    assert caught.value.code is code, caught.value
    assert game.state.model_dump_json() == before


def kinds(game: Game) -> list[str]:
    return [event.kind for event in game.events]


def scores(game: Game) -> list[int]:
    return [seat.score for seat in game.state.seats]


def far(cell: int) -> int:
    """A cell eight rows away from `cell` (no points)."""
    row, column = divmod(cell, board.COLUMNS)
    return board.at((row + 8) % 16, column)


def scored(game: Game) -> RoundScored:
    found = [e for e in game.events if isinstance(e, RoundScored)]
    assert found, kinds(game)
    return found[0]


def play_round(game: Game, first: dict[int, int], cell: int | None = None) -> Game:
    """A round: the colour, a cue, the given first cones, no second cue."""
    game.cue(cell=cell)
    game.cones(first)
    return game.no_second()


def zero_round(game: Game) -> Game:
    """A round in which every guesser puts its cone far away: nobody scores."""
    game.cue()
    assert game.round.colour is not None
    game.cones({seat: far(game.round.colour) for seat in game.guessers()})
    game.no_second()
    return game.time_out()


# Start, cards and the colour


def test_a_game_starts_with_a_random_cue_giver_who_draws_a_card_of_four_colours():
    game = a_game().with_players(5).in_cue()
    state = game.state
    assert [s.user_id for s in state.seats] == [user(i) for i in range(5)]
    assert game.giver() == state.first_giver and game.round.no == 1
    assert kinds(game) == ["game_started", "round_started", "card_drawn"]
    assert len(state.card_cells()) == 4
    assert game.events[-1].cells == state.card_cells()  # type: ignore[union-attr]
    givers = {a_game().with_seed(seed).in_cue().giver() for seed in range(12)}
    assert len(givers) > 1, "the first cue giver is drawn from the seed"


def test_the_480_cells_are_dealt_into_120_cards_of_four_and_drawn_cards_are_discarded():
    game = a_game().in_cue()
    state = game.state
    assert len(state.cards) == 120 and all(len(card) == 4 for card in state.cards)
    assert sorted(cell for card in state.cards for cell in card) == list(range(480))
    assert sorted(state.draw + state.discard) == list(range(120))
    assert state.discard == [game.round.card]
    other = a_game().with_seed(8).in_cue().state
    assert other.cards != state.cards, "the seeded generator deals"


def test_the_draw_pile_is_reshuffled_from_the_discards_when_it_runs_out():
    game = a_game().with_players(3).with_settings(turns=3, timers=False).in_cue()
    state = game.state.model_copy(update={"draw": [], "discard": list(range(120))})
    game.state = state
    game.do(Skip(user_id=user(0), is_admin=True))  # a void round: the next one draws
    assert "deck_reshuffled" in kinds(game)
    assert len(game.state.draw) == 119 and game.state.discard == [game.round.card]


def test_the_colour_is_one_of_the_card_s_four_and_may_change_until_the_cue():
    game = a_game().in_cue()
    card = game.state.card_cells()
    giver = game.uid(game.giver())
    outside = next(cell for cell in range(480) if cell not in card)
    refused(game, ChooseColour(user_id=giver, cell=outside), Refusal.COLOUR_NOT_ON_CARD)
    refused(game, ChooseColour(user_id=giver, cell=480), Refusal.NOT_A_CELL)
    other = game.uid(next(i for i in range(4) if i != game.giver()))
    refused(game, ChooseColour(user_id=other, cell=card[0]), Refusal.NOT_CUE_GIVER)
    game.colour(card[0]).colour(card[2])
    assert game.round.colour == card[2]
    assert kinds(game) == ["colour_chosen"]
    game.say("lavender")
    refused(game, ChooseColour(user_id=giver, cell=card[1]), ErrorCode.WRONG_PHASE)
    assert game.round.colour == card[2]


def test_with_free_choice_no_card_is_drawn_and_any_cell_may_be_chosen():
    game = a_game().with_settings(free_choice=True).in_cue()
    assert game.round.card is None and game.state.card_cells() == []
    assert "card_drawn" not in kinds(game)
    game.colour(0).colour(479)
    assert game.round.colour == 479


def test_the_cue_needs_a_colour_first_and_comes_from_the_cue_giver():
    game = a_game().in_cue()
    giver = game.uid(game.giver())
    refused(game, GiveCue(user_id=giver, text="pig"), Refusal.NO_COLOUR_CHOSEN)
    game.colour()
    other = game.uid(next(i for i in range(4) if i != game.giver()))
    refused(game, GiveCue(user_id=other, text="pig"), Refusal.NOT_CUE_GIVER)
    game.say("  pig ")
    assert game.round.cues == ["pig"] and game.state.phase is Phase.GUESS
    assert kinds(game) == ["cue_given"]


# Cues: words


def test_the_first_cue_is_one_word_and_the_second_one_or_two():
    game = a_game().in_cue().colour()
    giver = game.uid(game.giver())
    refused(game, GiveCue(user_id=giver, text="candy floss"), Refusal.CUE_ONE_WORD)
    refused(game, GiveCue(user_id=giver, text="   "), Refusal.CUE_EMPTY)
    refused(game, GiveCue(user_id=giver, text="x" * 61), Refusal.CUE_TOO_LONG)
    game.say("pig")
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, GiveCue(user_id=giver, text="candy floss pink"), Refusal.CUE_TWO_WORDS)
    refused(game, GiveCue(user_id=giver, text="candy floss sugar"), Refusal.CUE_TWO_WORDS)
    game.say("candy  floss")
    assert game.round.cues == ["pig", "candy floss"]
    assert game.state.phase is Phase.SECOND_GUESS


@pytest.mark.parametrize(
    "word", ["rock'n'roll", "o'clock", "l’eau", "Sankt-Peterburg", "R2D2", "Ärger",
             "Ёлка", "बादल", "x" * 60]
)  # fmt: skip
def test_a_word_is_letters_or_digits_joined_by_hyphens_or_apostrophes(word):
    game = a_game().in_cue().colour()
    game.say(word)
    assert game.round.cues == [word]


@pytest.mark.parametrize(
    "word", ["sky!", "-sky", "sky-", "sea--side", "sea'-side", "'sky", "a_b", "sky.", "🌊",
             "sea\u200bside", "(sky)"]
)  # fmt: skip
def test_anything_else_is_not_a_word(word):
    game = a_game().in_cue().colour()
    refused(game, GiveCue(user_id=game.uid(game.giver()), text=word), Refusal.CUE_NOT_WORDS)


# Cues: coordinates and repetitions


@pytest.mark.parametrize(
    "cue", ["A", "p", "h", "1", "15", "30", "H15", "h15", "15H", "15h", "Н15", "h-15", "Р30",
            "а"]
)  # fmt: skip
def test_a_row_letter_a_column_number_or_a_cell_is_refused(cue):
    game = a_game().in_cue().colour()
    refused(game, GiveCue(user_id=game.uid(game.giver()), text=cue), Refusal.CUE_COORDINATE)


@pytest.mark.parametrize("cue", ["Q", "z", "0", "31", "99", "H31", "Q15", "H15H"])
def test_letters_and_numbers_that_name_no_row_column_or_cell_are_cues(cue):
    game = a_game().in_cue().colour()
    game.say(cue)
    assert game.round.cues == [cue]


def test_a_second_cue_with_a_coordinate_is_refused_too():
    game = a_game().in_guess()
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, GiveCue(user_id=game.uid(game.giver()), text="pig 15"), Refusal.CUE_COORDINATE)


def test_a_cue_given_earlier_in_the_game_is_refused_whatever_its_case():
    game = a_game().in_cue()
    game.cue("Lavender")
    giver = game.uid(game.giver())
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, GiveCue(user_id=giver, text="lavender"), Refusal.CUE_REPEATED)
    game.say("LAVENDER fields")
    game.time_out().time_out()  # the second guess, then the reveal
    refused(game.colour(), GiveCue(user_id=game.uid(game.giver()), text="LAVENDER"),
            Refusal.CUE_REPEATED)  # fmt: skip
    game.say("moss")
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, GiveCue(user_id=game.uid(game.giver()), text="lavender  FIELDS"),
            Refusal.CUE_REPEATED)  # fmt: skip
    refused(game, GiveCue(user_id=game.uid(game.giver()), text="Moss"), Refusal.CUE_REPEATED)
    game.say("lavenders")
    assert game.round.cues == ["moss", "lavenders"]


def test_repetitions_compare_e_and_yo_as_one_letter():
    game = a_game().in_language("ru").with_settings(timers=False).in_cue()
    game.cue("ёлка")
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, GiveCue(user_id=game.uid(game.giver()), text="ЕЛКА"), Refusal.CUE_REPEATED)


# Guesses


def test_a_cone_is_chosen_changed_then_confirmed_and_stays_hidden_until_its_phase_closes():
    game = a_game().in_guess()
    first, second, third = game.guessers()
    game.cone(first, 10, confirm=False).cone(first, 11, confirm=False)
    assert game.round.choices == {first: 11}
    assert kinds(game) == ["cell_chosen"]
    view = group_view(game.state)
    assert view.placed == [] and view.cones == {}
    assert seat_view(game.state, first).choice == 11
    game.do(ConfirmCone(user_id=game.uid(first)))
    assert game.round.cones == {first: 11} and kinds(game) == ["cone_confirmed"]
    view = group_view(game.state)
    assert view.placed == [first] and view.cones == {} and view.waiting_for == [second, third]
    assert "11" not in view.model_dump_json().replace(f'"index":{first}', "")
    refused(game, ChooseCell(user_id=game.uid(first), cell=12), ErrorCode.GUESS_FINAL)
    refused(game, ConfirmCone(user_id=game.uid(second)), Refusal.NO_CELL_CHOSEN)
    refused(game, ChooseCell(user_id=game.uid(game.giver()), cell=3),
            Refusal.GIVER_DOES_NOT_GUESS)  # fmt: skip
    refused(game, ChooseCell(user_id=game.uid(second), cell=-1), Refusal.NOT_A_CELL)


def test_cones_of_one_phase_may_share_a_cell_and_the_first_cones_are_then_shown():
    game = a_game().in_guess()
    seats = game.guessers()
    game.cones({seat: 200 for seat in seats})
    shown = [e for e in game.events if isinstance(e, FirstConesShown)]
    assert shown and shown[0].cones == {seat: 200 for seat in seats}
    assert game.state.phase is Phase.SECOND_CUE
    assert group_view(game.state).cones == {seat: 200 for seat in seats}
    assert group_view(game.state).waiting_for == [game.giver()]


def test_a_second_cone_may_not_go_on_a_cell_holding_a_first_cone():
    game = a_game().in_guess()
    a, b, c = game.guessers()
    game.cones({a: 100, b: 101, c: 101})
    game.say("candy floss")
    refused(game, ChooseCell(user_id=game.uid(a), cell=100), Refusal.CELL_HAS_FIRST_CONE)
    refused(game, ChooseCell(user_id=game.uid(a), cell=101), Refusal.CELL_HAS_FIRST_CONE)
    game.cone(a, 102).cone(b, 102)  # second cones may share a cell too
    assert seat_view(game.state, c).first_cones == {a: 100, b: 101, c: 101}


def test_a_cell_chosen_but_not_confirmed_is_placed_as_the_cone_when_time_runs_out():
    game = a_game().in_guess()
    a, b, c = game.guessers()
    game.cone(a, 5).cone(b, 6, confirm=False)
    game.time_out()
    assert game.round.cones == {a: 5, b: 6} and game.round.choices == {}
    assert game.state.phase is Phase.SECOND_CUE
    closed = game.events[0]
    assert isinstance(closed, GuessClosed) and not closed.second
    assert (closed.unconfirmed, closed.missing) == ([b], [c])
    shown = next(e for e in game.events if isinstance(e, FirstConesShown))
    assert shown.cones == {a: 5, b: 6}


def test_a_second_cell_chosen_but_not_confirmed_scores_when_skip_closes_the_guess():
    game = a_game().in_guess()
    a, b, c = game.guessers()
    colour = game.round.colour
    assert colour is not None
    game.cones({a: far(colour), b: far(colour), c: far(colour)})
    game.say("candy floss")
    game.cone(a, colour, confirm=False).cone(b, far(colour) + 1)
    game.do(Skip(user_id=game.uid(0)))
    closed = game.events[0]
    assert isinstance(closed, GuessClosed) and closed.second
    assert (closed.unconfirmed, closed.missing) == ([a], [c])
    assert game.round.second_cones == {a: colour, b: far(colour) + 1}
    assert scored(game).points[a] == 3 and game.state.seats[a].exact == 1


def test_a_guess_every_guesser_confirmed_closes_without_a_guess_closed_event():
    game = a_game().in_guess()
    game.cones({seat: 7 for seat in game.guessers()})
    assert "guess_closed" not in kinds(game) and game.state.phase is Phase.SECOND_CUE


# The second cue skipped


def test_no_second_cue_by_the_button_goes_to_the_reveal_without_second_guesses():
    game = a_game().in_guess()
    game.cones({seat: 0 for seat in game.guessers()})
    refused(game, NoSecondCue(user_id=game.uid(game.guessers()[0])), Refusal.NOT_CUE_GIVER)
    game.no_second()
    assert kinds(game)[:2] == ["second_cue_skipped", "round_scored"]
    assert game.events[0].reason == "declined"  # type: ignore[union-attr]
    assert game.state.phase is Phase.REVEAL and game.round.second_cones == {}
    assert group_view(game.state).second_skipped


@pytest.mark.parametrize("how", ["timeout", "skip"])
def test_a_missed_or_skipped_second_cue_is_neither_a_void_nor_a_miss(how):
    game = a_game().in_guess()
    giver = game.giver()
    game.cones({seat: game.round.colour for seat in game.guessers()})
    before = scores(game)
    if how == "timeout":
        game.time_out()
    else:
        game.later(3).do(Skip(user_id=user(0)))
    skipped = [e for e in game.events if isinstance(e, SecondCueSkipped)]
    assert skipped and skipped[0].reason == ("timeout" if how == "timeout" else "skipped")
    assert not any(isinstance(e, RoundVoided) for e in game.events)
    assert game.state.seats[giver].missed == 0
    assert scores(game)[giver] == before[giver] + 3  # three exact cones, the round counts


# Points


@pytest.mark.parametrize(("rows", "points"), [(0, 3), (1, 2), (2, 1), (3, 0), (7, 0)])
def test_each_cone_scores_by_its_distance_from_the_colour(rows, points):
    colour = board.at(7, 14)  # H15
    game = a_game().with_settings(free_choice=True).in_guess(cell=colour)
    a, b, c = game.guessers()
    game.cones({a: board.at(7 + rows, 14 - min(rows, 2)), b: far(colour), c: far(colour)})
    game.no_second()
    assert scored(game).points[a] == points
    assert scored(game).points[game.giver()] == (1 if rows <= 1 else 0)


def test_both_cones_of_a_seat_score_and_exact_hits_are_counted_per_cone():
    colour = board.at(7, 14)
    game = a_game().with_settings(free_choice=True).in_guess(cell=colour)
    a, b, c = game.guessers()
    game.cones({a: colour, b: colour + 1, c: far(colour)})
    game.say("deep sea")
    game.cones({a: colour - 1, b: colour - 31, c: colour + 62})
    event = scored(game)
    assert event.points == {game.giver(): 4, a: 5, b: 4, c: 1}
    assert event.exact == [a]
    assert game.state.seats[a].exact == 1 and game.state.seats[b].exact == 0
    assert group_view(game.state).colour == colour
    assert group_view(game.state).second_cones == {a: colour - 1, b: colour - 31, c: colour + 62}


def test_the_frame_is_clipped_at_an_edge():
    colour = board.at(0, 14)  # A15
    assert len(board.around(colour, 1)) == 6 and len(board.around(colour, 2)) == 15
    game = a_game().with_settings(free_choice=True).in_guess(cell=colour)
    a, b, c = game.guessers()
    game.cones({a: board.at(0, 13), b: board.at(1, 15), c: board.at(2, 16)})
    game.no_second()
    assert scored(game).points == {game.giver(): 2, a: 2, b: 2, c: 1}


def test_the_frame_is_clipped_at_a_corner_and_the_board_does_not_wrap():
    colour = board.at(0, 29)  # A30
    assert len(board.around(colour, 1)) == 4
    game = a_game().with_settings(free_choice=True).in_guess(cell=colour)
    a, b, c = game.guessers()
    game.cones({a: board.at(1, 28), b: board.at(0, 0), c: board.at(15, 29)})
    game.say("deep sea")
    game.cones({a: board.at(2, 27), b: board.at(1, 0), c: colour})
    assert scored(game).points == {game.giver(): 2, a: 3, b: 0, c: 3}


def test_the_cue_giver_scores_double_per_close_cone_with_exactly_two_guessers():
    colour = board.at(5, 5)
    game = a_game().with_players(3).with_settings(free_choice=True).in_guess(cell=colour)
    a, b = game.guessers()
    game.cones({a: colour, b: colour + 1})
    game.say("deep sea")
    game.cones({a: colour + 2, b: colour + 30})
    assert scored(game).points == {game.giver(): 6, a: 4, b: 4}
    four = a_game().with_players(4).with_settings(free_choice=True).in_guess(cell=colour)
    x, y, z = four.guessers()
    four.cones({x: colour, y: colour + 1, z: colour + 30}).no_second()
    assert scored(four).points[four.giver()] == 3


def test_the_cue_giver_scores_at_most_nine_a_round():
    colour = board.at(8, 8)
    game = a_game().with_players(10).with_settings(free_choice=True).in_guess(cell=colour)
    frame = board.around(colour, 1)
    game.cones({seat: frame[i % 9] for i, seat in enumerate(game.guessers())})
    game.say("deep sea")
    free = [cell for cell in frame if cell not in game.round.cones.values()]
    assert len(free) == 0 or free
    assert scored_after_second(game, colour) == 9
    three = a_game().with_players(3).with_settings(free_choice=True).in_guess(cell=colour)
    three.cones({seat: colour for seat in three.guessers()}).say("deep sea")
    three.cones({seat: colour + 1 for seat in three.guessers()})
    assert scored(three).points[three.giver()] == 8, "four close cones, doubled, under the cap"


def scored_after_second(game: Game, colour: int) -> int:
    """Second cones two away (not close): the cue giver's points are the first cones'."""
    game.cones({seat: colour + 2 for seat in game.guessers()})
    return scored(game).points[game.giver()]


def test_the_points_rule_as_a_function():
    colour = board.at(3, 3)
    points, exact = score_round(0, colour, [{1: colour, 2: colour + 1}, {1: colour + 2}], [1, 2])
    assert points == {0: 4, 1: 4, 2: 2} and exact == [1]
    points, _ = score_round(0, colour, [{1: colour}], [1, 2, 3], giver_scores=False)
    assert points == {0: 0, 1: 3, 2: 0, 3: 0}


def test_standings_are_points_then_exact_hits_then_seat_order():
    game = a_game().in_cue()
    seats = game.state.seats
    for seat, (score, exact) in zip(seats, [(5, 0), (5, 1), (7, 0), (5, 1)], strict=True):
        seat.score, seat.exact = score, exact
    assert standings(game.state) == [2, 1, 3, 0]


# Void rounds, misses, leaving


def test_a_missed_first_cue_voids_the_round_and_counts_as_a_miss():
    game = a_game().in_cue()
    giver = game.giver()
    game.colour()
    game.time_out()
    assert kinds(game)[:2] == ["round_voided", "round_started"]
    assert game.events[0].reason == "missed_cue"  # type: ignore[union-attr]
    assert scores(game) == [0, 0, 0, 0] and game.state.seats[giver].missed == 1
    assert game.round.no == 2 and game.giver() == (giver + 1) % 4


def test_two_missed_cues_in_a_row_make_the_cue_giver_spectate_until_it_comes_back():
    game = a_game().with_players(4).with_settings(turns=3).in_cue()
    giver = game.giver()
    game.time_out()
    for _ in range(3):
        zero_round(game)
    assert game.giver() == giver
    game.time_out()
    assert game.state.seats[giver].status is SeatStatus.SPECTATING
    assert "seat_spectating" in kinds(game)
    game.do(ComeBack(user_id=game.uid(giver)))
    assert game.state.seats[giver].status is SeatStatus.PLAYING
    refused(game, ComeBack(user_id=game.uid(giver)), ErrorCode.NOT_SPECTATING)


def test_skip_at_the_first_cue_voids_the_round():
    game = a_game().in_cue()
    refused(game, Skip(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(Skip(user_id=user(0)))
    assert game.events[0].reason == "skipped"  # type: ignore[union-attr]


def test_the_cue_giver_leaving_before_its_cue_voids_the_round_without_a_miss():
    game = a_game().with_players(5).in_cue()
    giver = game.giver()
    game.do(Leave(user_id=game.uid(giver)))
    assert kinds(game)[:2] == ["seat_left", "round_voided"]
    assert game.events[1].reason == "giver_left"  # type: ignore[union-attr]


def test_the_cue_giver_leaving_at_its_second_cue_skips_it_and_still_scores():
    game = a_game().with_players(5).with_settings(free_choice=True).in_guess(cell=40)
    giver = game.giver()
    game.cones({seat: 40 for seat in game.guessers()})
    game.do(Leave(user_id=game.uid(giver)))
    assert kinds(game)[:3] == ["seat_left", "second_cue_skipped", "round_scored"]
    assert game.state.seats[giver].score == 4


def test_a_guesser_who_leaves_takes_its_cones_off_the_board():
    game = a_game().with_players(5).with_settings(free_choice=True).in_guess(cell=40)
    a, b, c, d = game.guessers()
    game.cone(a, 40)
    game.do(Leave(user_id=game.uid(a)))
    assert a not in game.round.cones
    game.cones({b: 40, c: 40, d: 40}).no_second()
    assert scored(game).points[game.giver()] == 3


def test_an_unreachable_cue_giver_voids_and_an_unreachable_guesser_is_dropped():
    game = a_game().in_guess()
    a, b, c = game.guessers()
    game.do(MarkUnreachable(user_id=game.uid(a), round_no=1, phase=Phase.GUESS))
    assert game.round.dropped == [a]
    game.cones({b: 1, c: 1})
    assert game.state.phase is Phase.SECOND_CUE
    game.do(MarkUnreachable(user_id=game.uid(game.giver()), round_no=1, phase=Phase.SECOND_CUE))
    assert kinds(game)[:2] == ["seat_unreachable", "second_cue_skipped"]
    fresh = a_game().in_cue()
    fresh.do(MarkUnreachable(user_id=fresh.uid(fresh.giver()), round_no=1, phase=Phase.CUE))
    assert fresh.events[1].reason == "unreachable"  # type: ignore[union-attr]


def test_below_three_active_seats_the_game_is_abandoned():
    game = a_game().with_players(3).in_guess()
    game.do(Leave(user_id=game.uid(game.guessers()[0])))
    assert game.state.phase is Phase.ABANDONED
    assert isinstance(game.events[-1], GameAbandoned)
    assert game.events[-1].reason == "too_few_players"


def test_stop_ends_the_game_without_a_winner():
    game = a_game().in_guess()
    refused(game, StopGame(user_id=user(2)), ErrorCode.NOT_ALLOWED)
    game.do(StopGame(user_id=4242, is_admin=True))
    assert game.state.phase is Phase.ABANDONED and game.state.end_reason == "stopped"


# The end: rounds by table size, tie-breaks


@pytest.mark.parametrize(("players", "turns"), [(3, 2), (6, 2), (7, 1), (10, 1)])
def test_each_seat_gives_the_cue_twice_with_3_to_6_seats_once_with_7_or_more(players, turns):
    game = a_game().with_players(players).in_cue()
    assert game.state.turns == turns
    regular: list[int] = []
    while game.state.phase is not Phase.FINISHED:
        if not game.round.extra:
            regular.append(game.giver())
        if game.round.last and not game.round.extra and players < 10:
            assert game.state.phase is Phase.CUE
            refused(game, Join(user_id=9999, name="late"), ErrorCode.TOO_LATE_TO_JOIN)
        zero_round(game)
    assert sorted(regular) == sorted(list(range(players)) * turns)


def test_the_count_is_a_setting_fixed_at_the_start():
    game = a_game().with_players(3).with_settings(turns=1).in_cue()
    assert game.state.turns == 1
    game.do(Join(user_id=9999, name="late"))
    assert game.state.turns == 1 and "player_joined" in kinds(game)


def finish_regular(game: Game, totals: list[int]) -> Game:
    """Play zero rounds up to the last regular one, set the totals, play it out."""
    while not game.round.last:
        zero_round(game)
    for seat, total in zip(game.state.seats, totals, strict=True):
        seat.score = total
    return zero_round(game)


def test_a_tie_on_top_brings_extra_rounds_where_only_the_tied_seats_guess_and_score():
    game = a_game().with_players(4).with_settings(turns=1, free_choice=True).in_cue()
    finish_regular(game, [5, 9, 2, 9])
    tie = [e for e in game.events if isinstance(e, TieBreak)]
    assert tie and tie[0].tied == [1, 3] and tie[0].extra == 1
    last = game.state.first_giver - 1 if game.state.first_giver else 3
    expected = next(i for i in [(last + k) % 4 for k in range(1, 5)] if i not in (1, 3))
    assert game.giver() == expected and game.round.extra == 1
    assert game.guessers() == [1, 3] and not game.round.giver_scores
    refused(game, Join(user_id=9999, name="late"), ErrorCode.TOO_LATE_TO_JOIN)
    game.cue(cell=100)
    non_tied = next(i for i in (0, 2) if i != game.giver())
    refused(game, ChooseCell(user_id=game.uid(non_tied), cell=100), ErrorCode.NOT_IN_ROUND)
    game.cones({1: 100, 3: 101}).no_second()
    assert scored(game).points == {game.giver(): 0, 1: 3, 3: 2}
    game.time_out()
    assert isinstance(game.events[-1], GameFinished)
    assert game.events[-1].reason == "tie_break" and game.events[-1].winners == [1]


def test_when_every_seat_is_tied_the_tied_seats_give_the_cue_in_turn_and_score():
    game = a_game().with_players(3).with_settings(turns=1, free_choice=True).in_cue()
    finish_regular(game, [4, 4, 4])
    last = (game.state.first_giver + 2) % 3
    assert game.round.extra == 1 and game.giver() == (last + 1) % 3
    assert game.round.giver_scores and len(game.guessers()) == 2
    giver = game.giver()
    game.cue(cell=200)
    a, b = game.guessers()
    game.cones({a: 200, b: 320}).no_second()
    assert scored(game).points == {giver: 2, a: 3, b: 0}  # doubled: two guessers
    game.time_out()
    assert game.state.phase is Phase.FINISHED and winners(game.state) == [a]


def test_after_three_extra_rounds_those_still_level_are_co_winners_void_rounds_counting():
    game = a_game().with_players(4).with_settings(turns=1).in_cue()
    finish_regular(game, [6, 6, 6, 1])
    givers = []
    assert game.round.extra == 1
    givers.append(game.giver())
    game.time_out()  # a void extra round counts
    assert game.round.extra == 2
    givers.append(game.giver())
    zero_round(game)
    assert game.round.extra == 3
    givers.append(game.giver())
    zero_round(game)
    assert game.state.phase is Phase.FINISHED and game.state.extra_done == 3
    assert winners(game.state) == [0, 1, 2]
    assert givers == [3, 3, 3], "the only seat not tied gives every cue"


def test_a_game_without_a_tie_ends_after_its_rounds():
    game = a_game().with_players(3).with_settings(turns=1).in_cue()
    finish_regular(game, [1, 2, 3])
    assert isinstance(game.events[-1], GameFinished)
    assert game.events[-1].reason == "rounds" and game.events[-1].winners == [2]


# Documents


def test_commands_and_events_round_trip_as_tagged_json():
    command = ChooseCell(user_id=1, cell=479, round_no=4, game_id=2)
    assert COMMAND_ADAPTER.validate_json(COMMAND_ADAPTER.dump_json(command)) == command
    game = a_game().in_guess()
    game.cones({seat: 3 for seat in game.guessers()})
    game.say("deep sea")
    game.cones({seat: 4 for seat in game.guessers()})
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(game.events)) == game.events
    for command in (NoSecondCue(user_id=1), Timeout(round_no=1, phase=Phase.REVEAL)):
        assert COMMAND_ADAPTER.validate_python(command.model_dump()) == command


def test_a_ten_seat_game_round_trips_as_json_under_8_kb():
    players = [(10**12 + i, "Ж" * 64) for i in range(10)]
    state, _ = start(players, Settings(max_seats=10), seed=5, now=0)
    game = Game(state=state).cue("x" * 60)
    game.cones({seat: 479 for seat in game.guessers()})
    text = game.state.model_dump_json()
    assert State.model_validate_json(text) == game.state
    assert len(text.encode()) < 8_000, len(text.encode())


def test_a_refused_start():
    with pytest.raises(RuleError) as caught:
        start([(1, "a"), (2, "b")], seed=1, now=0)
    assert caught.value.code is ErrorCode.NOT_ENOUGH_PLAYERS
    with pytest.raises(RuleError) as caught:
        start([(1, "a"), (2, "b"), (3, "c")], Settings(cue_s=5), seed=1, now=0)
    assert caught.value.code is ErrorCode.BAD_SETTING


def test_a_button_of_another_round_is_stale():
    game = a_game().in_guess()
    seat = game.guessers()[0]
    refused(game, ChooseCell(user_id=game.uid(seat), cell=3, round_no=2), ErrorCode.STALE)
    refused(game, GiveCue(user_id=9999, text="pig"), ErrorCode.NOT_IN_GAME)
