"""Forum groups: each topic is a room of its own, played through the webhook, the workers and
the stand-in as Telegram does (topic messages carry `message_thread_id` and
`is_topic_message`; General's carry neither)."""

from __future__ import annotations

import re

import pytest

from engine.games.hintrigue.model import phase_of, round_of
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from tests.conftest import test_redis_url
from tests.harness import (
    Stack,
    button,
    buttons,
    running_stack,
    storyteller_prompt,
    wait_for,
    without_join_timer,
)
from tgbot.standin import MessageRecord

FORUM = -1001000000077
TITLE = "Board Games"


@pytest.fixture
def stack(real_redis, tmp_path):
    with running_stack(test_redis_url(), tmp_path) as running:
        running.world.add_chat(FORUM, "supergroup", title=TITLE, bot_status="left", is_forum=True)
        without_join_timer(running.client, FORUM)
        yield running


def in_topic(stack: Stack, thread: int | None) -> list[MessageRecord]:
    """The bot's messages in one topic of the forum (None: the General topic)."""
    return [m for m in stack.world.bot_messages(FORUM) if m.thread_id == thread]


def find_in(stack: Stack, thread: int | None, pattern: str) -> MessageRecord | None:
    """The latest bot message in a topic whose text matches a pattern."""
    for message in reversed(in_topic(stack, thread)):
        if re.search(pattern, message.plain_text, re.S):
            return message
    return None


def say_in(stack: Stack, user: int, thread: int | None, text: str) -> None:
    stack.deliver(stack.world.user_message(user, FORUM, text, thread))


def players(stack: Stack, names: list[str]) -> list[int]:
    users = [stack.world.add_user(first_name=name).id for name in names]
    for user in users:
        stack.deliver(stack.world.start_private(user))
    return users


def open_lobby(stack: Stack, thread: int | None, users: list[int]) -> MessageRecord:
    """The first user opens a lobby in the topic, the others join with its button."""
    say_in(stack, users[0], thread, "/newgame")
    lobby = wait_for(lambda: find_in(stack, thread, "a new game is open"), what="the lobby")
    for user in users[1:]:
        press = stack.press(user, lobby, button(lobby, "Join"))
        assert stack.answer_to(press) == "You joined the game."
    say_in(stack, users[0], thread, "/settings rotations=1 timers=off")
    wait_for(
        lambda: "timers off" in find_in(stack, thread, "a new game is open").plain_text,
        what="the settings in the lobby",
    )
    return find_in(stack, thread, "a new game is open")


def play_round(
    stack: Stack, thread: int | None, users: list[int], number: int, hint: str
) -> dict[int, int]:
    """One round: the first voter finds the storyteller's card, the second votes for the
    first's decoy. By the rules: storyteller 3, first voter 3 + 1 stolen vote, second 0."""
    teller, dm = storyteller_prompt(stack, users, number)
    text, data = buttons(dm)[0]
    assert stack.answer_to(stack.press(teller, dm, data)).startswith("Chosen:")
    stack.say(teller, teller, hint)
    first, second = [u for u in users if u != teller]
    decoys = {}
    for user in (first, second):
        prompt = wait_for(
            lambda u=user: stack.find(u, rf"Round {number}\b.*Choose a decoy"),
            what="a decoy prompt",
        )
        card_text, card_data = buttons(prompt)[0]
        assert stack.answer_to(stack.press(user, prompt, card_data)).startswith("Decoy played")
        decoys[user] = card_text
    table = wait_for(
        lambda: find_in(stack, thread, rf"The table · round {number}\b"),
        what=f"the table of round {number}",
    )
    assert hint in table.plain_text
    scenes = {label.split(". ", 1)[1]: data for label, data in buttons(table)}
    for user, scene in ((first, text), (second, decoys[first])):
        answer = stack.answer_to(stack.press(user, table, scenes[scene]))
        assert answer.startswith("Vote recorded"), answer
    wait_for(lambda: find_in(stack, thread, rf"Reveal · round {number}\b"), what="the reveal")
    return {teller: 3, first: 4, second: 0}


