"""Nobody drowns a game: the flood guard, answers not queued twice, and private messages that
never wait behind the group's budget (Telegram's own limits, enforced by the stand-in)."""

from __future__ import annotations

import time

import pytest

from engine.commands import GiveHint, Join, OpenLobby, StartGame
from engine.games.hintrigue.commands import ChooseCard
from engine.games.hintrigue.model import own_seats, round_of
from engine.games.registry import GAMES
from engine.store import keys
from tests.conftest import test_redis_url
from tests.harness import running_stack, wait_for, without_join_timer
from tgbot.bootstrap import build_service
from tgbot.egress.outgoing import Outgoing
from workers.dispatch import RqDispatch

GROUP = -1004000000001


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    import redis

    redis.Redis.from_url(test_redis_url()).flushdb()
    with running_stack(test_redis_url(), tmp_path_factory.mktemp("flood"),
                       rate_limits=True) as running:  # fmt: skip
        yield running


def seated(stack, chat: int, players: int = 4) -> tuple[object, list[int]]:
    stack.world.add_chat(chat, "supergroup", title="Flood", bot_status="member")
    users = [stack.world.add_user(first_name=f"F{i}").id for i in range(players)]
    for user in users:
        stack.deliver(stack.world.start_private(user), settle=False)
    service = build_service(
        stack.config,
        stack.client,
        "hintrigue_bot",
        RqDispatch(stack.client, stack.config.queue, GAMES),
    )
    service.run(chat, OpenLobby(chat_id=chat, title="Flood", user_id=users[0], name="F0",
                                seed=1, timer_scale=1.0))  # fmt: skip
    for i, user in enumerate(users[1:], start=1):
        service.run(chat, Join(user_id=user, name=f"F{i}"))
    return service, users


def test_a_player_flooding_commands_is_ignored_for_a_minute_and_told_once(limited):
    stack = limited
    chat = GROUP
    _service, users = seated(stack, chat)
    flooder = users[1]
    for _ in range(30):
        stack.deliver(stack.world.user_message(flooder, chat, "/newgame"), settle=False)
    stack.settle()
    notice = wait_for(lambda: stack.find(chat, "that is a lot of commands"), 30, "the notice")
    assert "F1" in notice.plain_text
    time.sleep(2)  # anything still queued would show up by now
    texts = [m.plain_text for m in stack.world.bot_messages(chat)]
    assert sum("a lot of commands" in t for t in texts) == 1
    assert sum("Scroll up" in t for t in texts) <= 5  # the sixth was the one too many
    # Ignored now, even what only reads, except for /leave.
    stack.say(flooder, chat, "/rules")
    stack.say(flooder, chat, "/leave")
    wait_for(lambda: stack.find(chat, "F1 left the lobby"), 30, "the /leave answer")
    assert stack.find(chat, "How to play") is None


def test_commands_that_only_read_are_answered_once_per_wait_and_never_mute(limited):
    stack = limited
    chat = GROUP - 2
    _service, users = seated(stack, chat)
    reader = users[2]
    # The first answer is held at Telegram, so every later /help comes while one waits,
    # however fast or slow the machine handles them.
    held = stack.world.hold_next("sendMessage", chat)
    second = stack.start_worker()  # the first is held in that delivery meanwhile
    try:
        stack.deliver(stack.world.user_message(reader, chat, "/help"), settle=False)
        assert held.reached.wait(20), "the first answer reached Telegram"
        for _ in range(29):
            stack.deliver(stack.world.user_message(reader, chat, "/help"), settle=False)
        stack.settle()
    finally:
        held.release()
        second.terminate()
        second.wait(10)  # a warm stop: the drain at hand ends first
        stack.workers.remove(second)
    time.sleep(2)  # anything still queued would show up by now
    texts = [m.plain_text for m in stack.world.bot_messages(chat)]
    assert sum("Commands" in t for t in texts) <= 2  # not queued again while one waits
    assert not any("a lot of commands" in t for t in texts)
    assert not stack.client.exists(keys.muted(chat, reader))  # not ignored, nor about to say so


def test_a_newcomer_exploring_the_menu_is_not_muted_and_opens_a_game(limited):
    stack = limited
    chat = GROUP - 3
    stack.world.add_chat(chat, "supergroup", title="Menu", bot_status="member")
    without_join_timer(stack.client, chat)
    newcomer = stack.world.add_user(first_name="Dee").id
    for command in ("/score", "/help", "/rules", "/stats", "/top", "/help@hintrigue_bot"):
        stack.deliver(stack.world.user_message(newcomer, chat, command), settle=False)
    stack.say(newcomer, chat, "/newgame")
    wait_for(lambda: stack.find(chat, "a new game is open"), 30, "the lobby")
    assert stack.find(chat, "a lot of commands") is None


def test_a_games_private_messages_never_wait_behind_its_groups_budget(limited):
    stack = limited
    chat = GROUP - 1
    service, users = seated(stack, chat)
    room = service.run(chat, StartGame(user_id=users[0])).room
    stack.settle()
    # The group's 20 messages a minute are spent, and more group messages wait in the outbox.
    service.show(chat, *(Outgoing(chat_id=chat, text=f"notice {i}") for i in range(25)))
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    service.run(chat, ChooseCard(user_id=teller.user_id, card=card))
    started = time.monotonic()
    room = service.run(chat, GiveHint(user_id=teller.user_id, text="harbour")).room
    others = [room.seats[i].user_id for i in round_of(room).participants
              if i != round_of(room).storyteller]  # fmt: skip
    for user in others:
        wait_for(lambda u=user: stack.find(u, "Choose a decoy"), 10, "a decoy prompt")
    assert time.monotonic() - started < 10
    # The group's messages still wait, in order.
    shown = [m.plain_text for m in stack.world.bot_messages(chat) if "notice" in m.plain_text]
    assert len(shown) < 25
    assert shown == [f"notice {i}" for i in range(len(shown))]
    assert stack.world.too_many_requests == []
