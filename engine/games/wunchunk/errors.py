"""Why Wunchunk refuses a command: its own refusals, beside the table's `ErrorCode`."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """What Wunchunk's rules refuse; its Telegram side turns each into a short answer."""

    NOT_YOUR_TURN = "not_your_turn"
    """Another seat is building its turn."""
    NO_SUCH_CELL = "no_such_cell"
    """The cell is not on this board (or the text names no cell)."""
    NO_SUCH_COLOUR = "no_such_colour"
    """No seat of this game has that colour."""
    OCCUPIED = "occupied"
    """A stone is on that cell already, or one of this turn's pending stones."""
    TOO_MANY_STONES = "too_many_stones"
    """The turn would place more stones than its allotment."""
    BALANCING = "balancing"
    """Seat 1's second turn may not end with more seat-1 chunks than it began with."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    """No pending stone (or none on that cell) to take back."""
