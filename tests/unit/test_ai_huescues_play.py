"""AI seats in Hues and Cues, through the game's rules: their cues pass the game's checks in
every language, their cones obey the rules, they use only what their seat may know, and in
random games mixed with people's commands the game never refuses them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.huescues import board
from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    ConfirmCone,
    GiveCue,
    NoSecondCue,
)
from engine.games.huescues.cues import check_cue, fold, is_colour_word
from engine.games.huescues.model import OVER_PHASES, Phase, Settings, State
from engine.games.huescues.rules import apply, start
from tests.unit.test_huescues_playthrough import check_end, check_step, random_command
from workers.ai import huescues
from workers.ai.mind import seed_for
from workers.ai.vocab import LANGUAGES


def a_game(seed: int, players: int = 5, language: str = "en", **options: object) -> State:
    seats = [(1 + i, f"P{i}") for i in range(players)]
    state, _ = start(seats, Settings(**options), seed=seed, now=0.0, language=language)  # type: ignore[arg-type]
    return state


def play(state: State, seat: int, language: str, seed: int) -> State:
    for command in huescues.decide(state, seat, language, seed):
        state, _ = apply(state, command, 0.0)  # never refused
    return state


def test_every_word_the_ai_may_say_passes_the_games_check_in_its_language():
    for language in LANGUAGES:
        said = huescues.phrases(language)
        firsts = [p.text for p in said if p.words == 1]
        assert len(firsts) >= 150, language
        for phrase in said:
            if phrase.words <= 2:
                assert check_cue(phrase.text, language, True, []) == phrase.text, phrase
            if phrase.words == 1:
                assert check_cue(phrase.text, language, False, []) == phrase.text, phrase


def test_an_ai_cue_is_never_a_colour_word_of_the_games_language_or_of_english():
    rnd = random.Random(3)
    for seed in range(140):
        room_language = LANGUAGES[seed % len(LANGUAGES)]
        game_language = rnd.choice(LANGUAGES)  # the room may have changed its language since
        state = a_game(seed, language=game_language)
        assert state.round is not None
        state = state.model_copy(update={"used_cues": [fold(w) for w in rnd.sample(
            [p.text for p in huescues.phrases(room_language)], 40)]})  # fmt: skip
        commands = huescues.decide(state, state.round.giver, room_language, seed)
        assert [type(c) for c in commands] == [ChooseColour, GiveCue]
        cue = commands[1].text  # type: ignore[union-attr]
        assert fold(cue) not in state.used_cues
        assert not any(is_colour_word(w, game_language) for w in cue.split()), cue
        assert huescues.cue_words(cue) == 1
        assert commands == huescues.decide(state, state.round.giver, room_language, seed)
        play(state, state.round.giver, room_language, seed)


def test_a_round_of_ai_seats_walks_every_phase_and_cones_obey_the_rules():
    seen_second = seen_none = 0
    for seed in range(40):
        state = a_game(seed, players=6, language="it")
        turn = state.round
        assert turn is not None
        state = play(state, turn.giver, "it", seed)
        assert state.phase is Phase.GUESS
        for seat in state.waiting_for():
            state = play(state, seat, "it", seed + seat)
        assert state.phase is Phase.SECOND_CUE
        first = dict(state.round.cones)  # type: ignore[union-attr]
        assert len(first) == 5
        state = play(state, turn.giver, "it", seed)
        if state.phase is Phase.REVEAL:
            seen_none += 1
            colour = state.round.colour  # type: ignore[union-attr]
            assert colour is not None and all(
                board.distance(c, colour) <= 1 for c in first.values()
            )
            continue
        seen_second += 1
        assert state.phase is Phase.SECOND_GUESS
        for seat in state.waiting_for():
            assert huescues.decide(state, seat, "it", 1)[0].cell not in first.values()  # type: ignore[union-attr]
            state = play(state, seat, "it", seed + seat)
        assert state.phase is Phase.REVEAL
        assert set(state.round.second_cones.values()).isdisjoint(first.values())  # type: ignore[union-attr]
    assert seen_second > 0 and seen_none > 0


def test_an_ai_owes_nothing_when_the_game_does_not_wait_for_it():
    state = a_game(4)
    turn = state.round
    assert turn is not None
    guesser = next(i for i in range(len(state.seats)) if i != turn.giver)
    assert huescues.decide(state, guesser, "en", 1) == []
    state = play(state, turn.giver, "en", 1)
    assert huescues.decide(state, turn.giver, "en", 1) == []
    state = play(state, guesser, "en", 2)
    assert huescues.decide(state, guesser, "en", 2) == []


def test_with_free_choice_the_cue_giver_chooses_any_cell():
    cells = set()
    for seed in range(30):
        state = a_game(seed, free_choice=True)
        assert state.round is not None and state.card_cells() == []
        commands = huescues.decide(state, state.round.giver, "fr", seed)
        assert isinstance(commands[0], ChooseColour)
        cells.add(commands[0].cell)
        play(state, state.round.giver, "fr", seed)
    assert len(cells) > 10


def _hidden_changed(state: State, rnd: random.Random) -> State:
    """The same game as a guesser sees it, with everything hidden from it changed: the
    chosen colour, the card, the other seats' choices and cones of the guess now open, the
    draw pile and the generator."""
    turn = state.round
    assert turn is not None
    secret = turn.clone()
    secret.colour = rnd.randrange(board.CELLS)
    secret.card = rnd.randrange(120)
    secret.choices = {seat: rnd.randrange(board.CELLS) for seat in secret.choices}
    if state.phase is Phase.GUESS:
        secret.cones = {seat: rnd.randrange(board.CELLS) for seat in secret.cones}
    secret.second_cones = {seat: rnd.randrange(board.CELLS) for seat in secret.second_cones}
    draw = list(state.draw)
    rnd.shuffle(draw)
    return state.model_copy(update={"round": secret, "rng": rnd.getrandbits(63), "draw": draw})


def test_a_guesser_uses_only_what_its_seat_may_see():
    rnd = random.Random(5)
    checked = 0
    for seed in range(25):
        state = a_game(seed, players=6, language="de")
        turn = state.round
        assert turn is not None
        state = play(state, turn.giver, "de", seed)
        while state.phase in (Phase.GUESS, Phase.SECOND_GUESS, Phase.SECOND_CUE):
            if state.phase is Phase.SECOND_CUE:
                state = play(state, turn.giver, "de", seed)
                continue
            seat = state.waiting_for()[0]
            decided = huescues.decide(state, seat, "de", seed)
            for _ in range(3):
                assert huescues.decide(_hidden_changed(state, rnd), seat, "de", seed) == decided
                checked += 1
            state = play(state, seat, "de", seed)
    assert checked > 300


def test_the_cue_giver_uses_its_card_and_not_the_hidden_draw():
    rnd = random.Random(6)
    for seed in range(20):
        state = a_game(seed)
        turn = state.round
        assert turn is not None
        decided = huescues.decide(state, turn.giver, "es", seed)
        draw = list(state.draw)
        rnd.shuffle(draw)
        other = state.model_copy(update={"draw": draw, "rng": rnd.getrandbits(63)})
        assert huescues.decide(other, turn.giver, "es", seed) == decided


def play_mixed_game(
    seed: int, players: int, ais: int, language: str, free: bool
) -> tuple[State, int]:
    """A game where `ais` seats decide by the AI and the others send random commands (legal
    or not, timeouts, leaves, joins); the engine must accept every AI command."""
    rnd = random.Random(seed)
    seats = [(1 + i, f"P{i}") for i in range(players)]
    game_language = rnd.choice(LANGUAGES)
    state, _ = start(seats, Settings(max_seats=10, turns=1, free_choice=free), seed=seed,
                     now=0.0, language=game_language)  # fmt: skip
    ai_users = {user for user, _ in rnd.sample(seats, ais)}
    now, totals, acted = 0.0, {}, 0
    for _ in range(20_000):
        if state.phase in OVER_PHASES:
            break
        turn = state.round
        assert turn is not None
        owing = [i for i in state.waiting_for() if state.seats[i].user_id in ai_users]
        if owing and rnd.random() < 0.5:
            seat = rnd.choice(owing)
            decision = seed_for("test", seed, turn.no, state.phase.value, seat)
            commands = huescues.decide(state, seat, language, decision)
            assert commands == huescues.decide(state, seat, language, decision)
            assert commands, "an AI the game waits for always acts"
            assert isinstance(commands[-1], GiveCue | NoSecondCue | ConfirmCone)
            for command in commands:
                if isinstance(command, ChooseCell) and state.phase is Phase.SECOND_GUESS:
                    assert command.cell not in turn.cones.values()
                new, events = apply(state, command, now)  # never refused
                check_step(state, new, events, totals)
                state = new
                acted += 1
            continue
        command, now = random_command(state, rnd, now)
        if getattr(command, "user_id", None) in ai_users:
            continue  # an AI seat acts only through its decisions
        try:
            new, events = apply(state, command, now)
        except RuleError:
            continue
        check_step(state, new, events, totals)
        state = new
        now += rnd.random() * 3
    assert state.phase in OVER_PHASES
    check_end(state)
    return state, acted


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 10),
    ais=st.integers(1, 10),
    language=st.sampled_from(LANGUAGES),
    free=st.booleans(),
)
def test_an_ai_seat_never_makes_an_illegal_move_in_hues_and_cues(
    seed, players, ais, language, free
):
    play_mixed_game(seed, players, min(ais, players), language, free)


def test_ai_seats_act_in_mixed_hues_and_cues_games():
    assert sum(play_mixed_game(seed, 5, 2, "pt", False)[1] > 0 for seed in range(8)) >= 6


def test_ai_seats_play_a_whole_game_at_the_table_through_the_workers_dispatch():
    from engine.commands import AddAI, ChooseGame, StartGame
    from engine.commands import Timeout as TableTimeout
    from engine.games.registry import GAMES
    from engine.model import OVER_PHASES as TABLE_OVER
    from tests.builders import a_room, user
    from tests.table import apply as table_apply
    from workers.dispatch import ai_turn
    from workers.games import MINDS

    game = a_room().with_players(1).with_settings(language="ru").in_lobby()
    game.do(ChooseGame(user_id=user(0), game="huescues"))
    for _ in range(3):
        game.do(AddAI(user_id=user(0)))
    game.do(StartGame(user_id=user(0)))
    room, now, played = game.room, game.now, 0
    for _ in range(500):
        if room.phase in TABLE_OVER:
            break
        turn = ai_turn(room, GAMES)
        assert turn is not None
        if turn.waiting:
            for command in MINDS[room.game](room, turn.waiting[0]):
                room, _ = table_apply(room, command, now)  # never refused
                played += 1
            continue
        hues = room.play
        assert isinstance(hues, State) and hues.round is not None
        if hues.round.giver == 0 and hues.phase in (Phase.CUE, Phase.SECOND_CUE):
            for command in huescues.decide(hues, 0, "en", int(now)):  # the person gives cues
                room, _ = table_apply(room, command, now)
            continue
        assert room.deadline is not None  # and never guesses: its guesses time out
        now = room.deadline
        room, _ = table_apply(room, TableTimeout(round_no=turn.round_no, phase=turn.phase), now)
    assert room.phase.value == "finished"
    assert played > 20
