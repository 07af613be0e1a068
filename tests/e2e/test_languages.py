"""A game in several languages through the Procfile's processes: the group in Italian, every
player's private messages and press answers in their own language, nothing in the wrong chat.

Which language a message speaks is told from the catalogs themselves (the fixed parts of each
language's texts), so these tests do not repeat any translation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from engine.games.hintrigue.settings import settings_of
from tests.conftest import RedisServer
from tests.e2e.procs import GROUP, ProcStack, start_stack
from tests.harness import buttons, wait_for
from tgbot import i18n
from tgbot.games.hintrigue.cards import ANSWERS
from tgbot.i18n import catalogs, texts
from tgbot.ops.release import COMMANDS
from tgbot.standin import MessageRecord

TAG = re.compile(r"<[^>]+>")
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
# Name, Telegram language_code, the language their private messages must speak.
PLAYERS = [("Ann", "it", "it"), ("Boris", "ru", "ru"), ("Carla", "es-MX", "es"),
           ("Dieter", "de", "fr"), ("Li", "zh-hans", "it")]  # fmt: skip
HINT = "🌊"


@cache
def fingerprints() -> dict[str, frozenset[str]]:
    """Per language, the fixed pieces (8 characters or more) of its texts found in no other
    language's texts."""
    pieces: dict[str, set[str]] = {}
    for language in i18n.LANGUAGES:
        strings: list[str] = []
        for message in catalogs.read("it" if language == "en" else language):
            if not message.id:
                continue
            source = message.id if language == "en" else message.string
            strings += list(source) if isinstance(source, tuple) else [source]
        found = set()
        for text in strings:
            for piece in re.split(r"\{[^}]*\}|\n", TAG.sub("", text)):
                piece = piece.strip(" \u00a0.,:;!?()«»„“”—–-·•/")
                if len(piece) >= 8 and not piece.startswith("/"):
                    found.add(piece)
        pieces[language] = found
    return {
        language: frozenset(p for p in found if not any(
            p in other for lang, others in pieces.items() if lang != language for other in others
        ))
        for language, found in pieces.items()
    }  # fmt: skip


def spoken(text: str) -> set[str]:
    """The languages whose fixed pieces a text contains."""
    return {lang for lang, pieces in fingerprints().items() if any(p in text for p in pieces)}


def in_language(language: str, read: Callable[[], str]) -> str:
    with i18n.use(language):
        return read()


def latest_with(stack: ProcStack, chat: int, kind: str) -> MessageRecord | None:
    """The latest bot message in a chat with buttons of a kind (`card`, `vote` …)."""
    for message in reversed(stack.world.bot_messages(chat)):
        if any(f".{kind}." in data for _, data in buttons(message)):
            return message
    return None


def press(stack: ProcStack, user: int, message: MessageRecord, data: str) -> str:
    return stack.press(user, message, data)


def play(stack: ProcStack) -> dict[str, Any]:
    """A five-player game, every voter finding the storyteller's card each round."""
    users = {name: stack.world.add_user(first_name=name, language_code=code).id
             for name, code, _ in PLAYERS}  # fmt: skip
    language = {users[name]: own for name, _, own in PLAYERS}
    for user in users.values():
        assert stack.deliver(stack.world.start_private(user)) == 200
    dieter = users["Dieter"]
    stack.wait_find(dieter, ".")  # the answer to /start, in German
    stack.say(dieter, dieter, "/language fr")
    chosen = stack.wait_find(
        dieter,
        re.escape(
            in_language(
                "fr",
                lambda: i18n._("From now on I write to you in {language}.").format(
                    language=texts.LANGUAGE_NAMES["fr"]
                ),
            )
        ),
    )
    first_french = stack.world.bot_messages(dieter).index(chosen)
    ann = users["Ann"]
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame")
    lobby = wait_for(lambda: latest_with(stack, GROUP, "join"), 30, "the lobby")
    join = next(data for _, data in buttons(lobby) if ".join." in data)
    for name, user in users.items():
        if user != ann:
            answer = press(stack, user, lobby, join)
            assert answer == in_language(language[user], lambda: texts.JOINED), name
    stack.say(ann, GROUP, "/settings rotations=1 timers=off")
    wait_for(lambda: settings_of(stack.room()).rotations == 1 and not stack.room().settings.timers,
             20, "the settings")  # fmt: skip
    start = next(data for _, data in buttons(lobby) if ".start." in data)
    assert press(stack, ann, lobby, start) == in_language("it", lambda: texts.STARTED)
    for number in range(1, len(users) + 1):

        def prompt(number: int = number) -> tuple[int, MessageRecord] | None:
            for user in users.values():
                found = latest_with(stack, user, "card")
                if found is not None and f".card.{GROUP}.{number}." in buttons(found)[0][1]:
                    return user, found
            return None

        teller, hand = wait_for(prompt, 30, f"the storyteller of round {number}")
        scene, data = buttons(hand)[0]
        answer = press(stack, teller, hand, data)
        assert answer.startswith(in_language(language[teller], lambda: ANSWERS["CARD_CHOSEN"])
                                 .split("{card}")[0]), answer  # fmt: skip
        stack.say(teller, teller, HINT)
        for user in users.values():
            if user == teller:
                continue
            decoys = wait_for(lambda u=user, n=number: _decoy_prompt(stack, u, n), 30, "decoys")
            press(stack, user, decoys, buttons(decoys)[0][1])
        table = wait_for(lambda n=number: _table(stack, n), 30, f"the table of round {number}")
        target = next(data for label, data in buttons(table) if label.endswith(scene))
        for user in users.values():
            if user != teller:
                answer = press(stack, user, table, target)
                expected = in_language(language[user], lambda: ANSWERS["VOTE_ACCEPTED"])
                assert answer.startswith(expected.split("{card}")[0]), answer
    final = TAG.sub("", in_language("it", lambda: i18n._("<b>Game over</b>")))
    wait_for(lambda: stack.find(GROUP, re.escape(final)), 60, "the final message")
    return {"users": users, "language": language, "first_french": first_french}


