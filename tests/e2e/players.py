"""Players acting through Telegram: open a lobby, join, and play rounds by pressing buttons."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, buttons, wait_for
from tgbot.standin import MessageRecord

HINT = "a quiet <b>harbour</b> & gulls"


def all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run calls at the same moment (one thread each); their results in order."""
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


def seat_players(stack: ProcStack, names: list[str], settings: str) -> list[int]:
    """Players open private chats, the first adds the bot and opens a lobby with `settings`,
    the others join; returns their user ids in seat order."""
    users = [stack.world.add_user(first_name=name, username=f"u{i}").id
             for i, name in enumerate(names)]  # fmt: skip
    for user in users:
        assert stack.deliver(stack.world.start_private(user)) == 200
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    stack.wait_find(GROUP, "I run Hintrigue")
    stack.say(users[0], GROUP, "/newgame")
    lobby = stack.wait_find(GROUP, "a new game is open")
    for user in users[1:]:
        assert stack.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    stack.say(users[0], GROUP, f"/settings {settings}")
    for part in settings.split():
        key, _, value = part.partition("=")
        if key == "timers" and value == "off":
            wait_for(lambda: "timers off" in stack.find(GROUP, "a new game is open").plain_text,
                     20, "the settings in the lobby")  # fmt: skip
    return users


def start(stack: ProcStack, users: list[int]) -> None:
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"


def storyteller_prompt(
    stack: ProcStack, users: list[int], number: int
) -> tuple[int, MessageRecord]:
    def found() -> tuple[int, MessageRecord] | None:
        for user in users:
            prompt = stack.find(user, rf"Round {number}\b.*you are the storyteller")
            if prompt and buttons(prompt):
                return user, prompt
        return None

    return wait_for(found, 30, f"the storyteller of round {number}")


def give_hint(stack: ProcStack, users: list[int], number: int, **options: Any) -> tuple[int, str]:
    """The storyteller picks its first card and gives the hint; returns (teller, card text)."""
    teller, prompt = storyteller_prompt(stack, users, number)
    text, data = buttons(prompt)[0]
    assert stack.press(teller, prompt, data, **options).startswith("Chosen:")
    assert stack.say(teller, teller, HINT, **options) == 200
    return teller, text


def play_decoy(stack: ProcStack, user: int, number: int, **options: Any) -> str:
    prompt = stack.wait_find(user, rf"Round {number}\b.*Choose a decoy")
    text, data = buttons(prompt)[0]
    answer = stack.press(user, prompt, data, **options)
    assert answer.startswith("Decoy played"), answer
    return text


def table(stack: ProcStack, number: int) -> tuple[MessageRecord, dict[str, str]]:
    """The round's table message, open for votes, and its buttons by scene (an earlier game's
    table of the same round number has none left)."""
    def open_table() -> MessageRecord | None:
        found = stack.find(GROUP, rf"The table · round {number}\b")
        return found if found is not None and buttons(found) else None

    found = wait_for(open_table, 30, f"the table of round {number}")
    return found, {label.split(". ", 1)[1]: data for label, data in buttons(found)}


def vote(stack: ProcStack, user: int, message: MessageRecord, data: str, **options: Any) -> None:
    answer = stack.press(user, message, data, **options)
    assert answer.startswith("Vote recorded"), answer


def play_round(stack: ProcStack, users: list[int], number: int,
               together: bool = False) -> dict[int, int]:  # fmt: skip
    """Everybody acts: the first voter finds the card, the others vote for its decoy.

    With `together`, the decoys and then the votes are pressed at the same moment, spread over
    the web processes. Returns the points the rules give: storyteller 3, first voter 3 + one
    per stolen vote, the others 0.
    """
    teller, card = give_hint(stack, users, number)
    room = stack.room()
    assert room.round is not None
    others = [room.seats[i].user_id for i in room.round.participants
              if room.seats[i].user_id != teller]  # fmt: skip
    if together:
        decoy_texts = all_at_once([
            (lambda u=u, i=i: play_decoy(stack, u, number, web=i)) for i, u in enumerate(others)
        ])  # fmt: skip
        decoys = dict(zip(others, decoy_texts, strict=True))
    else:
        decoys = {user: play_decoy(stack, user, number) for user in others}
    message, scenes = table(stack, number)
    first, *rest = others
    choices = {first: scenes[card], **{user: scenes[decoys[first]] for user in rest}}
    if together:
        all_at_once([(lambda u=u, i=i: vote(stack, u, message, choices[u], web=i))
                     for i, u in enumerate(others)])  # fmt: skip
    else:
        for user in others:
            vote(stack, user, message, choices[user])
    stack.wait_find(GROUP, rf"Reveal · round {number}\b")
    return {teller: 3, first: 3 + len(rest), **dict.fromkeys(rest, 0)}
