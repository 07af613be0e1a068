"""Two forum topics' games at once through the Procfile's processes (two web, two workers),
with their timers running: each game's messages stay in its topic, and each ends as the rules
say."""

from __future__ import annotations

import re

from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store
from tests.e2e.players import all_at_once, round_points
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, buttons, storyteller_prompt, wait_for
from tgbot.standin import MessageRecord


def in_topic(stack: ProcStack, thread: int, pattern: str) -> MessageRecord | None:
    """The latest bot message in a topic of the forum whose text matches a pattern."""
    for message in reversed(stack.world.bot_messages(GROUP)):
        if message.thread_id == thread and re.search(pattern, message.plain_text, re.S):
            return message
    return None


def wait_in(stack: ProcStack, thread: int, pattern: str, timeout: float = 30) -> MessageRecord:
    return wait_for(lambda: in_topic(stack, thread, pattern), timeout, f"{pattern!r} in {thread}")


def seat(stack: ProcStack, thread: int, names: list[str]) -> list[int]:
    """Players open private chats; the first opens the topic's lobby, the others join."""
    world = stack.world
    users = [world.add_user(first_name=name).id for name in names]
    for user in users:
        assert stack.deliver(world.start_private(user)) == 200
    stack.deliver(world.user_message(users[0], GROUP, "/newgame", thread))
    lobby = wait_in(stack, thread, "a new game is open")
    for user in users[1:]:
        assert stack.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    stack.deliver(world.user_message(users[0], GROUP, "/settings rotations=1", thread))
    wait_for(lambda: "1 rotation" in in_topic(stack, thread, "a new game is open").plain_text,
             20, "the settings in the lobby")  # fmt: skip
    return users


def first_round(stack: ProcStack, thread: int, users: list[int], hint: str) -> dict[int, int]:
    """Round 1, everybody acting (decoys and votes at once, over both web processes): the first
    voter finds the card, the other takes its decoy."""
    teller, prompt = storyteller_prompt(stack, users, 1)
    card, data = buttons(prompt)[0]
    assert stack.press(teller, prompt, data).startswith("Chosen:")
    stack.say(teller, teller, hint)
    others = [u for u in users if u != teller]
    prompts = [stack.wait_find(u, r"Round 1\b.*Choose a decoy") for u in others]
    picked = [buttons(p)[0] for p in prompts]  # (scene, data) of each one's first card
    pressing = zip(others, prompts, picked, strict=True)
    answers = all_at_once([(lambda u=u, p=p, d=d, i=i: stack.press(u, p, d[1], web=i))
                           for i, (u, p, d) in enumerate(pressing)])  # fmt: skip
    assert all(answer.startswith("Decoy played") for answer in answers), answers
    table = wait_in(stack, thread, r"The table · round 1\b")
    assert hint in table.plain_text
    scenes = {label.split(". ", 1)[1]: data for label, data in buttons(table)}
    first, second = others
    choices = {first: scenes[card], second: scenes[picked[0][0]]}
    answers = all_at_once(
        [(lambda u=u, i=i: stack.press(u, table, choices[u], web=i)) for i, u in enumerate(others)]
    )
    assert all(answer.startswith("Vote recorded") for answer in answers), answers
    return round_points(teller, first, [second])


def test_two_topics_play_at_once_with_their_timers_and_each_ends_in_its_topic(launch):
    stack = launch(timer_scale=0.05, webs=2, workers=2)
    world = stack.world
    world.add_chat(GROUP, "supergroup", is_forum=True, bot_status="left")
    games = {
        world.create_topic(GROUP, "Table A"): (["Ann", "Bob", "Cy"], "salt and lanterns"),
        world.create_topic(GROUP, "Table B"): (["Dee", "Eve", "Fay"], "a velvet storm"),
    }
    first_user = world.add_user(first_name="Host").id
    stack.deliver(world.bot_added(GROUP, first_user))
    seated = {thread: seat(stack, thread, names) for thread, (names, _) in games.items()}
    for thread, users in seated.items():
        lobby = wait_in(stack, thread, "a new game is open")
        assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"
    # Round 1 is played in both topics; then nobody gives a hint: the timers void rounds 2
    # and 3 of each game, whose only rotation then ends.
    expected = {thread: first_round(stack, thread, users, games[thread][1])
                for thread, users in seated.items()}  # fmt: skip
    store = Store(stack.client, GAMES)
    for thread in seated:
        wait_in(stack, thread, "Game over", timeout=90)
        room = store.load(RoomId(GROUP, thread))
        assert room is not None and room.phase.value == "finished"
        assert {seat.user_id: seat.score for seat in room.seats} == expected[thread]
    for thread, (names, hint) in games.items():
        others = [word for t, (n, h) in games.items() if t != thread for word in [*n, h]]
        shown = [m for m in world.bot_messages(GROUP) if m.thread_id == thread]
        for message in shown:  # every message in a topic is of that topic's game
            assert not [w for w in others if w in message.plain_text], message.plain_text
        assert any(hint in m.plain_text for m in shown)
        assert any("Game over" in m.plain_text and all(n in m.plain_text for n in names)
                   for m in shown)  # fmt: skip
    assert all(call.ok for call in world.calls_of("sendMessage") if call.error_code != 429)
    assert store.load(GROUP) is None  # General played nothing
