"""Players acting through Telegram: open a lobby, join, and play rounds by pressing buttons."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.games.hintrigue.model import round_of
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, buttons, storyteller_prompt, wait_for
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


def seat_for_game(stack: ProcStack, names: list[str], username: str, game: str, title: str,
                  settings: str, shown: str) -> list[int]:  # fmt: skip
    """Players open private chats, the first opens a lobby of `game` (`title`) and sets
    `settings`, the others join; returns their user ids in seat order once the lobby shows
    `shown`."""
    users = [stack.world.add_user(first_name=name, username=f"{username}{i}").id
             for i, name in enumerate(names)]  # fmt: skip
    for user in users:
        assert stack.deliver(stack.world.start_private(user)) == 200
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    stack.say(users[0], GROUP, f"/newgame {game}")
    lobby = stack.wait_find(GROUP, f"{title} — a new game is open")
    for user in users[1:]:
        assert stack.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    stack.say(users[0], GROUP, f"/settings {settings}")
    wait_for(lambda: shown in stack.find(GROUP, "a new game is open").plain_text,
             20, "the settings in the lobby")  # fmt: skip
    return users


def after_round_one(stack: ProcStack, names: list[str], settings: str
                    ) -> tuple[list[int], dict[int, int]]:  # fmt: skip
    """Seat the players, start the game and play its first round: the players and their
    points so far."""
    users = seat_players(stack, names, settings)
    start(stack, users)
    return users, play_round(stack, users, 1)


def start(stack: ProcStack, users: list[int]) -> None:
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(users[0], lobby, button(lobby, "Start")) == "The game starts!"


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
    """The round's table message and its buttons by scene: the one voted on now (an earlier
    game's table of the same round has lost its buttons)."""
    found = wait_for(lambda: (m := stack.find(GROUP, rf"The table · round {number}\b"))
                     and buttons(m) and m, 30, f"the table of round {number}")  # fmt: skip
    return found, {label.split(". ", 1)[1]: data for label, data in buttons(found)}


def vote(stack: ProcStack, user: int, message: MessageRecord, data: str, **options: Any) -> None:
    answer = stack.press(user, message, data, **options)
    assert answer.startswith("Vote recorded"), answer


def voters(stack: ProcStack, teller: int) -> list[int]:
    """The players of the current round other than its storyteller, in seat order."""
    room = stack.room()
    assert round_of(room) is not None
    return [room.seats[i].user_id for i in round_of(room).participants
            if room.seats[i].user_id != teller]  # fmt: skip


def round_points(teller: int, first: int, rest: list[int]) -> dict[int, int]:
    """What the rules give when `first` finds the card and `rest` vote for first's decoy:
    storyteller 3, first voter 3 + one per stolen vote, the others 0."""
    return {teller: 3, first: 3 + len(rest), **dict.fromkeys(rest, 0)}


def play_round(stack: ProcStack, users: list[int], number: int,
               together: bool = False) -> dict[int, int]:  # fmt: skip
    """Everybody acts: the first voter finds the card, the others vote for its decoy.

    With `together`, the decoys and then the votes are pressed at the same moment, spread over
    the web processes. Returns the points the rules give (`round_points`).
    """
    teller, card = give_hint(stack, users, number)
    return finish_round(stack, number, teller, card, together)


def finish_round(stack: ProcStack, number: int, teller: int, card: str,
                 together: bool = False) -> dict[int, int]:  # fmt: skip
    """The rest of `play_round` once the storyteller gave the hint for `card`."""
    others = voters(stack, teller)
    if together:
        decoy_texts = all_at_once([
            (lambda u=u, i=i: play_decoy(stack, u, number, web=i)) for i, u in enumerate(others)
        ])  # fmt: skip
        decoys = dict(zip(others, decoy_texts, strict=True))
    else:
        decoys = {user: play_decoy(stack, user, number) for user in others}
    return vote_round(stack, number, teller, card, decoys, together)


def vote_round(stack: ProcStack, number: int, teller: int, card: str, decoys: dict[int, str],
               together: bool = False, **options: Any) -> dict[int, int]:  # fmt: skip
    """Everybody votes (the first finds the card, the others take its decoy); the reveal."""
    message, scenes = table(stack, number)
    first, *rest = decoys
    choices = {first: scenes[card], **{user: scenes[decoys[first]] for user in rest}}
    if together:
        all_at_once([(lambda u=u, i=i: vote(stack, u, message, choices[u], web=i, **options))
                     for i, u in enumerate(decoys)])  # fmt: skip
    else:
        for user in decoys:
            vote(stack, user, message, choices[user], **options)
    stack.wait_find(GROUP, rf"Reveal · round {number}\b")
    return round_points(teller, first, rest)


def play_to_the_end(stack: ProcStack, users: list[int], expected: dict[int, int],
                    rounds: range) -> None:  # fmt: skip
    """Play the last `rounds`; the game must end with exactly the `expected` totals plus
    theirs."""
    for number in rounds:
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase.value == "finished"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
