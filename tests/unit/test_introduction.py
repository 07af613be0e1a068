"""What the bot says of itself names the games of its line-up as their sides word them, in
every language: a game registered later is named without any shared text changing."""

from __future__ import annotations

import pytest

from engine.games.base import Games
from engine.games.registry import GAMES
from tests.fourth.rules import GAME as TALLY
from tests.fourth.screens import SCREENS as TALLY_SCREENS
from tgbot import i18n
from tgbot.games.registry import LINEUP
from tgbot.table.introduction import commands, introduction, private_help
from tgbot.table.screens import Lineup

LANGUAGES = ["en", "it", "es", "fr", "de", "pt", "ru"]
WITH_TALLY = Lineup(Games(*GAMES.values(), TALLY), *LINEUP.screens.values(), TALLY_SCREENS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_introduction_names_each_game_with_its_own_words(language):
    with i18n.use(language):
        text = introduction(LINEUP)
        blurbs = [side.blurb() for side in LINEUP.screens.values() if side.blurb]
        assert len(blurbs) == 5 and "{" not in text
        assert [text.index(blurb) for blurb in blurbs] == sorted(text.index(b) for b in blurbs)
        assert "/newgame" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_names_the_other_games_and_the_private_help_their_secrets(language):
    with i18n.use(language):
        line = commands(LINEUP).splitlines()[1]
        assert "guesswhat" in line and "huescues" in line and "{" not in line
        private = private_help(LINEUP)
        assert all(side.secrets() in private for side in LINEUP.screens.values() if side.secrets)
        assert all(f"<b>{game.title}</b>" in private for game in GAMES.values())


def test_a_game_registered_later_is_named_everywhere_the_bot_speaks_of_itself():
    with i18n.use("en"):
        assert "<b>Tally</b>" in introduction(WITH_TALLY)
        assert "<b>Tally</b>" not in introduction(LINEUP)
        assert "(/newgame guesswhat, huescues, wunchunk, hunch, or tally: another game)" in (
            commands(WITH_TALLY)
        )
        assert "<b>Hunch!</b> and <b>Tally</b> in groups" in private_help(WITH_TALLY)
    with i18n.use("de"):
        assert "guesswhat, huescues, wunchunk, hunch oder tally" in commands(WITH_TALLY)
