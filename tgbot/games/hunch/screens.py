"""Hunch!'s Telegram side, registered for the table."""

from __future__ import annotations

from engine.games.hunch.table import settings_of
from engine.model import Room
from tgbot import i18n
from tgbot.games.hunch import buttons, effects, prompts
from tgbot.games.hunch.group import standings_text
from tgbot.games.hunch.pictures import MatrixPicture, RevealPicture
from tgbot.games.hunch.refusals import REFUSALS
from tgbot.games.hunch.settings import ROWS, SETTINGS
from tgbot.i18n import _
from tgbot.table.render.common import duration
from tgbot.table.screens import Screens


def settings_text(room: Room) -> str:
    """The settings in one line, with the timers as long as they really run."""
    s = settings_of(room)
    scale = room.timer_scale

    def secs(value: int) -> str:
        return duration(value * scale)

    timers = _("timers: clues {c}, bids {b}, hunches {h}").format(
        c=secs(s.clue_s), b=secs(s.bid_s), h=secs(s.hunch_s)) if s.timers else _("timers off")
    parts = [_("3–{max} players").format(max=min(s.max_seats, 6)), _("3 rounds"), timers]
    if s.advanced:
        parts.append(_("advanced rules"))
    if not room.settings.pictures:
        parts.append(_("no pictures"))
    parts.append(i18n.LANGUAGES.get(room.settings.language, room.settings.language))
    return " · ".join(parts)


def rules() -> str:
    """How to play Hunch!, a short paragraph per phase, ending with its differences from the
    printed game."""
    return _(
        "<b>How to play Hunch!</b>\n"
        "Everybody hides secret words; guess the others' secrets and keep yours guessable "
        "enough to score. 3 rounds; most victory points (VP) win, then most coins.\n\n"
        "<b>Secrets.</b> At the start each of you gets 3 target cards of three words in private "
        "(2 with 5–6 players) and picks one word of each as a secret. All those cards, topped "
        "up to 12, form the <b>matrix</b>: 36 words everybody sees, the secrets among them.\n\n"
        "<b>1. Clue phase.</b> Each of you draws two clue cards (a category: a colour, a sound, "
        "a famous person, a yes/no question, free choice…) and writes a clue on each in our "
        "private chat: a word or a few, up to 40 characters, that fits many words of the "
        "matrix. A clue may not name a matrix word nor begin with one of four letters or more. "
        "You may replace one card once per round.\n\n"
        "<b>2. Trading phase.</b> Each player in turn sells their clues in an auction in the "
        "group: bids go around with +1, +2, +5 or Pass; a player who passes is out. The "
        "highest bidder pays the seller and puts one of the clues before one of their own "
        "secrets (a question is answered yes or no for that secret). Then, in the bargain "
        "round, each player keeps a leftover clue (not their own) or takes 2 coins. The player "
        "with the fewest coins starts the next round.\n\n"
        "<b>3. Hunch phase.</b> In private, place 1 hunch in round 1, 2 in round 2 and 3 in "
        "round 3, each on a different secret of another player: a word of the matrix. At the "
        "reveal a correct hunch gives +1 VP; a secret guessed gives its owner +1 VP, +1 more "
        "when two or more guessed it. A guessed secret leaves the game with its clues and its "
        "card.\n\n"
        "<b>Advanced rules</b> (setting): in the bargain round you may also pay 2 coins for an "
        "extra hunch, or put 2 coins on a secret: if it is guessed that round, you and each "
        "finder get 1 more VP.\n\n"
        "<b>Differences from the printed game</b>\n"
        "• Nobody checks that a clue fits its category.\n"
        "• Your hunches of one round go to different secrets.\n"
        "• Words derived from matrix words are caught only when they begin with one of four "
        "letters or more."
    )


def settings_help() -> str:
    """The settings /settings takes in a lobby of Hunch!."""
    return _(
        "Settings: seats=3–6 advanced=on|off timers=on|off secrets=15–900 clue=15–900 "
        "bid=5–300 choice=10–600 hunch=15–900 reveal=2–60 join=0–600 pictures=on|off "
        "language=en|it|es|fr|de|pt|ru"
    )


SCREENS = Screens(
    pictures=(MatrixPicture, RevealPicture),
    refusals=REFUSALS,
    aliases=("hunch!",),
    name="hunch",
    blurb=lambda: _("<b>Hunch!</b> (secret words, clues at auction and hunches, for 3 to 6)"),
    secrets=lambda: _("secrets, clues and hunches"),
    messages=effects.messages,
    settings_text=settings_text,
    setting_rows=ROWS,
    settings=SETTINGS,
    rules=rules,
    settings_help=settings_help,
    waiting_prompt=prompts.waiting_prompt,
    skipped=prompts.skip_notice,
    where_it_stands=prompts.where_it_stands,
    standings=standings_text,
    reminder=prompts.reminder,
    text_given=None,  # a typed clue: the clue message again, below the text
    joined=lambda: _(
        "You joined the game in <b>{group}</b>. When it starts, you choose your secrets, "
        "write clues and place hunches here."
    ),
    private_why=lambda: _(
        "Everybody must open a private chat with me before the start: that is where secrets "
        "are chosen, clues written and hunches placed."
    ),
    button_kinds=buttons.KINDS,
    private_buttons=buttons.PRIVATE,
    buttons=buttons.BUTTONS,
)
