"""Hostile input through the real webhook and workers: markup, direction controls, invisible
hints and very long names are shown as typed, never as formatting, and never stop a message."""

from __future__ import annotations

import itertools

import pytest

from engine.commands import (
    ChangeSettings,
    ChooseCard,
    GiveHint,
    Join,
    OpenLobby,
    PlayDecoy,
    StartGame,
    StopGame,
    Vote,
)
from tests.harness import button, wait_for
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture

MARKUP = '<a href="https://evil.example">click</a> <b>bold</b> a<b'
RLO, HEBREW = "\u202e", "אבג"
_chats = itertools.count(-1003000000001, -1)


@pytest.fixture
def table(stack) -> Table:  # noqa: F811
    return Table(stack)


def no_user_formatting(running, chat: int) -> None:
    """No bot message in the chat carries a link or bold made of a user's markup (the bot's own
    links, to its private chat or a group's message, are t.me links)."""
    for message in running.world.bot_messages(chat):
        assert not any(e["type"] == "text_link" and not e["url"].startswith("https://t.me/")
                       for e in message.entities or []), message.text  # only the bot's own links
        assert "<b>bold</b>" not in (message.plain_text or "").replace(MARKUP, "")
        assert RLO not in (message.plain_text or "")


def test_markup_in_names_titles_settings_and_hints_is_shown_as_typed(table: Table):
    bot = table.stack
    world = bot.world
    evil = next(_chats)
    world.add_chat(evil, "supergroup", title=MARKUP, bot_status="member")
    host = world.add_user(first_name=MARKUP).id
    bot.deliver(world.start_private(host))
    # A game in the group whose title is markup, with the marked-up player seated.
    table.service.run(evil, OpenLobby(chat_id=evil, title=MARKUP, user_id=host, name=MARKUP,
                                      seed=5))  # fmt: skip
    # In another group: the player is told, as text, that they play in that group.
    table.lobby()
    table.say(host, table.chat, "/join")
    answer = table.group_message("You are already playing in")
    assert MARKUP in answer.plain_text
    lobby = table.group_message("a new game is open")
    assert table.press(host, lobby, button(lobby, "Join")).startswith(
        f"You are already playing in {MARKUP}"
    )
    # A refused setting echoes the token as text, and the answer is not lost.
    table.say(table.users[0], table.chat, f"/settings x={MARKUP}")
    refused = table.group_message("That setting is not valid")
    assert "x=<a" in refused.plain_text
    table.say(table.users[0], table.chat, "/settings x=a<b")
    table.group_message(r"That setting is not valid: x=a<b\.")
    # A hint made of markup, through the whole round in the marked-up group.
    for _ in range(2):
        other = world.add_user(first_name="Mal").id
        bot.deliver(world.start_private(other))
        table.service.run(evil, Join(user_id=other, name=MARKUP))
    room = table.service.run(evil, StartGame(user_id=host)).room
    teller = room.seats[room.round.storyteller]
    table.service.run(evil, ChooseCard(user_id=teller.user_id, card=teller.hand[0]))
    bot.say(teller.user_id, teller.user_id, MARKUP)
    room = wait_for(lambda: (r := table.service.store.load(evil)).phase.value == "decoys" and r,
                    what="the hint")  # fmt: skip
    assert room.round.hint == MARKUP
    for index in room.round.participants:
        if index != room.round.storyteller:
            seat = room.seats[index]
            room = table.service.run(evil, PlayDecoy(user_id=seat.user_id, card=seat.hand[0])).room
    target = room.round.plays[room.round.storyteller]
    for index in room.round.participants:
        if index != room.round.storyteller:
            table.service.run(evil, Vote(user_id=room.seats[index].user_id, card=target))
    reveal = wait_for(lambda: bot.find(evil, "Reveal · round 1"), what="the reveal")
    assert MARKUP in reveal.plain_text
    bot.settle()
    for chat in (evil, table.chat, host, *table.users):
        no_user_formatting(bot, chat)


def test_direction_controls_cannot_turn_a_line_and_right_to_left_names_are_isolated(
    table: Table,
):
    bot = table.stack
    flipper = bot.world.add_user(first_name=f"{RLO}Eve").id
    hebrew = bot.world.add_user(first_name=HEBREW).id
    for user in (flipper, hebrew):
        bot.deliver(bot.world.start_private(user))
    table.lobby(players=2)
    lobby = table.group_message("a new game is open")
    for user in (flipper, hebrew):
        assert table.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    shown = wait_for(lambda: (m := bot.world.message(table.chat, lobby.message_id))
                     and HEBREW in m.plain_text and m, what="both names in the lobby")
    assert RLO not in shown.plain_text and "• Eve" in shown.plain_text
    assert f"\u2068{HEBREW}\u2069" in shown.plain_text


def test_a_hint_of_invisible_characters_is_refused_as_empty(table: Table):
    room = table.started()
    teller = room.seats[room.round.storyteller]
    table.run(ChooseCard(user_id=teller.user_id, card=teller.hand[0]))
    table.say(teller.user_id, teller.user_id, "\u200b\u3164\u00ad \u2800")
    table.dm(teller.user_id, "The hint is empty")
    assert table.room().round.hint is None


def test_ten_players_with_the_longest_names_still_get_every_message(table: Table):
    bot = table.stack
    users = [bot.world.add_user(first_name=f"{i}" + "W" * 63, last_name="L" * 64).id
             for i in range(10)]  # fmt: skip
    names = [f"{i}" + "W" * 63 + " " + "L" * 64 for i in range(10)]
    assert len(names[0]) == 129
    table.run(OpenLobby(chat_id=table.chat, title="T" * 128, user_id=users[0], name=names[0],
                        seed=3))  # fmt: skip
    table.run(ChangeSettings(user_id=users[0], changes={"max_seats": 10, "timers": False}))
    for user, name in zip(users[1:], names[1:], strict=True):
        table.run(Join(user_id=user, name=name))
    room = table.run(StartGame(user_id=users[0]))
    teller = room.seats[room.round.storyteller]
    table.run(ChooseCard(user_id=teller.user_id, card=teller.hand[0]))
    room = table.run(GiveHint(user_id=teller.user_id, text="H" * 200))
    for index in room.round.participants:
        if index != room.round.storyteller:
            seat = room.seats[index]
            room = table.run(PlayDecoy(user_id=seat.user_id, card=seat.hand[0]))
    # Every vote for a different decoy: the reveal names everybody as often as it can.
    decoys = [c for i, c in room.round.plays.items() if i != room.round.storyteller]
    for index in room.round.participants:
        if index != room.round.storyteller:
            other = next(c for c in decoys if c != room.round.plays[index])
            room = table.run(Vote(user_id=room.seats[index].user_id, card=other))
    assert room.phase.value == "reveal"
    reveal = table.group_message("Reveal · round 1")
    assert len(reveal.plain_text) <= 4096 and "Standings" in reveal.plain_text
    table.run(StopGame(user_id=users[0]))
    final = table.group_message("Game over")
    assert "W…" in final.plain_text


@pytest.mark.parametrize("payload", ["j²", "j-１２", "r" + "9" * 40, "x-1", "j-"])
def test_a_start_link_with_a_payload_that_is_not_ours_gets_the_greeting(table: Table, payload):
    user = table.users[0]
    table.stack.deliver(table.stack.world.start_private(user, payload))
    table.dm(user, "I run Hintrigue, Guess What! and Hues and Cues in groups")