def test_games_in_two_topics_and_in_general_run_at_once_each_in_its_own_place(stack: Stack):
    world = stack.world
    games = {  # the room: (players, hint); names and hints tell the games' messages apart
        world.create_topic(FORUM, "Hintrigue 1"): (["Ann1", "Bob1", "Cy1"], "moonlit harbour"),
        world.create_topic(FORUM, "Hintrigue 2"): (["Dee2", "Eli2", "Fay2"], "desert thunder"),
        None: (["Gus0", "Hal0", "Ivy0"], "quiet library"),  # the General topic
    }
    seated = {thread: players(stack, names) for thread, (names, _) in games.items()}
    stack.deliver(world.bot_added(FORUM, seated[None][0]))
    wait_for(lambda: find_in(stack, None, "I run Hintrigue"), what="the introduction")
    lobbies = {thread: open_lobby(stack, thread, users) for thread, users in seated.items()}
    for thread, lobby in lobbies.items():  # each lobby's Start button starts its own game
        press = stack.press(seated[thread][0], lobby, button(lobby, "Start"))
        assert stack.answer_to(press) == "The game starts!"
    expected = {thread: dict.fromkeys(users, 0) for thread, users in seated.items()}
    for number in range(1, 4):  # the rounds of the three games, in turns
        for thread, users in seated.items():
            for user, points in play_round(stack, thread, users, number, games[thread][1]).items():
                expected[thread][user] += points
    store = Store(stack.client, GAMES)
    for thread in seated:
        wait_for(lambda t=thread: find_in(stack, t, "Game over"), what="the final standings")
        room = store.load(RoomId(FORUM, thread or 0))
        assert room is not None and room.phase.value == "finished"
        assert {seat.user_id: seat.score for seat in room.seats} == expected[thread]
        assert room.topic == (thread or 0)
    # The General topic's game is the chat's own room, under the keys a plain group has.
    assert store.load(FORUM).seats[0].user_id == seated[None][0]
    assert keys.room(RoomId(FORUM)) == keys.room(FORUM) and stack.client.exists(keys.room(FORUM))
    for thread, (names, hint) in games.items():
        others = [word for t, (n, h) in games.items() if t != thread for word in [*n, h]]
        shown = in_topic(stack, thread)
        tables = [m for m in shown if m.plain_text.startswith("Reveal")]  # each table's end
        assert len(tables) == 3 and all(hint in table.plain_text for table in tables)
        assert all(name in shown[-1].plain_text for name in names)  # its final standings
        for message in shown:  # every message in a topic is of that topic's game
            assert not [word for word in others if word in message.plain_text], message.plain_text
    assert all(call.ok for call in world.calls_of("sendMessage"))  # none to a wrong thread


def test_a_player_seated_in_one_topic_cannot_join_another_and_buttons_act_on_their_topic(
    stack: Stack,
):
    world = stack.world
    first, second = world.create_topic(FORUM, "Table 1"), world.create_topic(FORUM, "Table 2")
    ann, bob, cy, dee, eli, fay = players(stack, ["Ann", "Bob", "Cy", "Dee", "Eli", "Fay"])
    stack.deliver(world.bot_added(FORUM, ann))
    one = open_lobby(stack, first, [ann, bob, cy])
    two = open_lobby(stack, second, [dee, eli, fay])
    refused = stack.answer_to(stack.press(ann, two, button(two, "Join")))
    # The refusal names the group and the topic (Telegram tells its name with each message).
    assert refused == f"You are already playing in {TITLE} › Table 1. Leave that game first."
    assert stack.answer_to(stack.press(dee, two, button(two, "Start"))) == "The game starts!"
    store = Store(stack.client, GAMES)
    assert phase_of(store.load(RoomId(FORUM, second))) == "hint"
    assert store.load(RoomId(FORUM, first)).phase.value == "lobby"
    assert store.load(FORUM) is None  # the General topic has no game
    assert store.room_of_player(ann) == RoomId(FORUM, first)
    assert store.room_of_player(dee) == RoomId(FORUM, second)
    # A private prompt names its topic's room: the storyteller's card goes to topic 2's game.
    teller, dm = storyteller_prompt(stack, [dee, eli, fay], 1)
    assert dm.plain_text.startswith(f"Hintrigue · Round 1 in {TITLE} › Table 2")  # and topic
    assert stack.answer_to(stack.press(teller, dm, buttons(dm)[0][1])).startswith("Chosen:")
    assert round_of(store.load(RoomId(FORUM, second))).chosen is not None
    say_in(stack, ann, first, "/leave")  # a command in topic 1 acts on topic 1's lobby
    wait_for(lambda: find_in(stack, first, "left the lobby"), what="the answer in topic 1")
    assert [s.user_id for s in store.load(RoomId(FORUM, first)).seats] == [bob, cy]
    assert len(store.load(RoomId(FORUM, second)).seats) == 3
    assert one.thread_id == first and two.thread_id == second
    # A newcomer pressing Join in topic 1 is sent to the private chat by a deep link that
    # names the topic's room, and opening it seats them in that topic's game.
    gus = world.add_user(first_name="Gus").id
    press = stack.press(gus, one, button(one, "Join"))
    query = press["callback_query"]["id"]
    link = wait_for(lambda: world.callback_answer(query)).url
    assert link.endswith(f"?start=j{FORUM}_{first}")
    stack.deliver(world.start_private(gus, link.rpartition("=")[2]))
    assert gus in [s.user_id for s in store.load(RoomId(FORUM, first)).seats]
    assert store.room_of_player(gus) == RoomId(FORUM, first)


