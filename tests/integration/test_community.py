"""/stats, /top and /notify through the webhook, the workers and the Bot API stand-in; the
figures of a game's end added once however many workers apply it."""

from __future__ import annotations

import re
import threading
import time

import pytest

from engine.commands import ChangeSettings, Join, OpenLobby, StartGame, Timeout
from engine.errors import RuleError
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.hintrigue.turns import winners
from engine.games.registry import DEFAULT_GAME as GAME
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Room
from engine.model import Phase as TablePhase
from engine.store import Store, keys
from tests.builders import next_move
from tests.harness import button, buttons, wait_for
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture


@pytest.fixture
def table(stack) -> Table:  # noqa: F811
    return Table(stack)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def play_a_game(table: Table, seed: int) -> Room:
    """A game of one rotation, its moves made at once, its reveals ended by the workers."""
    users = table.users
    table.run(OpenLobby(chat_id=table.chat, title="Bad input", user_id=users[0], name="P0",
                        seed=seed, timer_scale=0.02, settings={"join_s": 0}))  # fmt: skip
    for index, user in enumerate(users[1:], 1):
        table.run(Join(user_id=user, name=f"P{index}"))
    table.run(ChangeSettings(user_id=users[0], changes={"timers": False, "rotations": 1}))
    table.run(StartGame(user_id=users[0]))
    while (room := table.room()).phase not in OVER_PHASES:
        if phase_of(room) is Phase.REVEAL:
            time.sleep(0.02)  # the presentation timer, fired by a worker
            continue
        table.run(next_move(room, time.time())[0])
    assert room.phase is TablePhase.FINISHED
    return room


def figures_line(room: Room, index: int, games: int = 1) -> str:
    seat, own = room.seats[index], own_seats(room)[index]
    wins = int(index in winners(room))
    return " · ".join([plural(games, "game"), plural(wins, "win"), plural(seat.score, "point"),
                       plural(own.finds, "find"),
                       f"{own.stolen} vote{'' if own.stolen == 1 else 's'} stolen"])  # fmt: skip


def test_stats_show_a_players_figures_and_in_reply_the_figures_of_whom_you_answer(table: Table):
    room = play_a_game(table, seed=5 << 40)
    stats = table.stack.client.hgetall(keys.user_stats(table.users[1]))
    best = int(stats[b"hintrigue:best"])
    assert 0 < best <= room.seats[1].score

    table.say(table.users[1], table.chat, "/stats")
    own = table.group_message(r"📊 P1\n")
    assert own.plain_text == (f"📊 P1\nHintrigue: {figures_line(room, 1)} · best round: "
                              f"{plural(best, 'point')}")  # fmt: skip

    said = table.stack.world.user_message(table.users[2], table.chat, "good game!")
    asked = table.stack.world.user_message(table.users[0], table.chat, "/stats",
                                           reply_to=said["message"]["message_id"])  # fmt: skip
    table.stack.deliver(asked)
    theirs = table.group_message(r"📊 P2\n")
    assert f"Hintrigue: {figures_line(room, 2)}" in theirs.plain_text

    final = table.group_message("Game over")
    bot_asked = table.stack.world.user_message(table.users[0], table.chat, "/stats",
                                               reply_to=final.message_id)  # fmt: skip
    table.stack.deliver(bot_asked)
    table.group_message("Bots keep no stats.")

    stranger = table.stack.world.add_user(first_name="Newcomer").id
    table.say(stranger, stranger, "/stats")
    table.dm(stranger, "📊 Newcomer has no finished games yet.")


def test_top_ranks_the_groups_players_by_wins_then_points(table: Table):
    first = play_a_game(table, seed=6 << 40)
    second = play_a_game(table, seed=7 << 40)
    expected = []
    for index, user in enumerate(table.users):
        wins = sum(index in winners(room) for room in (first, second))
        points = sum(room.seats[index].score for room in (first, second))
        expected.append((wins, points, f"P{index}", user))
    expected.sort(key=lambda line: (-line[0], -line[1], line[2]))

    table.say(table.users[3], table.chat, "/top")
    top = table.group_message("🏆 Hintrigue, the last 90 days")
    lines = top.plain_text.splitlines()[1:]
    assert [re.sub(r"^\d+\. ", "", line) for line in lines] == [
        f"{name} — {plural(wins, 'win')} · {plural(points, 'point')}"
        for wins, points, name, _ in expected
    ]
    ranks = [int(line.split(".")[0]) for line in lines]
    assert ranks[0] == 1 and ranks == sorted(ranks)

    table.say(table.users[3], table.users[3], "/top")
    table.dm(table.users[3], "This command works in a group chat.")