def _decoy_prompt(stack: ProcStack, user: int, number: int) -> MessageRecord | None:
    found = latest_with(stack, user, "decoy")
    return found if found and f".decoy.{GROUP}.{number}." in buttons(found)[0][1] else None


def _table(stack: ProcStack, number: int) -> MessageRecord | None:
    found = latest_with(stack, GROUP, "vote")
    return found if found and buttons(found)[0][1].startswith(f"1.vote.{number}.") else None


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ProcStack, dict[str, Any]]]:
    """One game, played once for the tests of this module to read."""
    directory = tmp_path_factory.mktemp("languages")
    server = RedisServer(directory)
    stack = start_stack(server, directory, timer_scale=0.05)
    try:
        yield stack, play(stack)
    finally:
        stack.stop()
        stack.double.stop()
        server.kill()


def test_an_italian_group_with_players_of_five_languages_plays_to_exact_totals(evening):
    stack, game = evening
    room = stack.room()
    # Everybody found every storyteller's card: 2 points a round as a voter, 0 as storyteller.
    assert {seat.user_id: seat.score for seat in room.seats} == dict.fromkeys(
        game["users"].values(), 2 * (len(PLAYERS) - 1)
    )
    assert room.settings.language == "it"
    assert room.phase.value == "finished"
    group = stack.world.bot_messages(GROUP)
    wrong = [(m.plain_text[:60], spoken(m.plain_text)) for m in group
             if spoken(m.plain_text) != {"it"}]  # fmt: skip
    assert not wrong, wrong


def test_each_players_private_messages_speak_their_own_language(evening):
    stack, game = evening
    for name, user in game["users"].items():
        messages = stack.world.bot_messages(user)
        if name == "Dieter":  # German until he chose French
            assert {frozenset(spoken(m.plain_text)) for m in messages[: game["first_french"]]} \
                == {frozenset({"de"})}  # fmt: skip
            messages = messages[game["first_french"] :]
        if name == "Li":  # no language of ours: English before the game, then the group's
            messages = [m for m in messages if HINT in m.plain_text]
        assert messages, name
        wrong = [(m.plain_text[:60], spoken(m.plain_text)) for m in messages
                 if spoken(m.plain_text) != {game["language"][user]}]  # fmt: skip
        assert not wrong, (name, wrong)


def test_no_language_leaks_into_a_chat_it_does_not_belong_to(evening):
    """The Russian player's language never reaches the group or another player, and the
    group's Italian never reaches the Russian player."""
    stack, game = evening
    boris = game["users"]["Boris"]
    for chat in [GROUP, *(u for u in game["users"].values() if u != boris)]:
        for message in stack.world.bot_messages(chat):
            assert not CYRILLIC.search(message.plain_text), (chat, message.plain_text[:80])
    for message in stack.world.bot_messages(boris):
        assert "it" not in spoken(message.plain_text), message.plain_text[:80]
        assert CYRILLIC.search(message.plain_text), message.plain_text[:80]


def test_the_command_menu_is_registered_in_every_language(evening):
    stack, _ = evening
    menus = {code: stack.world.commands.get('{"type": "default"}|' + code)
             for code in ("", *(c for c in i18n.LANGUAGES if c != "en"))}  # fmt: skip
    assert all(menus.values()), menus.keys()
    for code, menu in menus.items():
        assert [c["command"] for c in menu] == list(COMMANDS)
        expected = in_language(code or "en", lambda: i18n._(COMMANDS["newgame"]))
        assert menu[0]["description"] == expected
    assert len({menu[0]["description"] for menu in menus.values()}) == len(menus)
