"""Hostile input through the real webhook and workers: markup, direction controls, invisible
hints and very long names are shown as typed, never as formatting, and never stop a message;
text that shows nothing is empty, a cue that reads as a forbidden one is refused as one, and a
button whose data is malformed or out of range is not valid (never a failed update)."""

from __future__ import annotations

import itertools
import re
from enum import StrEnum

import pytest

from engine.commands import (
    ChangeSettings,
    ChooseGame,
    GiveHint,
    Join,
    OpenLobby,
    StartGame,
    StopGame,
)
from engine.games.guesswhat import commands as gw
from engine.games.guesswhat.errors import Refusal as GW_REFUSAL
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.errors import Refusal as HI_REFUSAL
from engine.games.hintrigue.model import own_seats, phase_of, round_of
from engine.games.huescues import commands as hc
from engine.games.huescues.errors import Refusal as HC_REFUSAL
from engine.model import Room
from engine.settings import LANGUAGES
from engine.store import keys
from tests.harness import button, buttons, wait_for
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture
from tgbot import i18n
from tgbot.games.registry import LINEUP

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
        assert not any(
            e["type"] == "text_link" and not e["url"].startswith("https://t.me/")
            for e in message.entities or []
        ), message.text  # only the bot's own links
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
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.service.run(evil, ChooseCard(user_id=teller.user_id, card=card))
    bot.say(teller.user_id, teller.user_id, MARKUP)
    room = wait_for(lambda: phase_of(r := table.service.store.load(evil)) == "decoys" and r,
                    what="the hint")  # fmt: skip
    assert round_of(room).hint == MARKUP
    for index in round_of(room).participants:
        if index != round_of(room).storyteller:
            seat = room.seats[index]
            card = own_seats(room)[index].hand[0]
            room = table.service.run(evil, PlayDecoy(user_id=seat.user_id, card=card)).room
    target = round_of(room).plays[round_of(room).storyteller]
    for index in round_of(room).participants:
        if index != round_of(room).storyteller:
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
    shown = wait_for(
        lambda: (
            (m := bot.world.message(table.chat, lobby.message_id)) and HEBREW in m.plain_text and m
        ),
        what="both names in the lobby",
    )
    assert RLO not in shown.plain_text and "• Eve" in shown.plain_text
    assert f"\u2068{HEBREW}\u2069" in shown.plain_text


def test_a_hint_of_invisible_characters_is_refused_as_empty(table: Table):
    room = table.started()
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    table.say(teller.user_id, teller.user_id, "\u200b\u3164\u00ad \u2800")
    table.dm(teller.user_id, "The hint is empty")
    assert round_of(table.room()).hint is None


def test_ten_players_with_the_longest_names_still_get_every_message(table: Table):
    bot = table.stack
    users = [bot.world.add_user(first_name=f"{i}" + "W" * 63, last_name="L" * 64).id
             for i in range(10)]  # fmt: skip
    names = [f"{i}" + "W" * 63 + " " + "L" * 64 for i in range(10)]
    assert len(names[0]) == 129
    # Each opens the private chat first: a storyteller the bot cannot write to would have its
    # round voided by the worker at once, under the test's feet.
    for user in users:
        bot.deliver(bot.world.start_private(user))
    table.run(OpenLobby(chat_id=table.chat, title="T" * 128, user_id=users[0], name=names[0],
                        seed=3))  # fmt: skip
    table.run(ChangeSettings(user_id=users[0], changes={"max_seats": 10, "timers": False}))
    for user, name in zip(users[1:], names[1:], strict=True):
        table.run(Join(user_id=user, name=name))
    room = table.run(StartGame(user_id=users[0]))
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    room = table.run(GiveHint(user_id=teller.user_id, text="H" * 200))
    for index in round_of(room).participants:
        if index != round_of(room).storyteller:
            seat = room.seats[index]
            room = table.run(PlayDecoy(user_id=seat.user_id, card=own_seats(room)[index].hand[0]))
    # Every vote for a different decoy: the reveal names everybody as often as it can.
    decoys = [c for i, c in round_of(room).plays.items() if i != round_of(room).storyteller]
    for index in round_of(room).participants:
        if index != round_of(room).storyteller:
            other = next(c for c in decoys if c != round_of(room).plays[index])
            room = table.run(Vote(user_id=room.seats[index].user_id, card=other))
    assert phase_of(room) == "reveal"
    reveal = table.group_message("Reveal · round 1")
    assert len(reveal.plain_text) <= 4096 and "Standings" in reveal.plain_text
    table.run(StopGame(user_id=users[0]))
    final = table.group_message("Game over")
    assert "W…" in final.plain_text


@pytest.mark.parametrize("payload", ["j²", "j-１２", "r" + "9" * 40, "x-1", "j-"])
def test_a_start_link_with_a_payload_that_is_not_ours_gets_the_greeting(table: Table, payload):
    user = table.users[0]
    table.stack.deliver(table.stack.world.start_private(user, payload))
    table.dm(user, "I run Hintrigue, Guess What!, Hues and Cues, Wunchunk and Hunch! in groups")


INVISIBLE = "\u034f\u034f\u034f"  # three COMBINING GRAPHEME JOINERs: «͏͏͏» shows nothing