def test_notify_tells_each_subscriber_once_when_the_next_lobby_opens(table: Table):
    world = table.stack.world
    play_a_game(table, seed=8 << 40)
    final = table.group_message("Game over")
    assert (
        table.press(table.users[2], final, button(final, "Notify me"))
        == "🔔 I will write to you in private when the next game opens here."
    )
    table.say(table.users[3], table.chat, "/notify")
    table.group_message("P3: I will write to you in private when the next game opens here")
    table.say(table.users[0], table.chat, "/notify")
    blocker = world.add_user(first_name="Blocker").id
    table.stack.deliver(world.start_private(blocker))
    table.say(blocker, table.chat, "/notify")
    table.stack.deliver(world.block_bot(blocker))
    gone = world.add_user(first_name="Gone").id
    table.say(gone, table.chat, "/notify")
    table.say(gone, table.chat, "/notify off")
    table.group_message("Gone: no message about the next game, then.")

    table.say(table.users[0], table.chat, "/newgame")
    table.group_message("a new game is open")
    for user in (table.users[2], table.users[3]):
        told = table.dm(user, "A new game is open in")
        assert "Bad input" in told.plain_text
        url = told.reply_markup["inline_keyboard"][0][0]["url"]
        assert url.endswith(f"?start=j{table.chat}")
    table.stack.settle()
    time.sleep(0.5)  # whatever else would have been sent by now
    assert table.stack.find(table.users[0], "A new game is open in") is None  # the opener
    assert table.stack.find(gone, "A new game is open in") is None
    assert not table.stack.client.exists(keys.notify(table.chat))

    # The subscriber who blocked the bot was dropped without a word in the group (the one
    # message naming them answered their /notify); the next lobby tells nobody again.
    assert [m.plain_text for m in world.bot_messages(table.chat) if "Blocker" in m.plain_text] == [
        "🔔 Blocker: I will write to you in private when the next game opens here."
    ]
    table.say(table.users[0], table.chat, "/stop")
    confirm = table.group_message("End this lobby now")
    table.press(table.users[0], confirm, button(confirm, "Yes"))
    table.say(table.users[1], table.chat, "/newgame")
    wait_for(lambda: (room := table.service.store.load(table.chat)) is not None
             and room.creator == table.users[1], what="the second lobby")  # fmt: skip
    table.stack.settle()
    time.sleep(0.5)
    assert len([m for m in world.bot_messages(table.users[2])
                if "A new game is open in" in m.plain_text]) == 1  # fmt: skip


def test_notify_from_a_player_who_never_opened_the_private_chat(table: Table):
    world = table.stack.world
    shy = world.add_user(first_name="Shy").id
    table.say(shy, table.chat, "/notify")
    answer = table.group_message("Shy: I will write to you")
    assert "I cannot write to you yet" in answer.plain_text
    link = next(e["url"] for e in answer.entities or [] if e.get("type") == "text_link")
    payload = link.rsplit("start=", 1)[1]
    assert payload == f"n{table.chat}"
    table.stack.deliver(world.start_private(shy, payload))
    table.dm(shy, "I will write to you here when the next game opens in that group.")
    table.say(table.users[1], table.chat, "/newgame")
    table.dm(shy, "A new game is open in")


def test_the_notify_button_of_a_player_who_never_opened_the_private_chat_opens_it(
    table: Table,
):
    play_a_game(table, seed=9 << 40)
    final = table.group_message("Game over")
    shy = table.stack.world.add_user(first_name="Shy").id
    update = table.stack.world.press(shy, final.chat_id, final.message_id,
                                     button(final, "Notify me"), force=True)  # fmt: skip
    table.stack.deliver(update)
    answer = wait_for(lambda: table.stack.world.callback_answer(
        update["callback_query"]["id"]), what="the answer")  # fmt: skip
    assert answer.url is not None and answer.url.endswith(f"?start=n{table.chat}")
    assert table.stack.client.hexists(keys.notify(table.chat), str(shy))
    assert [text for text, _ in buttons(final)] == ["🔔 Notify me of the next game"]


def test_a_games_figures_are_added_once_when_workers_apply_its_end_at_the_same_time(
    table: Table,
):
    """Eight processes' worth of timer jobs fire the last reveal's timeout at once."""
    users = table.users
    table.run(OpenLobby(chat_id=table.chat, user_id=users[0], name="P0", seed=3 << 40,
                        timer_scale=1.0, settings={"join_s": 0},
                        game_settings={"rotations": 1}))  # fmt: skip
    for index, user in enumerate(users[1:], 1):
        table.run(Join(user_id=user, name=f"P{index}"))
    room = table.run(StartGame(user_id=users[0]))
    store = table.service.store
    while not (phase_of(room) is Phase.REVEAL and (rnd := round_of(room)) is not None and rnd.last):
        command, at = next_move(room, time.time())
        outcome = store.execute(table.chat, command, now=at)
        assert outcome.room is not None
        room = outcome.room
    assert round_of(room) is not None and room.deadline is not None
    end = Timeout(round_no=round_of(room).no, phase=Phase.REVEAL)
    url = table.stack.config.redis_url
    start = threading.Barrier(8)
    applied: list[bool] = []

    def fire(update_id: int | None) -> None:
        store = Store(table.stack.client.__class__.from_url(url), GAMES)
        start.wait()
        try:
            outcome = store.execute(table.chat, end, update_id=update_id, now=room.deadline)
            applied.append(not outcome.duplicate)
        except RuleError:
            applied.append(False)

    threads = [threading.Thread(target=fire, args=(7000 if i % 2 else None,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store = Store(table.stack.client, GAMES)
    assert applied.count(True) == 1
    assert [store.user_stats(u)["hintrigue"]["games"] for u in users] == [1] * 4
    assert store.group_stats(table.chat)["games"] == 1
    assert table.stack.client.zcard(keys.leaderboard(table.chat, GAME)) == 1


def test_the_notify_link_subscribes_nobody_by_itself(table: Table):
    """A stranger who guessed a group's id and opens its /notify link is not told of its games."""
    world = table.stack.world
    stranger = world.add_user(first_name="Stranger").id
    table.stack.deliver(world.start_private(stranger, f"n{table.chat}"))
    table.dm(stranger, "Add me to a group")  # the plain /start answer
    assert not table.stack.client.hexists(keys.notify(table.chat), str(stranger))
    table.say(table.users[0], table.chat, "/newgame")
    table.group_message("a new game is open")
    table.stack.settle()
    time.sleep(0.5)
    assert table.stack.find(stranger, "A new game is open") is None
