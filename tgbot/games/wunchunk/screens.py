"""Wunchunk's Telegram side, registered for the table."""

from __future__ import annotations

from engine.games.wunchunk.table import settings_of
from engine.model import Room
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.games.wunchunk import app, buttons, effects
from tgbot.games.wunchunk import render as wu
from tgbot.games.wunchunk.pictures import WunchunkBoardPicture
from tgbot.games.wunchunk.refusals import REFUSALS
from tgbot.games.wunchunk.settings import LEVELS, ROWS, SETTINGS
from tgbot.i18n import _
from tgbot.table.render.common import Look, duration
from tgbot.table.screens import Screens


def settings_text(room: Room) -> str:
    """The settings in one line, with the timers as long as they really run."""
    s = settings_of(room)
    scale = room.timer_scale

    def secs(value: int) -> str:
        return duration(value * scale)

    parts = [
        _("2–{max} players").format(max=min(s.max_seats, 4)),
        _("board of {n}").format(n=s.size) if s.size
        else _("board of 6 for two players, 8 for more"),
        _("turns {time}").format(time=secs(s.turn_s)) if s.timers else _("timers off"),
        _("AI {level}").format(level=_(LEVELS.get(s.ai_level, str(s.ai_level)))),
        i18n.LANGUAGES.get(room.settings.language, room.settings.language),
    ]  # fmt: skip
    return " · ".join(parts)


def rules() -> str:
    """How to play Wunchunk, ending with its differences from the printed game."""
    return _(
        "<b>How to play Wunchunk</b>\n"
        "The board is a big hexagon of hexagonal cells. Each player has a colour and starts "
        "with two stones of it side by side. Stones of one colour that touch form a group: "
        "two or more make a <b>chunk</b>, a single stone is a <b>crumb</b>. Every group of "
        "your colour counts for you, whoever placed its stones.\n"
        "On your turn you place as many stones as your colour has chunks (or fewer, or none: "
        "a pass), and <b>each stone may be of any colour</b>: yours, to join your groups, or "
        "another player's, to split theirs. You build your turn in our private chat: type cells "
        "like g5 g6 (2:f7 for a stone of player 2's colour) or use the buttons; Undo until you "
        "press End turn. Rows are letters from the bottom, places numbers from the left.\n"
        "Balancing rule: the first player's second turn may not end with more chunks of their "
        "colour than it began with.\n\n"
        "<b>The end</b>\n"
        "The game ends when the board is full, or when every player has passed one after "
        "another (a missed turn is a pass). <b>The fewest chunks win</b>; a tie goes to the "
        "fewest crumbs, then the fewest groups of two, of three… Players still level win "
        "together.\n\n"
        "<b>Differences from the printed game</b>\n"
        "• The balancing rule looks at the whole turn, not at each stone.\n"
        "• A turn missed because time ran out counts as a pass."
    )


def settings_help() -> str:
    """The settings /settings takes in a lobby of Wunchunk."""
    return _(
        "Settings: seats=2–4 size=0|5–8 (0: by the number of players) level=1–3 "
        "timers=on|off turn=15–900 reveal=2–60 join=0–600 language=en|it|es|fr|de|pt|ru"
    )


def _reminder(room: Room, look: Look) -> Outgoing | None:
    return wu.board_message(room, look)


SCREENS = Screens(
    pictures=(WunchunkBoardPicture,),
    refusals=REFUSALS,
    aliases=("wun", "chunk"),
    name="wunchunk",
    blurb=lambda: _("<b>Wunchunk</b> (stones on a board of hexagons, for 2 to 4)"),
    secrets=lambda: _("your turns"),
    messages=effects.messages,
    settings_text=settings_text,
    setting_rows=ROWS,
    settings=SETTINGS,
    rules=rules,
    settings_help=settings_help,
    waiting_prompt=wu.waiting_prompt,
    skipped=wu.skip_notice,
    where_it_stands=wu.where_it_stands,
    standings=wu.standings_text,
    reminder=_reminder,
    text_given=None,  # a typed turn's stones: the turn's message again, below the text
    joined=lambda: _(
        "You joined the game in <b>{group}</b>. When it starts, you build your turns here."
    ),
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where the turns "
        "are built."
    ),
    button_kinds=buttons.KINDS,
    private_buttons=frozenset(buttons.KINDS),
    buttons=buttons.BUTTONS,
    board_app=app.APP,
)