def in_language(table: Table, game: str, language: str, settings=None) -> Room:
    """A game of `game` started in the table's group, every player speaking `language`."""
    for user in table.users:
        table.stack.world.add_user(user, language_code=language)
    table.run(OpenLobby(chat_id=table.chat, title="Bad input", user_id=table.users[0], name="P0",
                        seed=11 << 40, language=language, settings={"join_s": 0}))  # fmt: skip
    for user in table.users[1:]:
        table.run(Join(user_id=user, name=f"P{table.users.index(user)}"))
    if game != "hintrigue":
        table.run(ChooseGame(user_id=table.users[0], game=game))
    table.run(ChangeSettings(user_id=table.users[0], changes={"timers": False, **(settings or {})}))
    return table.run(StartGame(user_id=table.users[0]))


def refusal(language: str, code: StrEnum, **facts: str) -> str:
    """The answer to a refusal, as a player speaking `language` reads it."""
    with i18n.use(language):
        return LINEUP.refusals[code].format(**facts)


def no_failed_update(table: Table) -> None:
    assert table.stack.client.llen(keys.failed_updates(table.chat)) == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hint_of_invisible_marks_is_empty_in_every_language(table: Table, language):
    room = in_language(table, "hintrigue", language)
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    table.say(teller.user_id, teller.user_id, INVISIBLE)
    table.dm(teller.user_id, re.escape(refusal(language, HI_REFUSAL.HINT_EMPTY)))
    assert round_of(table.room()).hint is None
    assert table.stack.find(table.chat, INVISIBLE) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_clue_of_invisible_marks_is_empty_in_every_language(table: Table, language):
    room = in_language(table, "guesswhat", language)
    state = room.play
    active = state.seats[state.round.active].user_id
    for column in range(3):
        table.run(gw.PickIcon(user_id=active, icon=state.board[column * 3]))
    table.say(active, active, INVISIBLE + "\ufe0f")
    table.dm(active, re.escape(refusal(language, GW_REFUSAL.CLUE_EMPTY)))
    assert table.room().play.round.clue is None
    assert table.stack.find(table.chat, "«") is None
    no_failed_update(table)


def cue_giver(table: Table, room: Room) -> int:
    """The cue giver of a Hues and Cues game with free choice, its colour chosen."""
    state = room.play
    giver = state.seats[state.round.giver].user_id
    table.run(hc.ChooseColour(user_id=giver, cell=0))
    return giver


@pytest.mark.parametrize("language", LANGUAGES)
def test_cues_with_look_alike_letters_or_invisible_marks_are_refused_in_every_language(
    table: Table, language
):
    room = in_language(table, "huescues", language, {"free_choice": True})
    giver = cue_giver(table, room)
    for cue, code in [
        ("r\u0435d", HC_REFUSAL.CUE_COLOUR_WORD),  # a Cyrillic е
        ("re\u034fd", HC_REFUSAL.CUE_COLOUR_WORD),  # a grapheme joiner
        ("\u039715", HC_REFUSAL.CUE_COORDINATE),  # a Greek Η for the row H
    ]:
        table.say(giver, giver, cue)
        table.dm(giver, re.escape(refusal(language, code, detail=cue)))
    table.say(giver, giver, INVISIBLE)
    table.dm(giver, re.escape(refusal(language, HC_REFUSAL.CUE_EMPTY)))
    assert table.room().play.round.cues == []
    no_failed_update(table)


def test_a_russian_cue_is_judged_by_the_russian_forms(table: Table):
    room = in_language(table, "huescues", "ru", {"free_choice": True})
    giver = cue_giver(table, room)
    table.say(giver, giver, "c\u0435p\u044b\u0439")  # серый with a Latin c and p
    table.dm(giver, re.escape(refusal("ru", HC_REFUSAL.CUE_COLOUR_WORD, detail="cеpый")))
    table.say(giver, giver, "морской")
    wait_for(lambda: table.room().play.round.cues == ["морской"], what="the cue given")


def test_a_button_whose_signature_holds_a_non_ascii_character_is_not_valid(table: Table):
    before = table.lobby()
    lobby = table.group_message("a new game is open")
    genuine = button(lobby, "Join")
    body, mac = genuine.split("~")
    for forged in [f"{body}~{mac[:-1]}é", f"{body}~{mac[:3]}ё{mac[4:]}", f"{body}~{mac}\u200b",
                   f"{body}~é", f"{body.replace('.', '.٣', 1)}~{mac}"]:  # fmt: skip
        assert table.press(table.users[3], lobby, forged) == "This button is not valid."
    assert table.room().model_dump_json() == before.model_dump_json()
    no_failed_update(table)


def test_a_signed_row_of_minus_one_is_not_valid(table: Table):
    room = in_language(table, "huescues", "en", {"free_choice": True})
    state = room.play
    giver = state.seats[state.round.giver].user_id
    prompt = table.dm(giver, r"Round 1\b.*you give the cues")
    assert buttons(prompt)
    key = table.stack.config.signing_key
    for row in (-1, -(1 << 40), 16, 98, 100):
        data = LINEUP.codec.encode(key, "hrow", table.chat, state.round.no, row, room.game_id)
        assert table.press(giver, prompt, data) == "This button is not valid."
    shown = LINEUP.codec.encode(key, "hrow", table.chat, state.round.no, 7, room.game_id)
    assert table.press(giver, prompt, shown) == ""
    wait_for(lambda: any(text == "H30" for text, _ in buttons(
        table.stack.find(giver, r"Round 1\b.*you give the cues"))), what="row H")  # fmt: skip
    assert table.room().model_dump_json() == room.model_dump_json()
    no_failed_update(table)
