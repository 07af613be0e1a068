"""Why Guess What! refuses a command: its own refusals, beside the table's `ErrorCode`."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """What Guess What!'s rules refuse; its Telegram side turns each into a short answer."""

    ICON_NOT_ON_BOARD = "icon_not_on_board"
    PICKS_INCOMPLETE = "picks_incomplete"
    CLUE_EMPTY = "clue_empty"
    CLUE_TOO_LONG = "clue_too_long"
    REDRAW_USED = "redraw_used"
    REDRAW_COUNT = "redraw_count"
