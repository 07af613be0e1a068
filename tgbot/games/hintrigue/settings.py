"""Hintrigue's rows on the lobby's settings keyboard, and its decks' names as players read them."""

from __future__ import annotations

from engine.games.hintrigue.settings import BOUNDS, settings_of
from engine.model import Room
from tgbot import i18n
from tgbot.i18n import N_, Texts, _, ngettext
from tgbot.table.render.common import duration
from tgbot.table.setting import Setting

DECK_LABELS = Texts({
    # TRANSLATORS: the name of the deck with every card (a setting's value, e.g. "deck default").
    "default": N_("default"),
    # TRANSLATORS: the name of the smaller deck (a setting's value).
    "short": N_("short"),
})


def deck_name(deck: str) -> str:
    """A deck's name as players read it (`/settings deck=` takes the names of the code)."""
    return DECK_LABELS.get(deck, deck)


ROWS = (
    "max_seats",
    "rotations",
    "hand_size",
    "timers",
    "hint_s",
    "decoy_s",
    "vote_s",
    "reveal_s",
    "deck",
    "language",
    "join_s",
    "pictures",
)
"""Hintrigue's settings keyboard, row by row."""
DECKS = ("default", "short")

SETTINGS = {
    "rotations": Setting(
        1, N_("rotations"),
        N_("How many times the storyteller's turn goes round the table: 1–5."),
        bounds=BOUNDS["rotations"],
    ),
    "hand_size": Setting(
        2, N_("cards in hand"), N_("How many cards each player holds: 4–8."),
        bounds=BOUNDS["hand_size"],
    ),
    "hint_s": Setting(
        4, N_("hint time"), N_("Time for the storyteller's card and hint."),
        bounds=BOUNDS["hint_s"], step=15,
    ),
    "decoy_s": Setting(
        5, N_("decoy time"), N_("Time for everybody's decoys."), bounds=BOUNDS["decoy_s"], step=15,
    ),
    "vote_s": Setting(
        6, N_("vote time"), N_("Time for the vote."), bounds=BOUNDS["vote_s"], step=15,
    ),
    "reveal_s": Setting(
        7, N_("reveal time"), N_("How long the reveal shows before the next round."),
        bounds=BOUNDS["reveal_s"], step=2,
    ),
    "deck": Setting(
        8, N_("deck"), N_("Which cards to play with: default (all) or short."),
        choices=DECKS, shown=lambda deck: deck_name(str(deck)),
    ),
}  # fmt: skip
"""Hintrigue's own settings (a row's index is what its buttons carry: never reused)."""


def settings_text(room: Room) -> str:
    """The settings in one line, with the timers as long as they really run."""
    s, own = room.settings, settings_of(room)
    scale = room.timer_scale

    def secs(value: int) -> str:
        return duration(value * scale)

    timers = (
        _("timers: hint {h}, decoy {d}, vote {v}").format(
            h=secs(own.hint_s), d=secs(own.decoy_s), v=secs(own.vote_s)
        )
        if s.timers
        else _("timers off")
    )
    line = _("{players} · {rotations} · {hand} · {timers} · reveal {reveal} · deck {deck}")
    if not s.pictures:
        line += " · " + _("no pictures")
    return (line + " · {language}").format(
        players=_("3–{max} players").format(max=s.max_seats),
        rotations=ngettext("{n} rotation", "{n} rotations", own.rotations).format(n=own.rotations),
        hand=ngettext("{n} card in hand", "{n} cards in hand", own.hand_size).format(
            n=own.hand_size
        ),
        timers=timers,
        reveal=secs(own.reveal_s),
        deck=deck_name(own.deck),
        language=i18n.LANGUAGES.get(s.language, s.language),
    )