def test_the_webhook_puts_a_topics_updates_in_the_topics_inbox(stack: Stack):
    world = stack.world
    topic = world.create_topic(FORUM, "Quiz")
    ann = players(stack, ["Ann"])[0]
    stack.deliver(world.bot_added(FORUM, ann))
    stack.stop_workers()
    stack.deliver(world.user_message(ann, FORUM, "/help", topic), settle=False)
    stack.deliver(world.user_message(ann, FORUM, "/rules"), settle=False)
    assert stack.client.llen(keys.inbox(RoomId(FORUM, topic))) == 1
    assert stack.client.llen(keys.inbox(FORUM)) == 1
    stack.start_worker()
    stack.settle()
    wait_for(lambda: find_in(stack, topic, "/newgame"), what="/help's answer in the topic")
    wait_for(lambda: find_in(stack, None, "storyteller"), what="/rules' answer in General")


def test_a_deleted_topic_ends_its_game_and_says_so_in_general(stack: Stack):
    world = stack.world
    topic = world.create_topic(FORUM, "Doomed")
    users = players(stack, ["Ann", "Bob", "Cy"])
    stack.deliver(world.bot_added(FORUM, users[0]))
    lobby = open_lobby(stack, topic, users)
    stack.press(users[0], lobby, button(lobby, "Start"))
    teller, dm = storyteller_prompt(stack, users, 1)
    world.delete_topic(FORUM, topic)  # Telegram tells the bot nothing
    stack.press(teller, dm, buttons(dm)[0][1])
    stack.say(teller, teller, "a hint into the void")  # the round's message is to be edited
    final = wait_for(lambda: find_in(stack, None, "Game over"), what="the end, in General")
    assert "The topic of this game was deleted" in final.plain_text
    store = Store(stack.client, GAMES)
    assert store.load(RoomId(FORUM, topic)).phase.value == "abandoned"
    assert [store.room_of_player(u) for u in users] == [None] * 3  # free to play elsewhere
    assert not in_topic(stack, topic)


def test_the_bot_removed_from_a_forum_forgets_every_topics_game(stack: Stack):
    world = stack.world
    topic = world.create_topic(FORUM, "Quiz")
    users = players(stack, ["Ann", "Bob", "Cy", "Dee"])
    stack.deliver(world.bot_added(FORUM, users[0]))
    open_lobby(stack, topic, users[:3])
    say_in(stack, users[3], None, "/newgame")
    wait_for(lambda: find_in(stack, None, "a new game is open"), what="General's lobby")
    store = Store(stack.client, GAMES)
    assert store.load(RoomId(FORUM, topic)) is not None and store.load(FORUM) is not None
    stack.deliver(world.bot_removed(FORUM, users[0]))
    assert store.load(RoomId(FORUM, topic)) is None and store.load(FORUM) is None
    assert [store.room_of_player(u) for u in users] == [None] * 4
    assert not stack.client.keys(keys.room_prefix(FORUM)[:-2] + "*")


def test_stats_top_and_notify_in_a_topic_are_the_groups(stack: Stack):
    """A topic's messages answer the topic's opening message: /stats sent there without a reply
    is the sender's own. /notify in one topic is told of the next lobby in any topic of the
    group, with a Join link to that topic's room."""
    users = players(stack, ["Ann", "Bob", "Cy"])
    stack.deliver(stack.world.bot_added(FORUM, users[0]))
    maker = stack.world.add_user(first_name="Topic Maker").id
    chess = stack.world.create_topic(FORUM, "Chess corner", by_user=maker)
    quiz = stack.world.create_topic(FORUM, "Quiz", by_user=maker)

    say_in(stack, users[1], chess, "/stats")
    wait_for(lambda: find_in(stack, chess, "Bob has no finished games yet"), what="Bob's stats")
    assert find_in(stack, chess, "Topic Maker") is None

    say_in(stack, users[2], chess, "/notify")
    wait_for(lambda: find_in(stack, chess, "Cy: I will write to you"), what="the subscription")
    say_in(stack, users[0], quiz, "/newgame")
    told = wait_for(lambda: stack.find(users[2], "A new game is open in"), what="Cy told")
    assert f"{TITLE} › Quiz" in told.plain_text
    url = told.reply_markup["inline_keyboard"][0][0]["url"]
    assert url.endswith(f"?start=j{RoomId(FORUM, quiz)}")
    stack.deliver(stack.world.start_private(users[2], url.rsplit("=", 1)[1]))
    room = wait_for(lambda: Store(stack.client, GAMES).load(RoomId(FORUM, quiz)), what="the room")
    wait_for(lambda: len(Store(stack.client, GAMES).load(RoomId(FORUM, quiz)).seats) == 2,
             what="Cy seated in the quiz topic's lobby")  # fmt: skip
    assert room.topic == quiz
