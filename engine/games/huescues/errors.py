"""Why Hues and Cues refuses a command: its own refusals, beside the table's `ErrorCode`."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """What Hues and Cues's rules refuse; its Telegram side turns each into a short answer."""

    NOT_CUE_GIVER = "not_cue_giver"
    GIVER_DOES_NOT_GUESS = "giver_does_not_guess"
    NOT_A_CELL = "not_a_cell"
    COLOUR_NOT_ON_CARD = "colour_not_on_card"
    NO_COLOUR_CHOSEN = "no_colour_chosen"
    CUE_EMPTY = "cue_empty"
    CUE_TOO_LONG = "cue_too_long"
    CUE_NOT_WORDS = "cue_not_words"
    CUE_ONE_WORD = "cue_one_word"
    CUE_TWO_WORDS = "cue_two_words"
    CUE_COLOUR_WORD = "cue_colour_word"
    CUE_COORDINATE = "cue_coordinate"
    CUE_REPEATED = "cue_repeated"
    NO_CELL_CHOSEN = "no_cell_chosen"
    CELL_HAS_FIRST_CONE = "cell_has_first_cone"
