"""Hintrigue's Telegram side, registered for the table: its effects and buttons beside this
module; its messages in `tgbot.table.render` (group, private), which the table's own messages share
(they were written before there were other games)."""

from __future__ import annotations

from engine.model import Phase, Room
from tgbot.egress.outgoing import Outgoing
from tgbot.games.hintrigue import buttons, effects
from tgbot.i18n import _, texts
from tgbot.table import render
from tgbot.table.render import Look
from tgbot.table.render.group import fooled_text, results_picture
from tgbot.table.render.lobby import HINTRIGUE_ROWS
from tgbot.table.screens import Screens


def _reminder(room: Room, look: Look) -> Outgoing | None:
    if room.phase is Phase.VOTING:
        return render.table(room, look)
    return render.round_message(room, look)


def _where_it_stands(room: Room, user_id: int) -> str:
    from tgbot.table.handlers import private  # the handlers import the games

    return private.where_it_stands(room, user_id)


def _settings_help() -> str:
    return texts.HELP.rsplit("\n\n", 1)[1]


SCREENS = Screens(
    name="hintrigue",
    messages=effects.messages,
    settings_text=render.settings_text,
    setting_rows=HINTRIGUE_ROWS,
    rules=lambda: texts.RULES,
    settings_help=_settings_help,
    waiting_prompt=render.waiting_prompt,
    where_it_stands=_where_it_stands,
    standings=render.standings_text,
    reminder=_reminder,
    text_given=lambda: _("Hint given. The others are choosing their decoys."),
    joined=lambda: texts.JOINED_IN,
    buttons=buttons.BUTTONS,
    results_picture=results_picture,
    results_text=fooled_text,
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where the cards "
        "are dealt."
    ),
)
