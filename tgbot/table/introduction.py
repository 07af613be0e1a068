"""What the bot says of itself: its introduction to a group, /help's commands and /help in
private. Each names the games of the line-up as their Telegram sides word them."""

from __future__ import annotations

import html

from babel.lists import format_list

from tgbot import i18n
from tgbot.i18n import texts
from tgbot.table.render.group import listed
from tgbot.table.screens import Lineup


def _titles(lineup: Lineup) -> list[str]:
    return [f"<b>{html.escape(game.title)}</b>" for game in lineup.games.values()]


def introduction(lineup: Lineup) -> str:
    """The message a group gets when the bot joins it: every game, and how to begin."""
    named = [side.blurb() if side.blurb is not None else title
             for side, title in zip(lineup.screens.values(), _titles(lineup), strict=True)]
    games = lineup.games.values()
    return texts.INTRO.format(games=listed(named), least=min(g.min_seats for g in games),
                              most=max(g.max_seats for g in games))  # fmt: skip


def commands(lineup: Lineup) -> str:
    """/help's commands, `/newgame` naming the games besides the first."""
    others = list(lineup.games)[1:] or list(lineup.games)
    return texts.HELP.format(others=format_list(others, style="or", locale=_locale()))


def private_help(lineup: Lineup) -> str:
    """/help in private: what the bot does there."""
    secrets = ", ".join(side.secrets() for side in lineup.screens.values() if side.secrets)
    return texts.PRIVATE_HELP.format(games=listed(_titles(lineup)), secrets=secrets)


def _locale() -> str:
    return "pt_BR" if i18n.current() == "pt" else i18n.current()
