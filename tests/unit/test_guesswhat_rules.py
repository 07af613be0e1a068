"""Guess What!: one test per rule (SPEC 11.2, with section 6 read for this game)."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.guesswhat import icons
from engine.games.guesswhat.commands import (
    COMMAND_ADAPTER,
    ComeBack,
    Command,
    ConfirmGuess,
    GiveClue,
    GuessIcon,
    Join,
    Leave,
    MarkUnreachable,
    PickIcon,
    Redraw,
    Skip,
    StopGame,
    Timeout,
)
from engine.games.guesswhat.errors import Refusal
from engine.games.guesswhat.events import (
    EVENT_ADAPTER,
    BoardRedrawn,
    ClueGiven,
    DeckReshuffled,
    GameAbandoned,
    GameFinished,
    GuessConfirmed,
    PlayerJoined,
    RoundScored,
    RoundStarted,
    RoundVoided,
    SeatReturned,
    SeatSpectating,
    SeatUnreachable,
)
from engine.games.guesswhat.model import Phase, Settings, State
from engine.games.guesswhat.rules import apply, start
from engine.games.guesswhat.turns import standings, winners
from engine.games.guesswhat.views import group_view, seat_view
from engine.model import SeatStatus
from tests.guesswhat_builders import Game, a_game, icon_locations, user


def refused(game: Game, command: Command, code: ErrorCode) -> None:
    """The command is refused with `code`, and the game is exactly as it was."""
    before = game.state.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.state, command, game.now)
    assert caught.value.code is code
    assert game.state.model_dump_json() == before


def kinds(game: Game) -> list[str]:
    return [event.kind for event in game.events]


def scores(game: Game) -> list[int]:
    return [seat.score for seat in game.state.seats]


def next_seat(game: Game, seat: int) -> int:
    return (seat + 1) % len(game.state.seats)


# Start


def test_a_game_starts_with_a_random_active_player_and_nine_distinct_icons():
    game = a_game().with_players(5).in_clue()
    state = game.state
    assert [s.user_id for s in state.seats] == [user(i) for i in range(5)]
    assert len(state.board) == 9 and len(set(state.board)) == 9
    assert sorted(icon_locations(state)) == list(range(len(icons())))
    assert game.round.no == 1 and game.active() == state.first_active
    assert game.round.participants == [0, 1, 2, 3, 4]
    assert state.deadline == game.now + 60
    assert kinds(game) == ["game_started", "round_started"]
    firsts = {a_game().with_players(5).with_seed(seed).in_clue().active() for seed in range(30)}
    assert len(firsts) > 1, "the first active player is drawn from the seed"


def test_the_same_seed_gives_the_same_game():
    one = a_game().with_seed(99).in_clue().state
    two = a_game().with_seed(99).in_clue().state
    assert one == two


@pytest.mark.parametrize(
    ("players", "settings", "code"),
    [
        ([(1, "a"), (2, "b")], Settings(), ErrorCode.NOT_ENOUGH_PLAYERS),
        ([(1, "a"), (2, "b"), (1, "c")], Settings(), ErrorCode.ALREADY_JOINED),
        ([(i, "p") for i in range(9)], Settings(), ErrorCode.ROOM_FULL),
        ([(1, "a"), (2, "b"), (3, "c")], Settings(target=4), ErrorCode.BAD_SETTING),
        ([(1, "a"), (2, "b"), (3, "c")], Settings(rotations=6), ErrorCode.BAD_SETTING),
    ],
)
def test_a_game_cannot_start_out_of_its_bounds(players, settings, code):
    with pytest.raises(RuleError) as caught:
        start(players, settings, seed=1, now=0)
    assert caught.value.code is code


def test_settings_have_the_defaults_of_the_spec():
    settings = Settings()
    assert (settings.rotations, settings.target, settings.connoisseurs) == (3, 12, False)
    assert (settings.clue_s, settings.guess_s, settings.reveal_s, settings.timers) == (
        60,
        60,
        8,
        True,
    )


def test_settings_changes_are_checked_against_their_bounds():
    from engine.games.guesswhat.settings import apply_changes

    assert apply_changes(Settings(), {"target": 20, "connoisseurs": True}).target == 20
    for change in ({"target": 21}, {"connoisseurs": 1}, {"rounds": 2}, {"guess_s": True}):
        with pytest.raises(RuleError) as caught:
            apply_changes(Settings(), change)
        assert caught.value.code is ErrorCode.BAD_SETTING


# Picks and the clue


def test_the_active_player_picks_one_icon_per_column():
    game = a_game().in_clue()
    game.pick((0, 1, 2))
    board = game.state.board
    assert game.round.picks == [board[0], board[4], board[8]]
    assert game.events[0].kind == "icon_picked" and game.events[0].column == 2


def test_a_pick_changes_until_the_clue_and_stays_one_per_column():
    game = a_game().in_clue()
    game.pick((0, 0, 0))
    game.do(PickIcon(user_id=user(game.active()), icon=game.column(1)[2]))
    assert game.round.picks == [game.column(0)[0], game.column(1)[2], game.column(2)[0]]
    game.do_clue("ocean")
    refused(
        game, PickIcon(user_id=user(game.active()), icon=game.column(0)[1]), ErrorCode.WRONG_PHASE
    )


def test_only_the_active_player_picks_and_only_icons_on_the_board():
    game = a_game().in_clue()
    other = next_seat(game, game.active())
    refused(game, PickIcon(user_id=user(other), icon=game.column(0)[0]), ErrorCode.NOT_STORYTELLER)
    off_board = next(i for i in range(len(icons())) if i not in game.state.board)
    refused(game, PickIcon(user_id=user(game.active()), icon=off_board), Refusal.ICON_NOT_ON_BOARD)
    refused(game, PickIcon(user_id=9999, icon=game.column(0)[0]), ErrorCode.NOT_IN_GAME)


def test_a_button_of_another_round_is_stale():
    game = a_game().in_clue()
    refused(
        game,
        PickIcon(user_id=user(game.active()), icon=game.column(0)[0], round_no=2),
        ErrorCode.STALE,
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", Refusal.CLUE_EMPTY),
        ("   \n\t", Refusal.CLUE_EMPTY),
        ("\u200b\u3164", Refusal.CLUE_EMPTY),
        ("\u034f\u034f\u034f", Refusal.CLUE_EMPTY),  # combining grapheme joiners
        ("\ufe0f\u034f \ufe0f", Refusal.CLUE_EMPTY),  # variation selectors
        ("\u0301\u20dd", Refusal.CLUE_EMPTY),  # combining marks without a base
        ("\U000e0041\u2066\u00ad", Refusal.CLUE_EMPTY),  # a tag, an isolate, a soft hyphen
        ("x" * 101, Refusal.CLUE_TOO_LONG),
        ("  " + "y" * 101 + "  ", Refusal.CLUE_TOO_LONG),
    ],
)
def test_a_clue_is_1_to_100_characters_after_stripping(text, code):
    game = a_game().in_clue().pick()
    refused(game, GiveClue(user_id=user(game.active()), text=text), code)


def test_a_clue_of_100_characters_is_posted_stripped_and_opens_guessing():
    game = a_game().in_clue().pick()
    game.later(5).do_clue("   " + "z" * 100 + "  ")
    assert game.round.clue == "z" * 100
    assert game.state.phase is Phase.GUESS and game.state.deadline == game.now + 60
    assert isinstance(game.events[0], ClueGiven) and game.events[0].clue == "z" * 100


def test_the_clue_needs_a_pick_in_every_column():
    game = a_game().in_clue()
    game.do(PickIcon(user_id=user(game.active()), icon=game.column(0)[0]))
    game.do(PickIcon(user_id=user(game.active()), icon=game.column(2)[0]))
    refused(game, GiveClue(user_id=user(game.active()), text="ok"), Refusal.PICKS_INCOMPLETE)


def test_only_the_active_player_gives_the_clue():
    game = a_game().in_clue().pick()
    refused(
        game,
        GiveClue(user_id=user(next_seat(game, game.active())), text="ok"),
        ErrorCode.NOT_STORYTELLER,
    )


# Redraw


def test_a_redraw_replaces_three_icons_clears_their_picks_and_leaves_30_seconds():
    game = a_game().in_clue().pick((0, 1, 2))
    old = list(game.state.board)
    picks = list(game.round.picks)
    replaced = (old[0], old[3], old[5])  # column A's pick, B's icon 0, and an unpicked one
    game.later(20).do(Redraw(user_id=user(game.active()), icons=replaced))
    board = game.state.board
    assert [p for p in range(9) if board[p] != old[p]] == [0, 3, 5]
    assert not set(board) & set(replaced) and len(set(board)) == 9
    assert set(replaced) <= set(game.state.discard)
    assert game.round.picks == [None, picks[1], picks[2]]
    assert game.state.deadline == game.now + 30
    assert isinstance(game.events[-1], BoardRedrawn) and game.events[-1].positions == [0, 3, 5]
    assert sorted(icon_locations(game.state)) == list(range(len(icons())))


def test_a_redraw_clears_a_pick_the_player_made_on_a_replaced_icon_in_any_column():
    game = a_game().in_clue().pick((2, 2, 2))
    board = game.state.board
    game.do(Redraw(user_id=user(game.active()), icons=(board[2], board[5], board[8])))
    assert game.round.picks == [None, None, None]


def test_a_redraw_happens_once_per_turn_before_the_clue():
    game = a_game().in_clue()
    board = game.state.board
    uid = user(game.active())
    game.do(Redraw(user_id=uid, icons=(board[0], board[1], board[2])))
    board = game.state.board
    refused(game, Redraw(user_id=uid, icons=(board[0], board[1], board[2])), Refusal.REDRAW_USED)
    game.clue()
    refused(game, Redraw(user_id=uid, icons=(board[3], board[4], board[5])), ErrorCode.WRONG_PHASE)


def test_a_redraw_names_three_different_icons_of_the_board():
    game = a_game().in_clue()
    board = game.state.board
    uid = user(game.active())
    off = next(i for i in range(len(icons())) if i not in board)
    refused(game, Redraw(user_id=uid, icons=(board[0], board[1])), Refusal.REDRAW_COUNT)
    refused(
        game,
        Redraw(user_id=uid, icons=(board[0], board[1], board[2], board[3])),
        Refusal.REDRAW_COUNT,
    )
    refused(game, Redraw(user_id=uid, icons=(board[0], board[0], board[1])), Refusal.REDRAW_COUNT)
    refused(game, Redraw(user_id=uid, icons=(board[0], board[1], off)), Refusal.ICON_NOT_ON_BOARD)
    other = user(next_seat(game, game.active()))
    refused(
        game, Redraw(user_id=other, icons=(board[0], board[1], board[2])), ErrorCode.NOT_STORYTELLER
    )


def test_with_timers_off_a_redraw_sets_no_deadline():
    game = a_game().with_settings(timers=False).in_clue()
    board = game.state.board
    game.do(Redraw(user_id=user(game.active()), icons=(board[0], board[1], board[2])))
    assert game.state.deadline is None


def test_a_new_round_lays_a_new_board_and_discards_the_old_one():
    game = a_game().in_guess()
    old = list(game.state.board)
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    game.time_out()
    assert game.state.phase is Phase.CLUE and game.round.no == 2
    assert not set(game.state.board) & set(old)
    assert set(old) <= set(game.state.discard)
    started = next(e for e in game.events if isinstance(e, RoundStarted))
    assert started.new_board and started.after == 1


def test_an_empty_draw_pile_is_refilled_from_the_discards_never_from_the_board():
    game = a_game().in_guess()
    state = game.state
    game.state = state.model_copy(
        update={"draw": state.draw[:4], "discard": state.discard + state.draw[4:]}
    )
    old = list(game.state.board)
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    game.time_out()
    assert any(isinstance(e, DeckReshuffled) for e in game.events)
    assert len(set(game.state.board)) == 9 and not set(game.state.board) & set(old)
    assert set(old) <= set(game.state.discard), "the old board waits in the discards"
    assert sorted(icon_locations(game.state)) == list(range(len(icons())))


def test_a_redraw_from_an_empty_pile_never_brings_back_an_icon_on_the_board():
    game = a_game().in_clue()
    state = game.state
    game.state = state.model_copy(update={"draw": [], "discard": state.draw})
    board = list(game.state.board)
    game.do(Redraw(user_id=user(game.active()), icons=(board[0], board[1], board[2])))
    assert any(isinstance(e, DeckReshuffled) for e in game.events)
    assert not set(game.state.board[:3]) & set(board)
    assert sorted(icon_locations(game.state)) == list(range(len(icons())))


# Guesses


def test_every_other_participating_seat_guesses_one_icon_per_column_and_confirms():
    game = a_game().in_guess()
    seat = game.guessers()[0]
    game.guess(seat, (1, 2, 0), confirm=False)
    assert game.round.guesses[seat] == [game.column(0)[1], game.column(1)[2], game.column(2)[0]]
    game.do(GuessIcon(user_id=user(seat), icon=game.column(1)[0]))
    assert game.round.guesses[seat][1] == game.column(1)[0], "a guess changes until confirmed"
    game.do(ConfirmGuess(user_id=user(seat)))
    assert game.round.confirmed == [seat]
    assert isinstance(game.events[0], GuessConfirmed)


def test_a_guess_is_confirmed_only_with_three_icons():
    game = a_game().in_guess()
    seat = game.guessers()[0]
    refused(game, ConfirmGuess(user_id=user(seat)), Refusal.PICKS_INCOMPLETE)
    game.do(GuessIcon(user_id=user(seat), icon=game.column(0)[0]))
    game.do(GuessIcon(user_id=user(seat), icon=game.column(1)[0]))
    refused(game, ConfirmGuess(user_id=user(seat)), Refusal.PICKS_INCOMPLETE)


def test_a_confirmed_guess_is_final():
    game = a_game().in_guess()
    seat = game.guessers()[0]
    game.guess(seat, (0, 0, 0))
    refused(game, GuessIcon(user_id=user(seat), icon=game.column(0)[1]), ErrorCode.GUESS_FINAL)
    refused(game, ConfirmGuess(user_id=user(seat)), ErrorCode.GUESS_FINAL)


def test_the_active_player_does_not_guess_and_nobody_guesses_before_the_clue():
    game = a_game().in_clue()
    other = next_seat(game, game.active())
    refused(game, GuessIcon(user_id=user(other), icon=game.column(0)[0]), ErrorCode.WRONG_PHASE)
    game.clue()
    refused(
        game,
        GuessIcon(user_id=user(game.active()), icon=game.column(0)[0]),
        ErrorCode.STORYTELLER_CANNOT_VOTE,
    )
    off = next(i for i in range(len(icons())) if i not in game.state.board)
    refused(game, GuessIcon(user_id=user(other), icon=off), Refusal.ICON_NOT_ON_BOARD)


def test_guessing_closes_when_every_guesser_has_confirmed():
    game = a_game().in_guess()
    *first, last = game.guessers()
    for seat in first:
        game.guess(seat, (0, 0, 0))
    assert game.state.phase is Phase.GUESS
    game.later(3).guess(last, (1, 1, 1))
    assert game.state.phase is Phase.REVEAL and game.state.deadline == game.now + 8


def test_unconfirmed_guesses_are_dropped_when_time_runs_out():
    game = a_game().in_guess()
    right, unconfirmed, silent = game.guessers()
    game.guess(right, (0, 0, 0))
    game.guess(unconfirmed, (0, 0, 0), confirm=False)
    game.time_out()
    scored = next(e for e in game.events if isinstance(e, RoundScored))
    assert scored.correct == [right] and list(scored.guesses) == [right]
    assert scored.points == {game.active(): 1, right: 1, unconfirmed: 0, silent: 0}
    assert list(game.round.guesses) == [right]


# Points


def test_each_correct_guesser_scores_one_and_the_active_player_one_per_correct_guesser():
    game = a_game().with_players(5).in_guess()
    a, b, c, d = game.guessers()
    game.guess(a, (0, 0, 0)).guess(b, (0, 0, 0)).guess(c, (0, 0, 1)).guess(d, (1, 0, 0))
    points = {game.active(): 2, a: 1, b: 1, c: 0, d: 0}
    assert game.round.points == points and game.round.correct == [a, b]
    assert {i: s for i, s in enumerate(scores(game))} == points
    assert [game.state.seats[i].correct for i in (a, b, c, d)] == [1, 1, 0, 0]


def test_the_answer_is_the_three_icons_in_their_columns():
    game = a_game().in_clue().clue(rows=(2, 1, 0))
    seat = game.guessers()[0]
    game.guess(seat, (2, 1, 0))
    for other in game.guessers()[1:]:
        game.guess(other, (2, 1, 1))
    assert game.round.correct == [seat]


def test_connoisseurs_the_active_player_scores_nothing_when_everybody_found_it():
    game = a_game().with_settings(connoisseurs=True).in_guess()
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    assert game.round.points == {game.active(): 0, **{s: 1 for s in game.guessers()}}


def test_connoisseurs_the_active_player_scores_when_somebody_missed_it():
    game = a_game().with_settings(connoisseurs=True).in_guess()
    first, *rest = game.guessers()
    game.guess(first, (1, 1, 1))
    for seat in rest:
        game.guess(seat, (0, 0, 0))
    assert game.round.points[game.active()] == len(rest)


def test_without_connoisseurs_everybody_right_pays_the_active_player_in_full():
    game = a_game().in_guess()
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    assert game.round.points[game.active()] == 3


# Missed clue, spectating and /back


def test_a_missed_clue_passes_the_turn_at_once_on_the_same_board_with_30_seconds():
    game = a_game().in_clue()
    first = game.active()
    board = list(game.state.board)
    game.time_out()
    voided = next(e for e in game.events if isinstance(e, RoundVoided))
    assert voided.reason == "missed_clue" and voided.active == first
    assert game.state.phase is Phase.CLUE and game.round.no == 2
    assert game.active() == next_seat(game, first)
    assert game.state.board == board and game.state.deadline == game.now + 30
    assert game.state.seats[first].missed == 1 and scores(game) == [0, 0, 0, 0]
    started = next(e for e in game.events if isinstance(e, RoundStarted))
    assert not started.new_board


def test_a_further_missed_clue_repeats_this_and_the_redrawn_board_carries_on():
    game = a_game().in_clue()
    board = game.state.board
    game.do(Redraw(user_id=user(game.active()), icons=(board[0], board[4], board[8])))
    redrawn = list(game.state.board)
    game.time_out().time_out()
    assert game.round.no == 3 and game.state.board == redrawn
    assert game.state.deadline == game.now + 30
    assert not game.round.redrawn, "each turn has its own redraw"


def test_two_missed_clues_in_a_row_make_the_seat_spectating():
    game = a_game().with_players(4).in_clue()
    late = game.active()
    game.time_out()  # late's first miss
    for _ in range(3):  # the three others miss once each, then it is late's turn again
        game.later(1).clue()
        for seat in game.guessers():
            game.guess(seat, (0, 0, 0))
        game.time_out()
    assert game.active() == late
    game.time_out()
    assert game.state.seats[late].status is SeatStatus.SPECTATING
    assert any(isinstance(e, SeatSpectating) and e.seat == late for e in game.events)
    assert late not in game.round.participants


def test_a_clue_given_between_two_misses_resets_the_count():
    game = a_game().with_players(3).with_settings(rotations=5).in_clue()
    seat = game.active()
    game.time_out()
    for _ in range(2):
        game.clue()
        for other in game.guessers():
            game.guess(other, (0, 0, 0))
        game.time_out()
    assert game.active() == seat
    game.clue()
    assert game.state.seats[seat].missed == 0


def spectating_game() -> tuple[Game, int]:
    """A five-seat game in which one seat has just become spectating."""
    game = a_game().with_players(5).in_clue()
    seat = game.active()
    state = game.state
    seats = [s.model_copy() for s in state.seats]
    seats[seat] = seats[seat].model_copy(update={"missed": 1})
    game.state = state.model_copy(update={"seats": seats})
    game.time_out()
    assert game.state.seats[seat].status is SeatStatus.SPECTATING
    return game, seat


def test_a_spectator_is_skipped_by_the_turn_order():
    game, seat = spectating_game()
    for _ in range(5):
        assert game.active() != seat and seat not in game.round.participants
        game.time_out()
        if game.state.phase is not Phase.CLUE:
            break


def test_back_brings_a_spectator_in_from_the_next_round():
    game, seat = spectating_game()
    game.do(ComeBack(user_id=user(seat)))
    assert isinstance(game.events[0], SeatReturned)
    assert game.state.seats[seat].status is SeatStatus.PLAYING
    assert game.state.seats[seat].missed == 0
    assert seat not in game.round.participants
    game.clue()
    for other in game.guessers():
        game.guess(other, (0, 0, 0))
    game.time_out()
    assert seat in game.round.participants


def test_any_action_of_a_spectator_but_leaving_brings_it_back_and_does_nothing_else():
    game, seat = spectating_game()
    game.clue()
    guesses = dict(game.round.guesses)
    game.do(GuessIcon(user_id=user(seat), icon=game.column(0)[0]))
    assert [e.kind for e in game.events] == ["seat_returned"]
    assert game.round.guesses == guesses


def test_back_from_a_seat_that_plays_changes_nothing():
    game = a_game().in_clue()
    refused(game, ComeBack(user_id=user(0)), ErrorCode.NOT_SPECTATING)


def test_three_active_seats_and_one_turns_spectating_abandon_the_game():
    game = a_game().with_players(3).in_clue()
    state = game.state
    seats = [s.model_copy(update={"missed": 1}) for s in state.seats]
    game.state = state.model_copy(update={"seats": seats})
    game.time_out()
    assert game.state.phase is Phase.ABANDONED
    abandoned = game.events[-1]
    assert isinstance(abandoned, GameAbandoned) and abandoned.reason == "too_few_players"


# Unreachable players and /skip


def test_an_unreachable_active_player_misses_its_clue_at_once():
    game = a_game().in_clue()
    seat = game.active()
    board = list(game.state.board)
    game.do(MarkUnreachable(user_id=user(seat), round_no=1, phase=Phase.CLUE))
    assert isinstance(game.events[0], SeatUnreachable)
    voided = next(e for e in game.events if isinstance(e, RoundVoided))
    assert voided.reason == "unreachable" and game.state.seats[seat].missed == 1
    assert game.state.board == board and game.state.deadline == game.now + 60


def test_an_unreachable_guesser_is_not_waited_for():
    game = a_game().in_guess()
    lost, *rest = game.guessers()
    for seat in rest:
        game.guess(seat, (0, 0, 0))
    game.do(MarkUnreachable(user_id=user(lost), round_no=1, phase=Phase.GUESS))
    assert game.state.phase is Phase.REVEAL and lost not in game.round.points
    refused(
        game, MarkUnreachable(user_id=user(lost), round_no=1, phase=Phase.REVEAL), ErrorCode.STALE
    )


def test_nothing_awaited_from_an_unreachable_seat_is_stale():
    game = a_game().in_clue()
    other = next_seat(game, game.active())
    refused(
        game, MarkUnreachable(user_id=user(other), round_no=1, phase=Phase.CLUE), ErrorCode.STALE
    )


def test_skip_with_timers_off_applies_each_phase_s_timeout_rule():
    game = a_game().with_settings(timers=False).in_clue()
    assert game.state.deadline is None
    first = game.active()
    game.do(Skip(user_id=user(0)))
    assert game.events[0].reason == "skipped" and game.state.seats[first].missed == 1
    assert game.state.deadline is None
    game.clue()
    game.guess(game.guessers()[0], (0, 0, 0))
    game.do(Skip(user_id=user(1), is_admin=True))
    assert game.state.phase is Phase.REVEAL and game.state.deadline == game.now + 8
    game.do(Skip(user_id=user(0)))
    assert game.state.phase is Phase.CLUE and game.round.no == 3


def test_skip_belongs_to_the_host_or_an_admin_and_waits_for_its_grace():
    game = a_game().with_settings(timers=False).in_clue()
    refused(game, Skip(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    refused(game, Skip(user_id=user(0), grace=5), ErrorCode.JUST_STARTED)


# Timers


def test_a_timer_before_its_deadline_is_too_early_and_one_of_another_moment_is_stale():
    game = a_game().in_clue()
    game.now = game.state.deadline - 0.01
    refused(game, Timeout(round_no=1, phase=Phase.CLUE), ErrorCode.TOO_EARLY)
    game.now += 1_000
    refused(game, Timeout(round_no=1, phase=Phase.GUESS), ErrorCode.STALE)
    refused(game, Timeout(round_no=2, phase=Phase.CLUE), ErrorCode.STALE)
    game.time_out()
    refused(game, Timeout(round_no=1, phase=Phase.CLUE), ErrorCode.STALE)


def test_with_timers_off_no_player_action_times_out_but_the_reveal_does():
    game = a_game().with_settings(timers=False).in_clue()
    game.now += 10_000
    refused(game, Timeout(round_no=1, phase=Phase.CLUE), ErrorCode.STALE)
    game.clue()
    assert game.state.deadline is None
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    assert game.state.deadline == game.now + 8
    game.time_out()
    assert game.round.no == 2


def test_timers_are_scaled_for_demos():
    players = [(user(i), f"P{i}") for i in range(3)]
    state, _ = start(players, seed=3, now=100, timer_scale=0.5)
    assert state.deadline == 130


# Leaving and abandon


def test_an_active_player_leaving_before_its_clue_voids_the_turn_without_a_miss():
    game = a_game().with_players(5).in_clue()
    seat = game.active()
    board = list(game.state.board)
    game.pick().do(Leave(user_id=user(seat)))
    assert game.state.seats[seat].status is SeatStatus.LEFT
    assert game.events[0].prompt_round == 1
    voided = next(e for e in game.events if isinstance(e, RoundVoided))
    assert voided.reason == "active_left" and game.state.seats[seat].missed == 0
    assert game.active() == next_seat(game, seat) and game.state.board == board
    assert game.state.deadline == game.now + 60, "the next player gets the whole clue time"


def test_a_guesser_leaving_drops_its_guess_and_guessing_may_close():
    game = a_game().with_players(5).in_guess()
    gone, first, second, slow = game.guessers()
    game.guess(gone, (0, 0, 0)).guess(first, (1, 1, 1)).guess(second, (1, 1, 1))
    game.guess(slow, (0, 0, 0), confirm=False)
    game.do(Leave(user_id=user(gone)))
    assert game.state.phase is Phase.GUESS and gone not in game.round.guesses
    assert gone not in game.round.confirmed
    game.do(Leave(user_id=user(slow)))
    assert game.state.phase is Phase.REVEAL, "everybody still there has confirmed"
    assert game.round.correct == [] and game.state.seats[gone].score == 0


def test_an_active_player_leaving_after_its_clue_still_scores():
    game = a_game().with_players(5).in_guess()
    seat = game.active()
    game.do(Leave(user_id=user(seat)))
    for other in game.guessers():
        game.guess(other, (0, 0, 0))
    assert game.state.seats[seat].score == 4
    game.time_out()
    assert game.active() != seat


def test_a_left_seat_never_plays_or_joins_again():
    game = a_game().with_players(5).in_guess()
    gone = game.guessers()[0]
    game.do(Leave(user_id=user(gone)))
    refused(game, GuessIcon(user_id=user(gone), icon=game.column(0)[0]), ErrorCode.HAS_LEFT)
    refused(game, Leave(user_id=user(gone)), ErrorCode.HAS_LEFT)
    refused(game, Join(user_id=user(gone), name="again"), ErrorCode.HAS_LEFT)


def test_fewer_than_three_active_seats_abandon_the_game_without_a_winner():
    game = a_game().with_players(3).in_guess()
    game.do(Leave(user_id=user(game.guessers()[0])))
    assert game.state.phase is Phase.ABANDONED and game.state.end_reason == "too_few_players"
    assert group_view(game.state).winners == []
    refused(game, Join(user_id=9, name="late"), ErrorCode.NO_GAME)


def test_the_host_or_an_admin_stops_the_game():
    game = a_game().in_clue()
    refused(game, StopGame(user_id=user(1)), ErrorCode.NOT_ALLOWED)
    game.do(StopGame(user_id=user(2), is_admin=True))
    assert game.state.phase is Phase.ABANDONED and game.events[-1].reason == "stopped"


# Joining late


def test_a_late_joiner_plays_from_the_next_round():
    game = a_game().in_guess()
    game.do(Join(user_id=900, name="Late"))
    assert game.events == [PlayerJoined(seat=4)]
    refused(game, GuessIcon(user_id=900, icon=game.column(0)[0]), ErrorCode.NOT_IN_ROUND)
    refused(game, Join(user_id=900, name="Late"), ErrorCode.ALREADY_JOINED)
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    game.time_out()
    assert 4 in game.round.participants


def test_nobody_joins_once_the_last_turn_started_or_the_game_is_full():
    game = a_game().with_players(3).with_settings(rotations=1).in_clue()
    game.time_out().time_out()
    assert game.round.last
    refused(game, Join(user_id=900, name="Late"), ErrorCode.TOO_LATE_TO_JOIN)
    full = a_game().with_players(3).with_settings(max_seats=3).in_clue()
    refused(full, Join(user_id=900, name="Late"), ErrorCode.ROOM_FULL)


# The end


def play_round(game: Game, right: list[int]) -> Game:
    """A round in which the seats `right` find the answer and the others do not."""
    game.clue()
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0) if seat in right else (1, 1, 1))
    return game.time_out()


def test_the_game_ends_after_the_reveal_of_the_round_in_which_a_seat_reached_the_target():
    game = a_game().with_players(3).with_settings(target=5, rotations=5).in_clue()
    while max(scores(game)) < 5:
        game.clue()
        for seat in game.guessers():
            game.guess(seat, (0, 0, 0))
        if max(scores(game)) < 5:
            game.time_out()
    assert game.state.phase is Phase.REVEAL, "the round's reveal is shown first"
    refused(game, Join(user_id=900, name="Late"), ErrorCode.TOO_LATE_TO_JOIN)
    game.time_out()
    assert game.state.phase is Phase.FINISHED and game.state.end_reason == "target"
    finished = game.events[-1]
    assert isinstance(finished, GameFinished) and finished.reason == "target"


def test_the_game_ends_when_its_rotations_are_complete():
    game = a_game().with_players(3).with_settings(rotations=1).in_clue()
    for _ in range(3):
        play_round(game, right=[])
    assert game.state.phase is Phase.FINISHED and game.state.end_reason == "rotations"
    assert game.round.no == 3


def test_a_missed_last_turn_ends_the_game():
    game = a_game().with_players(3).with_settings(rotations=1).in_clue()
    play_round(game, right=[])
    play_round(game, right=[])
    assert game.round.last
    game.time_out()
    assert game.state.phase is Phase.FINISHED and game.events[-1].reason == "rotations"


def test_a_missed_turn_uses_up_its_place_in_the_rotation():
    game = a_game().with_players(3).with_settings(rotations=1).in_clue()
    game.time_out().time_out().time_out()
    assert game.state.phase is Phase.FINISHED


def with_scores(game: Game, totals: list[tuple[int, int]]) -> State:
    seats = [
        s.model_copy(update={"score": score, "correct": correct})
        for s, (score, correct) in zip(game.state.seats, totals, strict=True)
    ]
    return game.state.model_copy(update={"seats": seats})


def test_standings_order_points_then_correct_guesses_then_seat_order():
    game = a_game().with_players(5).in_clue()
    state = with_scores(game, [(3, 1), (5, 0), (3, 2), (5, 0), (3, 1)])
    assert standings(state) == [1, 3, 2, 0, 4]


def test_equal_top_points_are_co_winners_and_a_left_seat_cannot_win():
    game = a_game().with_players(5).in_clue()
    state = with_scores(game, [(3, 1), (5, 0), (3, 2), (5, 3), (6, 1)])
    seats = list(state.seats)
    seats[4] = seats[4].model_copy(update={"status": SeatStatus.LEFT})
    state = state.model_copy(update={"seats": seats})
    assert winners(state) == [3, 1]


def test_co_winners_are_named_together_at_the_end():
    game = a_game().with_players(3).with_settings(rotations=1).in_clue()
    for _ in range(3):
        play_round(game, right=list(range(3)))
    finished = game.events[-1]
    assert isinstance(finished, GameFinished) and finished.winners == [0, 1, 2]
    assert scores(game) == [4, 4, 4]


# Views


def test_the_group_never_sees_picks_or_guesses_before_the_reveal():
    one = a_game().in_clue().pick((1, 2, 0))
    two = a_game().in_clue().pick((0, 0, 2))
    assert group_view(one.state) == group_view(two.state)
    assert group_view(one.state).answer == []
    one.do_clue("secret")
    two.do_clue("secret")
    first, second, _ = one.guessers()
    one.guess(first, (2, 2, 2)).guess(second, (0, 1, 0), confirm=False)
    two.guess(first, (0, 0, 0)).guess(second, (2, 2, 1), confirm=False)
    view = group_view(one.state)
    assert view == group_view(two.state), "the group sees who confirmed, never what"
    assert view.confirmed == [first] and view.waiting_for == one.guessers()[1:]
    assert view.guesses == {} and view.answer == [] and view.points == {}


def test_the_group_sees_the_answer_and_the_confirmed_guesses_at_the_reveal():
    game = a_game().in_guess()
    right, wrong, silent = game.guessers()
    game.guess(right, (0, 0, 0)).guess(wrong, (1, 1, 1)).guess(silent, (1, 1, 1), False)
    game.time_out()
    view = group_view(game.state)
    assert view.answer == game.round.picks and view.correct == [right]
    assert set(view.guesses) == {right, wrong}


def test_a_seat_sees_its_own_picks_or_guess_and_nobody_else_s():
    game = a_game().in_clue().pick((1, 1, 1))
    active = game.active()
    other = next_seat(game, active)
    assert seat_view(game.state, active).picks == game.round.picks
    assert seat_view(game.state, active).can_redraw
    assert seat_view(game.state, other).picks == [None, None, None]
    game.do_clue("x")
    game.guess(other, (0, 1, 2), confirm=False)
    third = next(i for i in game.guessers() if i != other)
    assert seat_view(game.state, other).guess == game.round.guesses[other]
    assert seat_view(game.state, third).guess == [None, None, None]
    assert seat_view(game.state, other).owes_action
    assert seat_view(game.state, active).picks == game.round.picks


# State, commands and events as data


def test_apply_never_changes_the_state_it_is_given():
    game = a_game().in_clue()
    before = game.state.model_dump_json()
    apply(game.state, PickIcon(user_id=user(game.active()), icon=game.column(0)[0]), game.now)
    assert game.state.model_dump_json() == before


def test_a_ten_seat_game_round_trips_as_json_under_6_kb():
    players = [(10**12 + i, "Ж" * 64) for i in range(10)]  # long ids, Telegram's longest names
    game = Game(state=start(players, Settings(max_seats=10), seed=5, now=0)[0])
    game.pick().do_clue("🌙" * 100)
    for seat in game.guessers():
        game.guess(seat, (0, 1, 2), confirm=seat % 2 == 0)
    text = game.state.model_dump_json()
    assert State.model_validate_json(text) == game.state
    assert len(text.encode()) < 6_000, len(text.encode())


def test_commands_and_events_round_trip_as_tagged_json():
    command = Redraw(user_id=1, icons=(1, 2, 3), round_no=4)
    assert COMMAND_ADAPTER.validate_json(COMMAND_ADAPTER.dump_json(command)) == command
    game = a_game().in_guess()
    for seat in game.guessers():
        game.guess(seat, (0, 0, 0))
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(game.events)) == game.events


# The icons


def test_the_deck_holds_at_least_110_distinct_single_emoji_icons():
    deck = icons()
    assert len(deck) >= 110
    assert len({i.emoji for i in deck}) == len(deck) and len({i.name for i in deck}) == len(deck)
    for item in deck:
        assert len(item.emoji) == 1, f"{item.name}: one code point, no sequence"
        assert not 0x1F1E6 <= ord(item.emoji) <= 0x1F1FF, "no flags"
        assert not 0x1F3FB <= ord(item.emoji) <= 0x1F3FF, "no skin tones"


def test_every_refusal_of_the_rules_has_an_answer_for_players():
    from tgbot.i18n import texts

    assert set(texts.ERRORS) == set(ErrorCode)


def test_a_group_admin_outside_the_game_may_skip_and_stop():
    game = a_game().with_settings(timers=False).in_clue()
    game.do(Skip(user_id=4242, is_admin=True))
    assert game.round.no == 2
    refused(game, Skip(user_id=4242), ErrorCode.NOT_ALLOWED)
    game.do(StopGame(user_id=4242, is_admin=True))
    assert game.state.phase is Phase.ABANDONED


def test_a_spectating_host_who_skips_comes_back_too():
    game, seat = spectating_game()
    game.state = game.state.model_copy(update={"host": user(seat)})
    game.do(Skip(user_id=user(seat)))
    assert [e.kind for e in game.events][:2] == ["seat_returned", "round_voided"]
