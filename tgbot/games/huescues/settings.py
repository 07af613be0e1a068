"""Hues and Cues' rows on the lobby's settings keyboard."""

from __future__ import annotations

from engine.games.huescues.settings import BOUNDS
from tgbot.i18n import N_, _
from tgbot.table.setting import Setting

ROWS = (
    "max_seats",
    "turns",
    "free_choice",
    "timers",
    "cue_s",
    "guess_s",
    "second_cue_s",
    "second_guess_s",
    "reveal_s",
    "language",
    "join_s",
)
"""Hues and Cues' settings keyboard, row by row."""

SETTINGS = {
    "max_seats": Setting(
        0, N_("max players"), N_("How many players may join: 3–10."), bounds=BOUNDS["max_seats"],
    ),
    "reveal_s": Setting(
        7, N_("reveal time"), N_("How long the reveal shows before the next round."),
        bounds=BOUNDS["reveal_s"], step=2,
    ),
    "guess_s": Setting(
        15, N_("guess time"), N_("Time for everybody's guesses."),
        bounds=BOUNDS["guess_s"], step=15,
    ),
    "turns": Setting(
        16, N_("cues per player"),
        N_(
            "How many times each player gives the cues: 1–3, or by the number of players "
            "(twice with 3–6, once with 7 or more)."
        ),
        bounds=BOUNDS["turns"],
        shown=lambda turns: str(turns) if turns else _("by player count"),
    ),
    "free_choice": Setting(
        17, N_("free choice of colour"),
        N_("On: the cue giver chooses any colour of the board instead of a card's."),
        switch=True,
    ),
    "cue_s": Setting(
        18, N_("cue time"), N_("Time for the cue giver's colour and first cue."),
        bounds=BOUNDS["cue_s"], step=15,
    ),
    "second_cue_s": Setting(
        19, N_("second cue time"), N_("Time for the cue giver's second cue (or none)."),
        bounds=BOUNDS["second_cue_s"], step=15,
    ),
    "second_guess_s": Setting(
        20, N_("second guess time"), N_("Time for everybody's second cones."),
        bounds=BOUNDS["second_guess_s"], step=15,
    ),
}  # fmt: skip
"""Hues and Cues' own settings, and the shared ones with its own bounds (a row's index is
what its buttons carry: never reused)."""
