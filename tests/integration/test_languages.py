"""Choosing languages through Telegram: the group's, a player's, and who hears which.

Expected texts come from the catalogs (`say`), so these tests check where each language goes,
not how a sentence is translated."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.errors import ErrorCode
from engine.games.registry import GAMES
from engine.store import Store, keys
from tests.harness import GROUP, Stack, button, buttons, wait_for
from tgbot import i18n
from tgbot.games.registry import LINEUP
from tgbot.i18n import _, texts
from tgbot.table import introduction
from tgbot.table.screens import Lineup


def say(speaking: str, text: str, **fields: str) -> str:
    """A text of the catalogs in one language, filled in."""
    with i18n.use(speaking):
        translated = _(text)
    return translated.format(**fields) if fields else translated


def named_in(language: str) -> str:
    """A language as a sentence of its own names it ("русский")."""
    with i18n.use(language):
        return texts.LANGUAGE_NAMES[language]


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def about(speaking: str, text: Callable[[Lineup], str]) -> str:
    """What the bot says of itself (`tgbot.table.introduction`) in one language, as plain text."""
    with i18n.use(speaking):
        return plain(text(LINEUP))


def person(stack: Stack, name: str, language_code: str | None) -> int:
    user = stack.world.add_user(first_name=name, language_code=language_code).id
    stack.deliver(stack.world.start_private(user))
    return user


def latest(stack: Stack, chat: int) -> str:
    return wait_for(lambda: stack.world.bot_messages(chat), what="a message")[-1].plain_text


def test_a_new_group_speaks_the_language_of_who_added_the_bot_and_remembers_it(stack: Stack):
    ana = person(stack, "Ana", "pt-PT")
    boris = person(stack, "Boris", "ru")
    stack.deliver(stack.world.bot_added(GROUP, ana))
    intro = about("pt", introduction.introduction)
    wait_for(lambda: stack.find(GROUP, re.escape(intro.splitlines()[0])), what="the intro")
    assert stack.client.get(keys.group_language(GROUP)) == b"pt"
    # A Russian player's command in the group is answered in the group's language.
    stack.say(boris, GROUP, "/rules")
    rules = plain(say("pt", texts._TEXTS["RULES"])).splitlines()[0]
    wait_for(lambda: stack.find(GROUP, re.escape(rules)), what="the rules in Portuguese")
    assert not re.search(
        r"[\u0400-\u04FF]", "".join(m.plain_text for m in stack.world.bot_messages(GROUP))
    )
    # Boris's own chat speaks Russian.
    stack.say(boris, boris, "/help")
    private_help = about("ru", introduction.private_help).splitlines()[0]
    wait_for(lambda: stack.find(boris, re.escape(private_help)), what="help in Russian")


def test_the_host_changes_the_groups_language_in_the_lobby_and_the_next_lobby_keeps_it(
    stack: Stack,
):
    ann = person(stack, "Ann", "en")
    bob = person(stack, "Bob", "de")
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame")
    lobby = wait_for(lambda: stack.find(GROUP, "a new game is open"), what="the lobby")
    stack.say(bob, GROUP, "/language it")  # not the host, not an admin
    wait_for(lambda: stack.find(GROUP, re.escape(texts.ERRORS[ErrorCode.NOT_ALLOWED])),
             what="the refusal")  # fmt: skip
    stack.say(ann, GROUP, "/language italiano")
    heading = plain(say("it", "<b>{game}</b> — a new game is open!", game="Hintrigue"))
    wait_for(lambda: heading in stack.world.message(GROUP, lobby.message_id).plain_text,
             what="the lobby in Italian")  # fmt: skip
    join = button(stack.world.message(GROUP, lobby.message_id), say("it", "Join"))
    press = stack.press(bob, lobby, join)
    assert stack.answer_to(press) == say("de", "You joined the game.")  # the presser's own
    stop(stack, ann, say("it", "End this lobby now?"))
    stack.say(ann, GROUP, "/newgame")
    wait_for(
        lambda: any(
            m.message_id > lobby.message_id and heading in m.plain_text
            for m in stack.world.bot_messages(GROUP)
        ),
        what="a new Italian lobby",
    )
    # No lobby open: an admin's change is for the next game, said in the new language.
    stop(stack, ann, say("it", "End this lobby now?"))
    stack.world.set_member_status(GROUP, bob, "administrator")
    stack.say(bob, GROUP, "/language fr")
    stack_find(
        stack, say("fr", "This group's next games speak {language}.", language=named_in("fr"))
    )
    assert stack.client.get(keys.group_language(GROUP)) == b"fr"
    stack.say(ann, GROUP, "/newgame")
    stack_find(stack, plain(say("fr", "<b>{game}</b> — a new game is open!", game="Hintrigue")))


def stack_find(stack: Stack, text: str, chat: int = GROUP):
    return wait_for(lambda: stack.find(chat, re.escape(text)), what=text)


def _yes(data: str) -> bool:
    """The data of a /stop question's Yes (3: the question of a lobby)."""
    return ".stop.1." in data or ".stop.3." in data


def stop(stack: Stack, host: int, asked: str) -> None:
    """/stop, and yes."""
    stack.say(host, GROUP, "/stop")
    question = wait_for(lambda: next((m for m in reversed(stack.world.bot_messages(GROUP))
                                      if any(_yes(d) for _, d in buttons(m))), None),
                        what="the stop question")  # fmt: skip
    assert question.plain_text == asked
    stack.press(host, question, next(d for _, d in buttons(question) if _yes(d)))
    store = Store(stack.client, GAMES)
    wait_for(
        lambda: (room := store.load(GROUP)) is None or room.phase.value == "closed",
        what="the lobby closed",
    )


def test_a_player_chooses_a_language_in_private_and_their_open_prompt_follows(stack: Stack):
    cy = person(stack, "Cy", None)
    stack.say(cy, cy, "/language")
    keyboard = wait_for(
        lambda: next((m for m in reversed(stack.world.bot_messages(cy)) if buttons(m)), None),
        what="the language keyboard",
    )
    assert [text.removeprefix("✅ ") for text, _ in buttons(keyboard)] == list(
        i18n.LANGUAGES.values()
    )
    assert buttons(keyboard)[0][0] == "✅ English"
    press = stack.press(cy, keyboard, button(keyboard, "Русский"))
    chosen = say("ru", "From now on I write to you in {language}.", language=named_in("ru"))
    assert stack.answer_to(press) == chosen
    edited = wait_for(lambda: (m := stack.world.message(cy, keyboard.message_id)).plain_text
                      == chosen and m, what="the keyboard edited")  # fmt: skip
    assert dict(buttons(edited))["✅ Русский"]
    assert stack.client.get(keys.user_language(cy)) == b"ru"
    stack.say(cy, cy, "/language klingon")
    wait_for(lambda: stack.find(cy, re.escape(say("ru", "I do not speak that language. I "
                                                  "speak: {names}.", names="")[:20])),
             what="the refusal, in Russian")  # fmt: skip
    stack.say(cy, cy, "/help")
    wait_for(
        lambda: stack.find(cy, re.escape(about("ru", introduction.private_help).splitlines()[0])),
        what="help in Russian",
    )


def test_a_language_remembered_wrongly_does_not_hold_the_game_up(stack: Stack):
    ann = person(stack, "Ann", "it")
    stack.client.delete(keys.user_language(ann))
    stack.client.hset(keys.user_language(ann), "not", "a string")  # a key of the wrong type
    stack.say(ann, ann, "/help")
    wait_for(
        lambda: stack.find(ann, re.escape(about("en", introduction.private_help).splitlines()[0])),
        what="help, in English",
    )
