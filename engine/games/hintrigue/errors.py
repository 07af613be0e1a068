"""Why Hintrigue refuses a command: its own refusals, beside the table's `ErrorCode`."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """What Hintrigue's rules refuse; its Telegram side turns each into a short answer."""

    DECK_TOO_SMALL = "deck_too_small"
    """The deck has fewer cards than the most seats' hands and a card each to draw."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    NO_CARD_CHOSEN = "no_card_chosen"
    """A hint given before the storyteller chose its card."""
    HINT_EMPTY = "hint_empty"
    HINT_TOO_LONG = "hint_too_long"
    ALREADY_PLAYED = "already_played"
    """The seat's card of this round is on the table already."""
    OWN_CARD = "own_card"
    CARD_NOT_ON_TABLE = "card_not_on_table"
    SAME_VOTE = "same_vote"
