"""Wunchunk's rows on the lobby's settings keyboard."""

from __future__ import annotations

from engine.games.wunchunk.settings import BOUNDS
from tgbot.i18n import N_, _
from tgbot.table.setting import Setting

ROWS = (
    "max_seats",
    "size",
    "ai_level",
    "timers",
    "turn_s",
    "reveal_s",
    "language",
    "join_s",
)
"""Wunchunk's settings keyboard, row by row."""

LEVELS = {1: N_("easy"), 2: N_("normal"), 3: N_("strong")}

SETTINGS = {
    "max_seats": Setting(
        0, N_("max players"), N_("How many players may join: 2–4."), bounds=(2, 4),
    ),
    "reveal_s": Setting(
        7, N_("reveal time"), N_("How long the final board shows before the results."),
        bounds=BOUNDS["reveal_s"], step=2,
    ),
    "size": Setting(
        21, N_("board size"),
        N_("Cells per side of the board: 5–8, or by the number of players (6 for two, "
           "8 for three or four)."),
        bounds=BOUNDS["size"], values=(0, 5, 6, 7, 8),
        shown=lambda size: str(size) if size else _("by player count"),
    ),
    "ai_level": Setting(
        22, N_("AI level"), N_("How well AI players play: easy, normal or strong."),
        bounds=BOUNDS["ai_level"], shown=lambda level: _(LEVELS.get(level, str(level))),
    ),
    "turn_s": Setting(
        23, N_("turn time"), N_("Time for each turn."), bounds=BOUNDS["turn_s"], step=15,
    ),
}  # fmt: skip
"""Wunchunk's own settings, and the shared ones with its own bounds (a row's index is what
its buttons carry: never reused)."""
