"""Languages: which one is spoken to whom, the language settings and choices in the rules, and
nothing translated once for the whole process."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from engine.commands import ChangeSettings, ChooseLanguage, OpenLobby
from engine.errors import ErrorCode, RuleError
from engine.events import LanguageChosen
from tests.builders import CHAT, a_room, user
from tests.table import apply, parse_changes
from tgbot import i18n
from tgbot.games.registry import LINEUP
from tgbot.i18n import texts
from tgbot.table.effects import outgoing_for
from tgbot.table.handlers.common import error_text
from tgbot.table.render import Look, lobby

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=1_000.0)
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("code", "ours"),
    [("it", "it"), ("pt-PT", "pt"), ("pt-br", "pt"), ("RU", "ru"), ("de_AT", "de"),
     ("zh-hans", None), ("", None), (None, None)],
)  # fmt: skip
def test_a_language_code_matches_on_its_primary_subtag(code: str | None, ours: str | None):
    assert i18n.supported(code) == ours


def test_the_first_language_we_speak_is_picked_else_english():
    assert i18n.pick(None, "xx", "de-CH", "it") == "de"
    assert i18n.pick("zh", None) == "en"


class ImportTimeCalls(ast.NodeVisitor):
    """Calls of `_` or `ngettext` outside of any function: run once, at import."""

    def __init__(self) -> None:
        self.depth = 0
        self.lines: list[int] = []

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if self.depth == 0 and name in ("_", "ngettext"):
            self.lines.append(node.lineno)
        self.generic_visit(node)


def test_no_text_is_translated_when_a_module_is_imported():
    """A text translated at import would speak one language to everybody, for ever."""
    found = []
    for path in [*ROOT.glob("tgbot/**/*.py"), *ROOT.glob("workers/**/*.py")]:
        calls = ImportTimeCalls()
        calls.visit(ast.parse(path.read_text()))
        found += [f"{path.relative_to(ROOT)}:{line}" for line in calls.lines]
    assert found == []
    calls = ImportTimeCalls()
    calls.visit(ast.parse('X = _("translated at import")\ndef f():\n    return _("later")\n'))
    assert calls.lines == [1]  # the check finds what it looks for


def test_two_updates_handled_at_once_each_speak_their_own_language():
    async def speak(language: str, pause: float) -> list[str]:
        heard = []
        with i18n.use(language):
            for _ in range(3):
                heard.append(i18n.current())
                await asyncio.sleep(pause)
        return heard

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(speak("it", 0.001), speak("ru", 0.0015)))

    assert asyncio.run(both()) == [["it"] * 3, ["ru"] * 3]
    assert i18n.current() == "en"


def test_texts_are_read_in_the_language_spoken_at_the_moment():
    with i18n.use("it"):
        italian = texts.STALE_BUTTON
    with i18n.use("en"):
        english = texts.STALE_BUTTON
    assert english == "This button is from an older round or message."
    assert italian != english and italian == i18n.catalog("it").gettext(english)
    with pytest.raises(AttributeError):
        _ = texts.NO_SUCH_TEXT


def test_a_lobby_opens_in_the_group_language_with_the_creators_own():
    room, _ = apply(
        None,
        OpenLobby(chat_id=CHAT, user_id=user(0), name="Ann", seed=7, language="it",
                  seat_language="ru"),
        1_000.0,
    )  # fmt: skip
    assert room.settings.language == "it"
    assert room.seats[0].language == "ru"
    with pytest.raises(RuleError) as refused:
        apply(None, OpenLobby(chat_id=CHAT, user_id=user(0), name="Ann", seed=7, language="xx"), 0)
    assert refused.value.code is ErrorCode.BAD_SETTING


def test_the_group_language_is_a_lobby_setting_by_name_or_code():
    assert parse_changes("language=fr") == {"language": "fr"}
    assert parse_changes("lang=DE") == {"language": "de"}
    game = a_room().with_players(3).in_lobby()
    game.do(ChangeSettings(user_id=user(0), changes={"language": "fr"}))
    assert game.room.settings.language == "fr"
    before = game.room
    with pytest.raises(RuleError) as refused:
        apply(before, ChangeSettings(user_id=user(0), changes={"language": "xx"}), game.now)
    assert refused.value.code is ErrorCode.BAD_SETTING
    assert refused.value.facts == {"languages": "en, it, es, fr, de, pt, ru"}
    assert game.room == before


def test_a_player_chooses_the_language_of_their_private_messages_mid_game():
    game = a_room().with_players(3).in_decoys()
    seat = game.others()[0]
    events = game.do(ChooseLanguage(user_id=user(seat), language="de"))
    assert events == [LanguageChosen(seat=seat)]
    assert game.room.seats[seat].language == "de"
    # The prompt they have open now speaks German; the group's messages stay English.
    (prompt,) = outgoing_for(game.room, events, LOOK)
    assert prompt.chat_id == user(seat) and prompt.lang == "de" and prompt.buttons
    for refused, code in [
        (ChooseLanguage(user_id=user(seat), language="de"), ErrorCode.STALE),
        (ChooseLanguage(user_id=user(seat), language="xx"), ErrorCode.BAD_SETTING),
        (ChooseLanguage(user_id=999, language="it"), ErrorCode.NOT_IN_GAME),
    ]:
        with pytest.raises(RuleError) as error:
            apply(game.room, refused, game.now)
        assert error.value.code is code


def test_group_messages_speak_the_groups_language_and_private_ones_each_players():
    game = a_room().with_players(4).with_settings(language="it").in_hint()
    game.room.seats[1].language = "ru"
    game.room.seats[2].language = None  # no language of their own: the group's
    teller = game.storyteller()
    game.do(ChooseLanguage(user_id=user(teller), language="fr"))
    out = outgoing_for(game.room, game.events, LOOK)  # the storyteller's prompt, in French
    game.give_hint()
    out += outgoing_for(game.room, game.events, LOOK)
    spoken = {(m.chat_id, m.lang) for m in out}
    assert (CHAT, "it") in spoken and all(lang == "it" for chat, lang in spoken if chat == CHAT)
    privates = {chat: lang for chat, lang in spoken if chat != CHAT}
    expected = {user(i): ("ru" if i == 1 else "fr" if i == teller else "it") for i in range(4)}
    assert privates == {u: expected[u] for u in privates} and len(privates) == 4
    with i18n.use("it"):
        italian_lobby = lobby(game.room, LOOK).text
    assert lobby(game.room, LOOK).text == italian_lobby  # whatever the caller speaks
    with i18n.use("en"):
        english_heading = i18n._("<b>{game}</b> — this game has started.").format(game="Hintrigue")
    assert english_heading not in italian_lobby


def test_a_refusal_s_detail_is_translated_but_what_a_player_typed_is_not():
    with pytest.raises(RuleError) as typed:
        parse_changes("deck")  # a word of the catalogs, typed as a setting
    with pytest.raises(RuleError) as bounds:
        apply(a_room().with_players(3).in_lobby().room,
              ChangeSettings(user_id=user(0), changes={"rotations": 9}), 0)  # fmt: skip
    with i18n.use("it"):
        assert error_text(typed.value, lineup=LINEUP).endswith(": deck.")
        why = i18n._("{setting} must be {low}–{high}").format(
            setting=i18n._("rotations"), low=1, high=5
        )
        told = i18n._("That setting is not valid: {detail}.").format(detail=why)
        assert error_text(bounds.value, lineup=LINEUP) == told
        assert "rotations" not in error_text(bounds.value, lineup=LINEUP)
