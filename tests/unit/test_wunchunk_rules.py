"""Wunchunk: one test per rule (SPEC 11.5, with section 6 read for this game)."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.wunchunk import board
from engine.games.wunchunk.commands import (
    COMMAND_ADAPTER,
    ComeBack,
    Command,
    EndTurn,
    Join,
    Leave,
    MarkUnreachable,
    Pass,
    PlaceStone,
    PlaceStones,
    Skip,
    StopGame,
    Timeout,
    Undo,
)
from engine.games.wunchunk.errors import Refusal
from engine.games.wunchunk.events import (
    EVENT_ADAPTER,
    GameAbandoned,
    GameEnded,
    GameFinished,
    TurnPassed,
    TurnPlayed,
    TurnStarted,
)
from engine.games.wunchunk.model import Phase, Settings, State
from engine.games.wunchunk.rules import apply, start
from engine.games.wunchunk.settings import apply_changes
from engine.games.wunchunk.turns import standings, winners
from engine.games.wunchunk.typed import parse_stones
from engine.games.wunchunk.views import group_view, seat_view
from engine.model import AI_USER_ID, SeatStatus
from tests.wunchunk_builders import Game, a_game, user


def refused(game: Game, command: Command, code: ErrorCode | Refusal) -> None:
    """The command is refused with `code`, and the game is exactly as it was."""
    before = game.state.model_dump_json()
    with pytest.raises(RuleError) as caught:
        apply(game.state, command, game.now)
    assert caught.value.code == code, caught.value
    assert game.state.model_dump_json() == before


def kinds(game: Game) -> list[str]:
    return [event.kind for event in game.events]


def hex5(players: int = 2, first: int = 0) -> Game:
    return a_game().with_players(players).first(first).with_settings(size=5).started()


# --- the start -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("size", (0, 5, 6, 7, 8))
def test_a_game_starts_with_each_seats_chunk_and_seat_1_first(players: int, size: int) -> None:
    game = a_game().with_players(players).first(None).with_settings(size=size).started()
    state = game.state
    assert state.size == (size or (6 if players == 2 else 8))
    first = state.first
    expected = board.start_stones(players, first)
    assert state.stones() == expected
    for colour in range(players):  # seat 1 of the SPEC is the first to play
        mine = {c for c, k in expected.items() if k == colour}
        assert mine == set(board.STARTS[players][(colour - first) % players])
    assert [s.groups for s in state.seats] == [[1, 0, 1]] * players
    assert kinds(game) == ["game_started", "turn_started"]
    started = game.events[-1]
    assert isinstance(started, TurnStarted)
    assert (started.seat, started.allotment, started.round_no) == (first, 1, 1)
    assert started.deadline == game.now + 120
    assert state.waiting_for() == [first]


def test_who_plays_first_is_drawn_from_the_seed() -> None:
    firsts = {start([(1, "A"), (2, "B"), (3, "C")], seed=s, now=0)[0].first for s in range(40)}
    assert firsts == {0, 1, 2}
    again = [start([(1, "A"), (2, "B")], seed=9, now=0)[0] for _ in range(2)]
    assert again[0] == again[1]


def test_two_to_four_players_and_the_settings_bounds() -> None:
    for count in (1, 5):
        players = [(user(i), f"P{i}") for i in range(count)]
        with pytest.raises(RuleError) as caught:
            start(players, Settings(max_seats=10), seed=1, now=0)
        assert caught.value.code in (ErrorCode.NOT_ENOUGH_PLAYERS, ErrorCode.ROOM_FULL)
    assert apply_changes(Settings(), {"size": 7}).size == 7
    assert apply_changes(Settings(), {"size": 0}).size == 0
    for bad in ({"size": 4}, {"size": 9}, {"size": 3}, {"ai_level": 0}, {"turn_s": 5}):
        with pytest.raises(RuleError) as caught:
            apply_changes(Settings(), bad)  # type: ignore[arg-type]
        assert caught.value.code is ErrorCode.BAD_SETTING
    untimed = a_game().with_settings(timers=False).started()
    assert untimed.state.deadline is None


# --- a turn --------------------------------------------------------------------------------


def test_the_allotment_is_the_seats_chunks_at_the_start_of_its_turn() -> None:
    game = hex5().with_board({"a1": 0, "a2": 0, "c1": 0, "c2": 0, "e1": 0, "e2": 0,
                              "i1": 1, "i2": 1})  # fmt: skip
    assert game.round.allotment == 3
    game.place("a3")  # joins a chunk: the allotment stays what it was at the start
    game.place("g1", "g3")
    refused(game, PlaceStone(user_id=user(0), cell=game.cell("g5"), colour=0),
            Refusal.TOO_MANY_STONES)  # fmt: skip
    game.end()
    assert game.round.seat == 1 and game.round.allotment == 1
    assert game.state.seats[0].groups == [3, 2, 2, 1]


def test_the_allotment_is_capped_by_the_empty_cells() -> None:
    game = hex5().with_board({"a1": 0, "a2": 0, "c1": 0, "c2": 0, "e1": 0, "e2": 0,
                              "i4": -1, "i5": -1}, fill=1)  # fmt: skip
    assert game.state.seats[0].chunks == 3 and game.round.allotment == 2
    refused(game, PlaceStones(user_id=user(0), stones=((game.cell("i4"), 0),
            (game.cell("i5"), 0), (game.cell("a3"), 0))), Refusal.OCCUPIED)  # fmt: skip
    game.play("i4", "i5")
    assert game.state.phase is Phase.REVEAL  # and the board is full


def test_a_seat_with_no_room_for_a_stone_can_only_pass() -> None:
    game = hex5().with_board({"a1": 0, "a2": 0, "i5": -1}, fill=1)
    game.play("i5", colour=1)
    assert game.state.phase is Phase.REVEAL and game.state.end_reason == "board_full"


def test_refusals_change_nothing() -> None:
    game = hex5().place("a1")
    a1, far = game.cell("a1"), (9, -9, 0)
    f4 = game.cell("f4")  # seat 0's start stone
    refused(game, PlaceStone(user_id=user(0), cell=f4, colour=0), Refusal.OCCUPIED)
    refused(game, Undo(user_id=user(0), cell=f4), Refusal.NOTHING_TO_UNDO)
    game.undo()
    refused(game, Undo(user_id=user(0)), Refusal.NOTHING_TO_UNDO)
    game.place("a1")
    refused(game, PlaceStone(user_id=user(0), cell=a1, colour=1), Refusal.OCCUPIED)  # pending
    i5 = game.cell("i5")
    refused(game, PlaceStone(user_id=user(0), cell=i5, colour=0), Refusal.TOO_MANY_STONES)
    game.undo()
    refused(game, PlaceStone(user_id=user(0), cell=far, colour=0), Refusal.NO_SUCH_CELL)
    refused(game, PlaceStone(user_id=user(0), cell=a1, colour=2), Refusal.NO_SUCH_COLOUR)
    refused(game, PlaceStone(user_id=user(1), cell=a1, colour=1), Refusal.NOT_YOUR_TURN)
    refused(game, EndTurn(user_id=user(1)), Refusal.NOT_YOUR_TURN)
    refused(game, Pass(user_id=user(1)), Refusal.NOT_YOUR_TURN)
    refused(game, Undo(user_id=user(1)), Refusal.NOT_YOUR_TURN)
    refused(game, PlaceStone(user_id=999, cell=a1, colour=0), ErrorCode.NOT_IN_GAME)
    refused(game, PlaceStone(user_id=user(0), cell=a1, colour=0, round_no=7), ErrorCode.STALE)
    refused(game, Join(user_id=999, name="Late"), ErrorCode.TOO_LATE_TO_JOIN)
    refused(game, PlaceStones(user_id=user(0), stones=((a1, 0), (a1, 1))), Refusal.OCCUPIED)


def test_stones_of_any_colour_in_any_mix_count_for_their_colour() -> None:
    game = hex5()
    game.play("d3", colour=1)  # seat 0 joins seat 1's chunk d4–d5
    assert game.state.seats[1].groups == [1, 0, 0, 1] and game.stones()["d3"] == 1
    game.play("a1", colour=0)  # seat 1 gives seat 0 a crumb
    assert game.state.seats[0].groups == [1, 1, 1]
    game = hex5().with_board({"f4": 0, "f5": 0, "d4": 1, "d5": 1, "a1": 0, "a5": 0, "i1": 0,
                              "i2": 0})  # fmt: skip
    assert game.round.seat == 0 and game.round.allotment == 2
    game.place("a2", colour=0).place("i5", colour=1).end()
    assert game.state.seats[0].groups == [3, 1, 3] and game.state.seats[1].groups == [1, 1, 1]
    played = next(e for e in game.events if isinstance(e, TurnPlayed))
    assert played.stones == [(game.cell("a2"), 0), (game.cell("i5"), 1)]
    assert played.scores == [[3, 1, 3], [1, 1, 1]]
    assert game.state.last_stones() == played.stones


def test_a_turn_is_built_stone_by_stone_undone_and_applied_whole() -> None:
    game = hex5().with_board({"a1": 0, "a2": 0, "c1": 0, "c2": 0, "e1": 0, "e2": 0,
                              "i1": 1, "i2": 1})  # fmt: skip
    game.place("g1").place("g3", colour=1).place("g5")
    assert kinds(game) == ["stones_pending"]
    assert [board.cell_name(c, 5) for c, _ in game.state.pending_stones()] == ["g1", "g3", "g5"]
    assert "g1" not in game.stones()  # nothing on the board until the turn ends
    assert group_view(game.state).stones == list(game.state.stones().items())
    assert seat_view(game.state, 1).pending == []  # only the seat on turn sees its turn
    assert len(seat_view(game.state, 0).pending) == 3
    game.undo()  # the last
    game.undo("g1")  # or one named
    assert game.state.pending_stones() == [(game.cell("g3"), 1)]
    game.undo(everything=True)
    assert game.state.pending_stones() == []
    game.place("g5", "g4").end()
    assert game.stones()["g5"] == 0 == game.stones()["g4"] and game.round.pending == []


def test_end_turn_with_no_stone_and_pass_are_passes_and_pass_drops_the_pending_stones() -> None:
    game = hex5().place("a1")
    game.pass_turn()
    assert "a1" not in game.stones()
    passed = next(e for e in game.events if isinstance(e, TurnPassed))
    assert passed.reason == "pass" and game.round.seat == 1
    game.end()
    assert next(e for e in game.events if isinstance(e, TurnPassed)).reason == "empty_turn"
    assert game.state.phase is Phase.REVEAL  # both passed


# --- the balancing rule --------------------------------------------------------------------


def test_seat_1s_second_turn_may_not_end_with_more_of_its_chunks() -> None:
    game = hex5(first=1)  # seat 1 is seat 1 of the SPEC
    game.play("a1")  # its first turn: a crumb
    game.play("i1")  # seat 0
    assert game.round.seat == 1 and game.round.balancing
    game.place("a2")  # a crumb becomes a second chunk
    refused(game, EndTurn(user_id=user(1)), Refusal.BALANCING)
    assert game.state.pending_stones() == [(game.cell("a2"), 1)]  # still pending, to undo
    game.undo().place("a3").end()  # another crumb: allowed
    assert game.state.seats[1].groups == [1, 2, 1]
    assert not game.round.balancing  # seat 0's turns are never restricted
    game.play("i2")
    assert game.state.seats[0].chunks == 2
    game.play("a2")  # seat 1's third turn may make chunks
    assert game.state.seats[1].chunks == 2


def test_the_balancing_rule_counts_chunks_at_the_end_of_the_turn_only() -> None:
    game = hex5(first=0).play("a1").play("i1")
    assert game.round.balancing
    game.play("f3")  # joins its own start chunk: no more chunks than before
    assert game.state.seats[0].groups == [1, 1, 0, 1]
    game = hex5(first=0).play("a1").play("a2", colour=0)  # seat 1 makes seat 0 a chunk
    assert game.state.seats[0].chunks == 2 and game.round.allotment == 2
    game.place("c1", "c2")  # a new chunk: 3 > 2
    refused(game, EndTurn(user_id=user(0)), Refusal.BALANCING)
    game.undo().place("a3").end()  # a2–a1 grows: still two chunks
    assert game.state.seats[0].chunks == 2


def test_a_missed_second_turn_uses_up_the_balancing_turn() -> None:
    game = hex5(first=0).play("a1").play("i1")
    game.time_out()
    assert game.round.seat == 1
    game.play("i5")
    assert not game.round.balancing


# --- the end -------------------------------------------------------------------------------


def test_the_game_ends_when_the_board_is_full_shows_the_end_then_finishes() -> None:
    game = hex5().with_board({"f4": 0, "f5": 0, "d4": 1, "d5": 1, "a1": -1}, fill=1)
    game.play("a1")
    assert game.state.phase is Phase.REVEAL and game.state.end_reason == "board_full"
    ended = next(e for e in game.events if isinstance(e, GameEnded))
    assert ended.reason == "board_full" and ended.deadline == game.now + 10
    assert game.state.waiting_for() == [] and game.state.deadline == ended.deadline
    refused(game, Timeout(round_no=game.round.no, phase=Phase.REVEAL), ErrorCode.TOO_EARLY)
    game.time_out()
    assert game.state.phase is Phase.FINISHED and kinds(game) == ["game_finished"]
    finished = game.events[0]
    assert isinstance(finished, GameFinished)
    assert finished.winners == [1] and finished.standings == [1, 0]  # one crumb loses
    assert finished.scores == [[1, 1, 1], [1] + [0] * 57 + [1]]  # one group of 58
    refused(game, Pass(user_id=user(0)), ErrorCode.NO_GAME)


def test_the_game_ends_when_every_seat_in_play_passed_one_after_another() -> None:
    game = hex5(players=3)
    game.pass_turn().play("a1").pass_turn()  # a stone in between: not yet
    assert game.state.phase is Phase.TURN and game.state.passed == [2]
    game.pass_turn()
    assert game.state.phase is Phase.TURN and game.state.passed == [2, 0]
    game.pass_turn()
    assert game.state.phase is Phase.REVEAL and game.state.passed == [2, 0, 1]
    game = hex5(players=3).pass_turn().pass_turn().pass_turn()
    assert game.state.phase is Phase.REVEAL and game.state.end_reason == "all_passed"


def test_score_lists_rank_the_seats_and_equal_lists_are_co_winners() -> None:
    game = hex5(players=3).pass_turn().pass_turn().pass_turn().time_out()
    finished = game.events[0]
    assert isinstance(finished, GameFinished)
    assert finished.winners == [0, 1, 2] and finished.standings == [0, 1, 2]
    assert [s.score for s in game.state.seats] == [0, 0, 0]
    game = hex5(players=3).play("a1", colour=1).play("i1").play("i5", colour=1)
    game.pass_turn().pass_turn().pass_turn().time_out()
    assert [s.groups for s in game.state.seats] == [[1, 0, 1], [1, 3, 1], [1, 0, 1]]
    assert standings(game.state)[-1] == 1 and winners(game.state) == [0, 2]
    assert [s.score for s in game.state.seats] == [1, 0, 1]  # seats beaten


# --- time, leaving, abandoning -------------------------------------------------------------


def test_a_missed_turn_is_a_pass_and_two_in_a_row_sit_the_seat_out() -> None:
    game = hex5(players=3).place("a1")
    refused(game, Timeout(round_no=1, phase=Phase.TURN), ErrorCode.TOO_EARLY)
    refused(game.later(200), Timeout(round_no=2, phase=Phase.TURN), ErrorCode.STALE)
    game.time_out()
    passed = next(e for e in game.events if isinstance(e, TurnPassed))
    assert passed.reason == "timeout" and "a1" not in game.stones()
    assert game.state.seats[0].missed == 1 and game.round.seat == 1
    game.play("a1").play("a5")
    game.time_out()  # seat 0 again: two in a row
    assert game.state.seats[0].status is SeatStatus.SPECTATING
    assert "seat_spectating" in kinds(game) and game.round.seat == 1
    game.play("i1").play("i5")
    assert game.round.seat == 1  # seat 0 is stepped over
    game.do(ComeBack(user_id=user(0)))
    assert game.state.seats[0].status is SeatStatus.PLAYING
    game.play("c1").play("c5")
    assert game.round.seat == 0


def test_every_seat_passing_by_timeout_ends_the_game() -> None:
    game = hex5().time_out().time_out()
    assert game.state.phase is Phase.REVEAL and game.state.end_reason == "all_passed"


def test_skip_and_unreachable_are_missed_turns() -> None:
    game = hex5(players=3)
    game.do(Skip(user_id=user(0)))
    assert next(e for e in game.events if isinstance(e, TurnPassed)).reason == "skipped"
    refused(game, Skip(user_id=user(2)), ErrorCode.NOT_ALLOWED)
    refused(game, MarkUnreachable(user_id=user(2), round_no=2, phase=Phase.TURN),
            ErrorCode.STALE)  # fmt: skip
    game.do(MarkUnreachable(user_id=user(1), round_no=2, phase=Phase.TURN))
    assert kinds(game)[:2] == ["seat_unreachable", "turn_passed"] and game.round.seat == 2
    assert game.state.seats[1].missed == 1


def test_leaving_in_a_three_seat_game_passes_its_turns_and_it_cannot_win() -> None:
    game = hex5(players=3).play("a1", colour=0)
    game.play("i5", colour=2)  # seat 1 gives seat 2 a crumb
    game.play("a5", colour=2)
    game.pass_turn()  # seat 0
    assert game.round.seat == 1 and game.state.seats[1].groups == [1, 0, 1]
    game.place("i1")
    game.do(Leave(user_id=user(1)))  # on its turn: the turn passes on, its stones stay
    assert kinds(game)[:2] == ["seat_left", "turn_passed"] and game.round.seat == 2
    assert "i1" not in game.stones() and game.stones()["f4"] == 0
    assert game.state.seats[1].groups == [1, 0, 1]
    refused(game, Pass(user_id=user(1)), ErrorCode.HAS_LEFT)
    game.pass_turn()  # seat 0 passed before, seat 2 now: every seat in play passed
    assert game.state.phase is Phase.REVEAL
    game.time_out()
    assert standings(game.state) == [1, 0, 2]  # seat 1 has the best list, but it left
    assert winners(game.state) == [0]
    game = hex5(players=3).play("a1", colour=0).play("a5", colour=2)
    game.do(Leave(user_id=user(0)))  # not on its turn: the game goes on
    assert game.state.phase is Phase.TURN and game.round.seat == 2


def test_fewer_than_two_seats_in_play_or_no_person_abandons_the_game() -> None:
    game = hex5().place("a1")
    game.do(Leave(user_id=user(1)))
    assert game.state.phase is Phase.ABANDONED
    abandoned = next(e for e in game.events if isinstance(e, GameAbandoned))
    assert abandoned.reason == "too_few_players" and game.state.end_reason == "too_few_players"
    refused(game, Pass(user_id=user(0)), ErrorCode.NO_GAME)
    game = hex5().time_out().play("a1").time_out()  # seat 0 sits out: one seat in play
    assert game.state.phase is Phase.ABANDONED
    players = [(user(0), "Ann"), (AI_USER_ID, "🤖 Bot"), (AI_USER_ID - 1, "🤖 Two")]
    state, _ = start(players, Settings(size=5), seed=3, now=0)
    state, events = apply(state, Leave(user_id=user(0)), 1)
    assert state.phase is Phase.ABANDONED  # AI players alone do not play on
    game = hex5()
    game.do(StopGame(user_id=user(0)))  # the host stops it
    assert game.state.phase is Phase.ABANDONED and game.state.end_reason == "stopped"


def test_leaving_during_the_reveal_does_not_undo_the_end() -> None:
    game = hex5().pass_turn().pass_turn()
    game.do(Leave(user_id=user(1)))
    assert game.state.phase is Phase.REVEAL
    game.time_out()
    assert game.state.phase is Phase.FINISHED and winners(game.state) == [0]


# --- documents -----------------------------------------------------------------------------


def test_state_commands_and_events_survive_json() -> None:
    game = hex5(players=3).place("a1")
    state = game.state
    assert State.model_validate_json(state.model_dump_json()) == state
    commands: list[Command] = [
        PlaceStone(user_id=1, cell=(0, 0, 0), colour=2, round_no=3),
        PlaceStones(user_id=1, stones=(((0, 0, 0), 1), ((1, -1, 0), 0))),
        Undo(user_id=1, cell=(0, 0, 0)), EndTurn(user_id=1), Pass(user_id=1),
        Timeout(round_no=2, phase=Phase.TURN),
    ]  # fmt: skip
    for command in commands:
        assert COMMAND_ADAPTER.validate_json(COMMAND_ADAPTER.dump_json(command)) == command
    game.end().pass_turn().pass_turn().pass_turn().time_out()
    events = list(game.events)
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(events)) == events
    assert len(a_game().with_players(4).started().state.model_dump_json()) < 2_000


def test_typed_turns_name_cells_and_colours() -> None:
    g5, g6, f7 = (board.parse_cell(n, 6) for n in ("g5", "g6", "f7"))
    assert parse_stones("g5 g6", 6, 1) == [(g5, 1), (g6, 1)]
    assert parse_stones(" G5,g6 ; b:f7 ", 6, 0) == [(g5, 0), (g6, 0), (f7, 1)]
    assert parse_stones("2f7 1:g5", 6, 0) == [(f7, 1), (g5, 0)]
    assert parse_stones("r : g5", 6, 1) == [(g5, 0)]
    for text in ("", "pass", "g5 z9", "x:g5", "g5 g", "5g"):
        assert parse_stones(text, 6, 0) is None, text
