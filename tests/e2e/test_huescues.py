"""A whole game of Hues and Cues through the Procfile's processes: `/newgame huescues`, the
card and the cues in private, cones typed and confirmed on their close-up, the second cue or
none, the reveal's timer between rounds, the final standings with exact totals."""

from __future__ import annotations

import re

from engine.games.huescues import board
from engine.games.huescues.model import State
from tests.e2e.players import seat_for_game
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, prompt_of, wait_for
from tgbot.standin import MessageRecord

NAMES = ["Ann", "Bob", "Cy", "Dee"]
CUES = ["lavender", "pig", "turquoise", "forest"]


def seat_players(stack: ProcStack) -> list[int]:
    settings = "turns=1 timers=off"
    return seat_for_game(stack, NAMES, "h", "huescues", "Hues and Cues", settings, "timers off")


def giver_prompt(stack: ProcStack, users: list[int], number: int) -> tuple[int, MessageRecord]:
    return prompt_of(stack, users, number, "you give the cues", "the cue giver", 30)


def distance(a: int, b: int) -> int:
    return max(abs(a // 30 - b // 30), abs(a % 30 - b % 30))


def away(cell: int, rows: int) -> int:
    """A cell `rows` rows from `cell` in its column (upwards when that leaves the board)."""
    row = cell // 30 + rows if cell // 30 + rows <= 15 else cell // 30 - rows
    return board.at(row, cell % 30)


def place(stack: ProcStack, user: int, cell: int, pattern: str) -> None:
    """Type a cell, then confirm it on its close-up."""
    assert stack.say(user, user, board.name(cell).lower()) == 200
    name = board.name(cell)
    closeup = wait_for(lambda: (m := stack.find(user, pattern)) and f"You chose {name}." in
                       m.plain_text and m, 20, "the close-up")  # fmt: skip
    assert stack.press(user, closeup, button(closeup, "Confirm")) == f"Your cone is on {name}."


def play_round(stack: ProcStack, users: list[int], number: int) -> dict[int, int]:
    """The cue giver takes its card's second colour; the guessers put their first cones 0, 1,
    2 rows from it; odd rounds have a second cue whose cones go 1 row from it on the other
    side of the first ones. Returns the points by the rules' words."""
    giver, prompt = giver_prompt(stack, users, number)
    state = stack.room().play
    assert isinstance(state, State)
    colour = state.card_cells()[1]
    stack.press(giver, prompt, button(prompt, f"2 · {board.name(colour)}"))
    wait_for(
        lambda: (
            f"Your colour: {board.name(colour)}"
            in stack.find(giver, rf"Round {number}\b.*you give the cues").plain_text
        ),
        20,
        "chosen",
    )
    assert stack.say(giver, giver, CUES[number - 1]) == 200
    guessers = [u for u in users if u != giver]
    first = {user: away(colour, k) for k, user in enumerate(guessers)}
    pattern = rf"Round {number}\b.*cue: «{CUES[number - 1]}»\n"
    for user, cell in first.items():
        wait_for(lambda u=user: stack.find(u, pattern), 20, "the guess prompt")
        place(stack, user, cell, pattern)
    second: dict[int, int] = {}
    cue_prompt = stack.wait_find(giver, rf"Round {number}\b.*first cones are down")
    if number % 2:
        assert stack.say(giver, giver, "deep sea" if number == 1 else "sea breeze") == 200
        pattern2 = rf"Round {number}\b.*cues: «{CUES[number - 1]}» · «"
        free = sorted((c for c in board.around(colour, 2) if c not in first.values()),
                      key=lambda c: (distance(c, colour), c))  # fmt: skip
        for k, user in enumerate(guessers):
            second[user] = free[k]
            wait_for(lambda u=user: stack.find(u, pattern2), 20, "the second prompt")
            place(stack, user, free[k], pattern2)
    else:
        assert (
            stack.press(giver, cue_prompt, button(cue_prompt, "No second cue"))
            == "No second cue: the colour is revealed in the group."
        )
    stack.wait_find(GROUP, rf"Round {number}: the colour was {board.name(colour)}")
    gained = {}
    close = 0
    for user in guessers:
        cells = [first[user], *([second[user]] if user in second else [])]
        gained[user] = sum({0: 3, 1: 2, 2: 1}.get(distance(colour, c), 0) for c in cells)
        close += sum(distance(colour, c) <= 1 for c in cells)
    gained[giver] = min(9, close)
    return gained


def test_a_whole_game_of_hues_and_cues_through_the_procfiles_processes(launch):
    stack = launch(timer_scale=0.05)
    users = seat_players(stack)
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"
    expected = dict.fromkeys(users, 0)
    for number in range(1, 5):  # turns=1: each of the four gives the cues once
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    top = max(expected.values())
    tied = list(expected.values()).count(top) > 1
    if tied:  # the totals, then a tie-break round: stopped here
        stack.wait_find(GROUP, "Tie-break round 1 of 3")
        assert {seat.user_id: seat.score for seat in stack.room().seats} == expected
        stack.say(users[0], GROUP, "/stop")
        question = stack.wait_find(GROUP, "End this game now")
        stack.press(users[0], question, button(question, "Yes"))
    final = stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.game == "huescues"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    state = room.play
    assert isinstance(state, State)
    assert room.phase.value == ("abandoned" if tied else "finished")
    for seat in state.seats:
        assert re.search(rf"{seat.score} points? · {seat.exact} exact hits?", final.plain_text)
    assert stack.world.too_many_requests == []
