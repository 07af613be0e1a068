"""A whole game played only through Telegram updates POSTed to the webhook."""

from __future__ import annotations

import re

from engine.games.registry import GAMES
from engine.store import Store
from tests.harness import (
    GROUP,
    Stack,
    button,
    buttons,
    storyteller_prompt,
    wait_for,
)

NAMES = ["Ann", "<b>Bob</b> & co", "Cy", "Ann"]
HINT = "<script>alert(1)</script> & more"


def seat_players(stack: Stack) -> list[int]:
    """Four players open private chats, one opens a lobby, the others join; returns user ids."""
    users = [
        stack.world.add_user(first_name=name, username=f"player{i}").id
        for i, name in enumerate(NAMES)
    ]
    for user in users:
        assert stack.deliver(stack.world.start_private(user)) == 200
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    wait_for(lambda: stack.find(GROUP, "I run Hintrigue"), what="the introduction")
    stack.say(users[0], GROUP, "/newgame")
    lobby = wait_for(lambda: stack.find(GROUP, "a new game is open"), what="the lobby")
    for user in users[1:]:
        press = stack.press(user, lobby, button(lobby, "Join"))
        assert stack.answer_to(press) == "You joined the game."
    stack.say(users[0], GROUP, "/settings rotations=1 timers=off")
    wait_for(
        lambda: "timers off" in (stack.find(GROUP, "a new game is open").plain_text),
        what="the settings in the lobby",
    )
    return users


def play_round(stack: Stack, users: list[int], number: int) -> dict[int, int]:
    """One round: the first voter finds the card, the others vote for the first voter's decoy.

    Returns the points this pattern gives by the rules: storyteller 3, first voter 3 + 2
    stolen votes, the other two 0.
    """
    teller, dm = storyteller_prompt(stack, users, number)
    text, data = buttons(dm)[0]
    press = stack.press(teller, dm, data)
    assert stack.answer_to(press).startswith("Chosen:")
    stack.say(teller, teller, HINT)
    others = [u for u in users if u != teller]
    decoys = {}
    for user in others:
        prompt = wait_for(
            lambda u=user: stack.find(u, rf"Round {number}\b.*Choose a decoy"),
            what="a decoy prompt",
        )
        card_text, card_data = buttons(prompt)[0]
        assert stack.answer_to(stack.press(user, prompt, card_data)).startswith("Decoy played")
        decoys[user] = card_text
    table = wait_for(lambda: stack.find(GROUP, rf"The table · round {number}\b"), what="the table")
    scenes = {label.split(". ", 1)[1]: data for label, data in buttons(table)}
    assert HINT in table.plain_text
    first, second, third = others
    votes = {first: scenes[text], second: scenes[decoys[first]], third: scenes[decoys[first]]}
    for user, data in votes.items():
        answer = stack.answer_to(stack.press(user, table, data))
        assert answer.startswith("Vote recorded"), answer
    wait_for(lambda: stack.find(GROUP, rf"Reveal · round {number}\b"), what="the reveal")
    return {teller: 3, first: 5, second: 0, third: 0}


def test_a_whole_four_player_game_through_the_webhook(stack: Stack):
    users = seat_players(stack)
    lobby = stack.find(GROUP, "a new game is open")
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    expected = dict.fromkeys(users, 0)
    for number in range(1, 5):
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the final standings")
    room = Store(stack.client, GAMES).load(GROUP)
    assert room is not None and room.phase.value == "finished"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    top = max(expected.values())
    winners = [u for u, p in expected.items() if p == top]
    assert ("win together" in final.plain_text) == (len(winners) > 1)
    for seat in room.seats:
        assert re.search(rf"{seat.score} points?\b", final.plain_text)


def test_names_and_hints_with_html_are_shown_literally(stack: Stack):
    users = seat_players(stack)
    lobby = stack.find(GROUP, "a new game is open")
    assert "<b>Bob</b> & co" in lobby.plain_text
    assert "Ann (@player0)" in lobby.plain_text and "Ann (@player3)" in lobby.plain_text
    stack.press(users[0], lobby, button(lobby, "Start"))
    play_round(stack, users, 1)
    reveal = stack.find(GROUP, r"Reveal · round 1\b")
    assert HINT in reveal.plain_text and "<b>Bob</b> & co" in reveal.plain_text
