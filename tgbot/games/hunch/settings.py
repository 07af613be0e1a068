"""Hunch!'s rows on the lobby's settings keyboard."""

from __future__ import annotations

from engine.games.hunch.model import MAX_SEATS, MIN_SEATS
from engine.games.hunch.settings import BOUNDS
from tgbot.i18n import N_
from tgbot.table.setting import Setting

ROWS = (
    "max_seats",
    "advanced",
    "timers",
    "secrets_s",
    "clue_s",
    "bid_s",
    "choice_s",
    "hunch_s",
    "reveal_s",
    "language",
    "join_s",
    "pictures",
)
"""Hunch!'s settings keyboard, row by row."""

SETTINGS = {
    "max_seats": Setting(
        0, N_("max players"), N_("How many players may join: 3–6."),
        bounds=(MIN_SEATS, MAX_SEATS),
    ),
    "reveal_s": Setting(
        7, N_("reveal time"), N_("How long the hunches' reveal shows before the next round."),
        bounds=BOUNDS["reveal_s"], step=2,
    ),
    "clue_s": Setting(
        14, N_("clue time"), N_("Time for writing the two clues of a round."),
        bounds=BOUNDS["clue_s"], step=15,
    ),
    "advanced": Setting(
        24, N_("advanced rules"),
        N_("On: the bargain round also offers an extra hunch for 2 coins, or 2 coins on one of "
           "your secrets (\"this is very easy\": one more point if it is guessed)."),
        switch=True,
    ),
    "secrets_s": Setting(
        25, N_("secrets time"), N_("Time for choosing the secret words at the start."),
        bounds=BOUNDS["secrets_s"], step=15,
    ),
    "bid_s": Setting(
        26, N_("bid time"), N_("Time for each bid (or pass) in an auction."),
        bounds=BOUNDS["bid_s"], step=5,
    ),
    "choice_s": Setting(
        27, N_("choice time"),
        N_("Time for placing a bought clue, and for each bargain choice."),
        bounds=BOUNDS["choice_s"], step=10,
    ),
    "hunch_s": Setting(
        28, N_("hunch time"), N_("Time for placing the hunches of a round."),
        bounds=BOUNDS["hunch_s"], step=15,
    ),
}  # fmt: skip
"""Hunch!'s own settings, and the shared ones with its own bounds (a row's index is what its
buttons carry: never reused; `clue_s` keeps the index it has in Guess What!)."""
