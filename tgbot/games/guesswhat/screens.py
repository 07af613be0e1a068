"""Guess What!'s Telegram side, registered for the table."""

from __future__ import annotations

from engine.games.guesswhat.table import settings_of
from engine.model import Room
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.games.guesswhat import buttons, effects
from tgbot.games.guesswhat import render as gw
from tgbot.games.guesswhat.pictures import GuessBoardPicture, GuessRevealPicture
from tgbot.games.guesswhat.refusals import REFUSALS
from tgbot.games.guesswhat.settings import ROWS, SETTINGS
from tgbot.i18n import _, ngettext
from tgbot.table.render.common import Look, duration
from tgbot.table.screens import Screens


def settings_text(room: Room) -> str:
    """The settings in one line, with the timers as long as they really run."""
    s = settings_of(room)
    scale = room.timer_scale

    def secs(value: int) -> str:
        return duration(value * scale)

    timers = (
        _("timers: clue {c}, guess {g}").format(c=secs(s.clue_s), g=secs(s.guess_s))
        if s.timers
        else _("timers off")
    )
    parts = [
        _("3–{max} players").format(max=s.max_seats),
        ngettext("{n} rotation", "{n} rotations", s.rotations).format(n=s.rotations),
        ngettext("up to {n} point", "up to {n} points", s.target).format(n=s.target),
        timers,
        _("reveal {time}").format(time=secs(s.reveal_s)),
    ]
    if s.connoisseurs:
        parts.append(_("connoisseurs"))
    if not room.settings.pictures:
        parts.append(_("no pictures"))
    parts.append(i18n.LANGUAGES.get(room.settings.language, room.settings.language))
    return " · ".join(parts)


def rules() -> str:
    """How to play Guess What!, ending with its differences from the printed game."""
    return _(
        "<b>How to play Guess What!</b>\n"
        "The board shows 9 icons in three columns, A, B and C. On your turn you secretly pick "
        "one icon in each column (in our private chat) and send a <b>clue</b> there: a word, an "
        "expression, a title or a name that leads to your three icons. Until the clue you may "
        "change your picks, and once per turn replace three icons of the board; then you have "
        "30 seconds left for the clue.\n"
        "Everybody else picks one icon per column in private and confirms; a confirmed guess is "
        "final.\n\n"
        "<b>Points</b>\n"
        "• A guess is correct when all three icons match: +1 for the guesser.\n"
        "• The active player gets +1 per correct guess (with the connoisseurs setting: nothing "
        "when everybody found it).\n\n"
        "A player who gives no clue in time loses the turn: the next one gets 30 seconds on the "
        "same board. The game ends after the turn in which somebody reaches the target (12 "
        "points unless set otherwise), or after the rotations. The highest total wins; ties "
        "share the win.\n\n"
        "<b>Differences from the printed game</b>\n"
        "• Nobody can veto a clue the others find too easy.\n"
        "• A clue that names an icon is a matter of table manners: I do not check it."
    )


def settings_help() -> str:
    """The settings /settings takes in a lobby of Guess What!."""
    return _(
        "Settings: seats=3–10 rotations=1–5 target=5–20 connoisseurs=on|off timers=on|off "
        "clue=15–900 guess=15–900 reveal=2–60 join=0–600 pictures=on|off "
        "language=en|it|es|fr|de|pt|ru"
    )


def _reminder(room: Room, look: Look) -> Outgoing | None:
    return gw.board_message(room, look)


SCREENS = Screens(
    pictures=(GuessBoardPicture, GuessRevealPicture,),
    refusals=REFUSALS,
    aliases=("guess", "guess_what", "guesswhat!"),
    name="guesswhat",
    blurb=lambda: _("<b>Guess What!</b> (one clue for three icons)"),
    secrets=lambda: _("icons and clues"),
    messages=effects.messages,
    settings_text=settings_text,
    setting_rows=ROWS,
    settings=SETTINGS,
    rules=rules,
    settings_help=settings_help,
    waiting_prompt=gw.waiting_prompt,
    where_it_stands=gw.where_it_stands,
    standings=gw.standings_text,
    reminder=_reminder,
    text_given=lambda: _("Clue given. The others are guessing now."),
    joined=lambda: _(
        "You joined the game in <b>{group}</b>. When it starts, you pick your icons and your "
        "guesses here."
    ),
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where the icons "
        "are picked and the guesses made."
    ),
    button_kinds=buttons.KINDS,
    private_buttons=frozenset(buttons.KINDS),
    buttons=buttons.BUTTONS,
)
