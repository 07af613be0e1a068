"""A whole game of Guess What! through the Procfile's processes: `/newgame guesswhat`, the
board, picks and clues and guesses in private, the reveal's timer between turns, the final
standings with exact totals."""

from __future__ import annotations

import re

from engine.games.guesswhat.model import State
from tests.e2e.players import seat_for_game
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, buttons, prompt_of, wait_for
from tgbot.standin import MessageRecord

NAMES = ["Ann", "Bob", "Cy", "Dee"]
CLUE = "a quiet <b>harbour</b> & gulls"


def seat_players(stack: ProcStack) -> list[int]:
    settings = "rotations=1 timers=off target=20 connoisseurs=on"
    return seat_for_game(stack, NAMES, "g", "guesswhat", "Guess What!", settings, "connoisseurs")


def active_prompt(stack: ProcStack, users: list[int], number: int) -> tuple[int, MessageRecord]:
    return prompt_of(stack, users, number, "it is your turn", "the active player", 30)


def pick(stack: ProcStack, user: int, pattern: str, row: int) -> MessageRecord:
    """Press the icons of one board row, column by column, waiting for each to show."""
    for column in range(3):
        prompt = stack.wait_find(user, pattern)
        label, data = buttons(prompt)[row * 3 + column]
        stack.press(user, prompt, data)
        wait_for(
            lambda c=column, lb=label: (
                (m := stack.find(user, pattern)) and sum("✅" in t for t, _ in buttons(m)) == c + 1
            ),
            20,
            f"pick {label}",
        )
    return stack.wait_find(user, pattern)


def play_round(stack: ProcStack, users: list[int], number: int) -> dict[int, int]:
    """The active player takes the first row; guessers in seat order find it except the last
    one, who takes the second row. By the rules: each finder +1, the active player +1 per
    finder (connoisseurs: they do not all find it)."""
    active, _ = active_prompt(stack, users, number)
    pick(stack, active, rf"Round {number}\b.*it is your turn", 0)
    assert stack.say(active, active, CLUE) == 200
    room = stack.room()
    state = room.play
    assert isinstance(state, State) and state.round is not None
    guessers = [room.seats[i].user_id for i in state.guessers()]
    *finders, last = guessers
    for user in guessers:
        prompt = pick(stack, user, rf"Round {number}\b.*clue is", 0 if user in finders else 1)
        assert stack.press(user, prompt, button(prompt, "Confirm")) == "Your guess is recorded."
    reveal = stack.wait_find(GROUP, rf"Round {number}: the answer")
    assert CLUE in reveal.plain_text and reveal.plain_text.count("✅") == len(finders)
    return {active: len(finders), **dict.fromkeys(finders, 1), last: 0}


def test_a_whole_game_of_guess_what_through_the_procfiles_processes(launch):
    stack = launch(timer_scale=0.05)
    users = seat_players(stack)
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"
    expected = dict.fromkeys(users, 0)
    for number in range(1, 5):  # rotations=1: each of the four is active once
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    final = stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase.value == "finished" and room.game == "guesswhat"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    state = room.play
    assert isinstance(state, State)
    for seat in state.seats:
        assert re.search(rf"{seat.score} points? · {seat.correct} correct guess", final.plain_text)
    assert stack.world.too_many_requests == []
