"""Hues and Cues' Telegram side, registered for the table."""

from __future__ import annotations

from engine.games.huescues.table import settings_of
from engine.model import Room
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.games.huescues import app, buttons, effects
from tgbot.games.huescues import render as hc
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture
from tgbot.games.huescues.refusals import REFUSALS
from tgbot.games.huescues.settings import ROWS, SETTINGS
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
        _("timers: cue {c}, guess {g}, second cue {c2}, second guess {g2}").format(
            c=secs(s.cue_s), g=secs(s.guess_s), c2=secs(s.second_cue_s),
            g2=secs(s.second_guess_s))
        if s.timers
        else _("timers off")
    )  # fmt: skip
    turns = (
        ngettext("each gives the cues {n} time", "each gives the cues {n} times", s.turns)
        .format(n=s.turns)
        if s.turns
        else _("cues twice each with 3–6 players, once with 7 or more")
    )  # fmt: skip
    parts = [
        _("3–{max} players").format(max=s.max_seats),
        turns,
        timers,
        _("reveal {time}").format(time=secs(s.reveal_s)),
    ]
    if s.free_choice:
        parts.append(_("free choice of colour"))
    parts.append(i18n.LANGUAGES.get(room.settings.language, room.settings.language))
    return " · ".join(parts)


def rules() -> str:
    """How to play Hues and Cues, ending with its differences from the printed game."""
    return _(
        "<b>How to play Hues and Cues</b>\n"
        "The board holds 480 colours in rows A–P and columns 1–30. In turn, each player is the "
        "<b>cue giver</b>: in our private chat you draw a card, choose one of its four colours "
        "and send a <b>cue of one word</b>.\n"
        "Everybody else places a cone on the board in private: type a cell like H15 or pick "
        "its row and column, check the close-up, confirm. Cones stay hidden until everybody has "
        "placed one; then the first cones are shown to all.\n"
        "The cue giver may then give a <b>second cue</b> of one or two words (or none), and "
        "everybody places a second cone, never on a cell that holds a first cone.\n"
        "Forbidden cues: basic colour words (red, blue, grey…, in the group's language or in "
        "English), a row letter A–P, a number 1–30, a cell name, and any cue given before.\n\n"
        "<b>Points</b>\n"
        "• A cone on the colour: 3; inside its 3×3 frame: 2; just outside the frame: 1.\n"
        "• The cue giver: 1 per cone inside the frame (2 per cone when there are exactly two "
        "guessers), at most 9 a round.\n\n"
        "Each player gives the cues twice with 3–6 players, once with 7 or more. The highest "
        "total wins; a tie at the top brings up to three extra rounds in which only the tied "
        "players guess and score.\n\n"
        "<b>Differences from the printed game</b>\n"
        "• Cones are placed at the same time and hidden, not in turn; cones placed after the "
        "same cue may share a cell.\n"
        "• Every row letter, column number and cell name is a forbidden cue, not only the "
        "chosen colour's.\n"
        "• Tie-break rounds stop after three: those still level win together."
    )


def settings_help() -> str:
    """The settings /settings takes in a lobby of Hues and Cues."""
    return _(
        "Settings: seats=3–10 turns=0–3 (0: by the number of players) free=on|off "
        "timers=on|off cue=15–900 guess=15–900 cue2=15–900 guess2=15–900 reveal=2–60 "
        "join=0–600 language=en|it|es|fr|de|pt|ru"
    )


def _reminder(room: Room, look: Look) -> Outgoing | None:
    return hc.board_message(room, look)


SCREENS = Screens(
    pictures=(HuesBoardPicture, HuesCloseupPicture, HuesCardPicture,),
    refusals=REFUSALS,
    aliases=("hues", "hues_and_cues", "huesandcues"),
    name="huescues",
    blurb=lambda: _("<b>Hues and Cues</b> (one word for a colour)"),
    secrets=lambda: _("colours and cues"),
    messages=effects.messages,
    settings_text=settings_text,
    setting_rows=ROWS,
    settings=SETTINGS,
    rules=rules,
    settings_help=settings_help,
    waiting_prompt=hc.waiting_prompt,
    skipped=hc.skip_notice,
    where_it_stands=hc.where_it_stands,
    standings=hc.standings_text,
    reminder=_reminder,
    text_given=None,  # a typed cell's close-up, a typed cue's prompt, below the text
    joined=lambda: _(
        "You joined the game in <b>{group}</b>. When it starts, you give your cues and place "
        "your cones here."
    ),
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where the cues "
        "are given and the cones placed."
    ),
    button_kinds=buttons.KINDS,
    private_buttons=frozenset(buttons.KINDS),
    buttons=buttons.BUTTONS,
    board_app=app.APP,
)
