"""Random and hostile updates, with the right secret, at a running game: no 5xx, no worker
dies, every room still answers, and what the rules refuse changes nothing."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from engine.commands import Leave, StopGame
from engine.games.hintrigue.model import phase_of, round_of
from tests.harness import button, buttons, wait_for
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture
from tgbot.games.hintrigue.cards import card
from tgbot.games.registry import LINEUP
from tgbot.ingress.web import SECRET_HEADER

# Strangers never send /join: joining a running game late is allowed, a move, not a refusal.
HOSTILE_TEXTS = [
    "",
    " ",
    "/",
    "//",
    "/newgame@other_bot",
    "/settings",
    "/settings rotations=99",
    "/settings x=<b>bold</b>",
    "/start j²",
    "/start r-",
    "/start " + "9" * 80,
    "/stop now",
    "/score",
    "/help",
    "\u202e/help",
    "<a href='x'>y</a>",
    "\ud800",
    "x" * 5000,
    "\u200b\u3164",
    "🌙🐋🎻",
    "/back",
    "/skip",
]
# Signed kinds whose press the rules must refuse here (a join, a leave or a stop confirmed
# by the host would be moves, not refusals).
KINDS = [kind for kind in LINEUP.codec.kinds if kind not in ("join", "leave", "stop")]


@pytest.fixture
def table(stack) -> Table:  # noqa: F811
    return Table(stack)


def random_text(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(HOSTILE_TEXTS)
    return "".join(chr(rng.choice([rng.randrange(32, 0x2FFF), rng.randrange(0xD800, 0xE000),
                                   rng.randrange(0x1F300, 0x1FAFF)]))
                   for _ in range(rng.randrange(1, 40)))  # fmt: skip


def random_data(rng: random.Random, key: bytes, real: list[str]) -> str:
    roll = rng.random()
    if roll < 0.3 and real:  # a real button of the group, pressed by a stranger
        return rng.choice(real)
    if roll < 0.6:  # well signed, but with fields of any kind
        kind = rng.choice(KINDS)
        fields = [rng.choice([0, 1, -1, 10**12, rng.randrange(-999, 999)])
                  for _ in range(LINEUP.codec.kinds[kind])]  # fmt: skip
        try:
            return LINEUP.codec.encode(key, kind, *fields)
        except ValueError:
            return "1.vote.1.2.3~AAAAAAAA"
    return rng.choice(["", "~", "1.vote~", "x" * 64, "1.card.1.2.3.4~" + "A" * 8,
                       "2.join~abcdefgh", "1.join~" + "é" * 20])  # fmt: skip


def post(table: Table, update: dict) -> int:
    body = json.dumps(update)  # a lone surrogate becomes a \ud800 escape, as JSON allows
    response = httpx.post(table.stack.config.webhook_url, content=body.encode(),
                          headers={SECRET_HEADER: table.stack.config.secret})  # fmt: skip
    return response.status_code


def test_hostile_updates_change_nothing_the_rules_refuse_and_every_room_still_answers(
    table: Table,
):
    rng = random.Random(20261201)
    world = table.stack.world
    room = table.in_voting()
    before = table.room()
    strangers = [world.add_user(first_name=f"S{i}").id for i in range(6)]
    for user in strangers[:3]:
        table.stack.deliver(world.start_private(user))
    seated = [s.user_id for s in before.seats]
    group_messages = world.bot_messages(table.chat)
    real = [data for m in group_messages for _, data in buttons(m) if data]
    key = table.stack.config.signing_key
    statuses = []
    for _ in range(300):
        roll = rng.random()
        if roll < 0.35:  # strangers say anything in the group, commands included
            update = world.user_message(rng.choice(strangers), table.chat, random_text(rng))
        elif roll < 0.55:  # anyone writes anything in private (the game waits for votes only)
            user = rng.choice(strangers + seated)
            update = world.user_message(user, user, random_text(rng))
        elif roll < 0.9:  # presses: strangers on anything, players on forged or odd data
            message = rng.choice(group_messages)
            user = rng.choice(strangers + seated)
            data = random_data(rng, key, real if user in strangers else [])
            if user in strangers and "join" in data:
                continue  # a stranger may join a running game: that is a move
            if ".lang." in data:
                continue  # anyone may choose the language of their private messages: a move
            update = world.press(user, message.chat_id, message.message_id, data, force=True)
        else:  # updates of odd shapes
            update = {"update_id": rng.randrange(1, 10**9),
                      rng.choice(["message", "callback_query", "edited_message", "poll"]):
                      rng.choice([{}, {"chat": {"id": "x"}}, {"chat": {"id": table.chat}},
                                  [], None, "x"])}  # fmt: skip
        statuses.append(post(table, update))
    assert all(status < 500 for status in statuses), sorted(set(statuses))
    table.stack.settle(60)
    assert all(process.poll() is None for process in table.stack.workers)
    after = table.room()
    assert after.model_dump() == before.model_dump()
    # The game and the bot still answer: a vote counts, /rules is answered in private.
    voter = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    message = table.group_message(r"The table · round 1")
    target = round_of(room).plays[round_of(room).storyteller]
    data = next(d for label, d in buttons(message) if label.endswith(card(room, target)))
    assert table.press(room.seats[voter].user_id, message, data).startswith("Vote recorded")
    table.say(strangers[0], strangers[0], "/rules")
    table.dm(strangers[0], "How to play Hintrigue")


def test_an_old_stop_question_cannot_stop_a_later_game(table: Table):
    table.started()
    table.say(table.users[0], table.chat, "/stop")
    question = table.group_message("End this game now")
    yes = button(question, "Yes")
    table.run(StopGame(user_id=table.users[0]))  # ended another way: the question is closed
    table.started(seed=12 << 40)
    answer = table.press(table.users[0], question, yes)  # its button, pressed all the same
    assert answer == "That game is over."
    assert phase_of(table.room()) == "hint"


def test_a_seat_that_left_during_voting_cannot_vote(table: Table):
    room = table.in_voting()
    leaver = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    user = room.seats[leaver].user_id
    table.run(Leave(user_id=user))
    before = table.room()
    message = wait_for(lambda: table.stack.find(table.chat, r"The table · round 1"))
    label, data = buttons(message)[0]
    assert table.press(user, message, data) == "You left this game: you cannot play in it again."
    assert table.room() == before
