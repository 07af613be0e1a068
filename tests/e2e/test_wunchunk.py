"""A game of Wunchunk through the Procfile's processes, one person against an AI seat to the
final: `/newgame wunchunk`, an AI seat from the lobby's button, the person's turns typed and
ended in private, the AI's turns played by the workers on their own, the board edited in the
group turn after turn, the final with both score lists."""

from __future__ import annotations

import time

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.model import State
from engine.model import Phase as TablePhase
from tests.e2e.players import seat_for_game
from tests.e2e.procs import GROUP
from tests.harness import button, buttons, wait_for


def test_one_person_plays_wunchunk_against_an_ai_seat_to_the_final(launch):
    stack = launch(timer_scale=0.05)
    [ann] = seat_for_game(stack, ["Ann"], "w", "wunchunk", "Wunchunk", "size=5 timers=off",
                          "board of 5")  # fmt: skip
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(ann, lobby, button(lobby, "Add AI")) == "An AI player took a seat."
    wait_for(lambda: "🤖 Iris" in stack.find(GROUP, "a new game is open").plain_text, 20)
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(ann, lobby, button(lobby, "Start")) == "The game starts!"
    placed = passed = 0
    deadline = time.monotonic() + 120
    while stack.room().phase is TablePhase.PLAYING:
        assert time.monotonic() < deadline, "the game did not end"
        state = stack.room().play
        assert isinstance(state, State)
        rnd = state.round
        mine = rnd is not None and rnd.seat == 0 and state.phase == "turn"
        prompt = stack.find(ann, rf"Turn {rnd.no}\b.*your turn") if mine and rnd else None
        if prompt is None or not buttons(prompt):
            time.sleep(0.05)
            continue
        if placed < 3 and rnd.allotment:  # three turns of one stone of its own, then passes
            stones = state.stones()  # a crumb of its own, touching none: never a new chunk
            cell = hexes.cell_name(next(
                c for c in hexes.cells(5) if c not in stones
                and all(stones.get(o) != 0 for o in hexes.neighbours(c, 5))
            ), 5)  # fmt: skip
            assert stack.say(ann, ann, cell) == 200
            pending = stack.wait_find(ann, rf"Turn {rnd.no}\b.*Placed so far: {cell}")
            assert stack.press(ann, pending, button(pending, "End turn")) == "Turn played."
            placed += 1
        else:
            assert stack.press(ann, prompt, button(prompt, "Pass")) == "You passed."
            passed += 1
        wait_for(lambda n=rnd.no: (s := stack.room().play) is None or s.round is None
                 or s.round.no != n or s.phase != "turn", 20, "the turn over")  # fmt: skip
    final = stack.wait_find(GROUP, "Game over")
    assert "Iris" in final.plain_text and "Ann" in final.plain_text
    state = stack.room().play
    assert isinstance(state, State) and state.end_reason in ("board_full", "all_passed")
    assert placed >= 1 and state.seats[1].turns >= placed
    colours = [c for c in state.stones().values()]
    assert len(colours) > 4 + placed, "the AI seat placed stones of its own accord"
    board = stack.find(GROUP, r"Wunchunk · turn")
    assert board is not None and board.photo, "the board stayed a picture, edited turn by turn"
