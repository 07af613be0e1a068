"""The join timer through the Procfile's processes, with scaled timers: a lobby starts by itself
when its join time runs out (later by a minute per /extend), or closes when too few joined."""

from __future__ import annotations

import pytest

from engine.games.hintrigue.model import Phase, phase_of
from engine.games.registry import DEFAULT_GAME as GAME
from engine.games.registry import GAMES
from engine.store import Store, keys
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, wait_for

SCALE = 0.05  # a join time of 3 minutes runs out in 9 s, /extend adds 3 s


def lobby_with(stack: ProcStack, names: list[str]) -> list[int]:
    """A lobby opened by the first player, with the join timer as a new group has it."""
    stack.client.delete(keys.group_settings(GROUP, GAME))
    users = [stack.world.add_user(first_name=name).id for name in names]
    for user in users:
        assert stack.deliver(stack.world.start_private(user)) == 200
    stack.deliver(stack.world.bot_added(GROUP, users[0]))
    stack.say(users[0], GROUP, "/newgame")
    lobby = stack.wait_find(GROUP, "a new game is open")
    for user in users[1:]:
        assert stack.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    return users


def test_a_lobby_starts_by_itself_when_its_join_time_runs_out_a_minute_later_per_extend(
    launch,
):
    stack = launch(timer_scale=SCALE)
    users = lobby_with(stack, ["Ann", "Bob", "Cy"])
    # A join is answered before the lobby's message is edited to show it.
    lobby = stack.wait_find(GROUP, "a new game is open.*3 players:")
    assert "It starts by itself in" in lobby.plain_text
    assert "(/extend: 3 s more)" in lobby.plain_text  # a minute, as scaled timers run it
    opened = stack.room().opened_at
    stack.say(users[2], GROUP, "/extend")
    stack.wait_find(GROUP, "/extend: 3 s more to join")
    assert stack.room().deadline == pytest.approx(opened + (180 + 60) * SCALE)
    # Nobody presses Start.
    room = wait_for(lambda: phase_of(r := stack.room()) is Phase.HINT and r, 30, "the start")
    assert room.phase_at >= opened + (180 + 60) * SCALE - 0.01  # not before its time
    stack.wait_find(GROUP, r"Round 1\b.*storyteller")
    assert "this game has started" in stack.world.message(GROUP, lobby.message_id).plain_text


def test_a_lobby_with_too_few_players_closes_when_its_join_time_runs_out(launch):
    stack = launch(timer_scale=SCALE)
    lobby_with(stack, ["Ann", "Bob"])
    lobby = stack.wait_find(GROUP, "It closes in .* unless 3 players have joined")
    closed = wait_for(lambda: "this lobby is closed" in (m := stack.world.message(
        GROUP, lobby.message_id)).plain_text and m, 30, "the lobby closed")  # fmt: skip
    assert "Fewer than 3 players joined in time" in closed.plain_text
    assert Store(stack.client, GAMES).load(GROUP) is None  # a closed lobby leaves nothing behind
