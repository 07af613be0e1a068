"""Guess What!'s rows on the lobby's settings keyboard."""

from __future__ import annotations

from engine.games.guesswhat.settings import BOUNDS
from tgbot.i18n import N_
from tgbot.table.setting import Setting

ROWS = (
    "max_seats",
    "rotations",
    "target",
    "connoisseurs",
    "timers",
    "clue_s",
    "guess_s",
    "reveal_s",
    "language",
    "join_s",
    "pictures",
)
"""Guess What!'s settings keyboard, row by row."""

SETTINGS = {
    "max_seats": Setting(
        0, N_("max players"), N_("How many players may join: 3–10."), bounds=BOUNDS["max_seats"],
    ),
    "rotations": Setting(
        1, N_("rotations"),
        N_("How many times the storyteller's turn goes round the table: 1–5."),
        bounds=BOUNDS["rotations"],
    ),
    "reveal_s": Setting(
        7, N_("reveal time"), N_("How long the reveal shows before the next round."),
        bounds=BOUNDS["reveal_s"], step=2,
    ),
    "target": Setting(
        12, N_("target points"),
        N_("The game ends after the turn in which somebody reaches this many points: 5–20."),
        bounds=BOUNDS["target"],
    ),
    "connoisseurs": Setting(
        13, N_("connoisseurs"),
        N_("On: when every other player finds the three icons, the active player scores nothing."),
        switch=True,
    ),
    "clue_s": Setting(
        14, N_("clue time"), N_("Time for the active player's three icons and clue."),
        bounds=BOUNDS["clue_s"], step=15,
    ),
    "guess_s": Setting(
        15, N_("guess time"), N_("Time for everybody's guesses."),
        bounds=BOUNDS["guess_s"], step=15,
    ),
}  # fmt: skip
"""Guess What!'s own settings, and the shared ones with its own bounds (a row's index is what
its buttons carry: never reused)."""
