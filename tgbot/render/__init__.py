"""Rendering: room views into HTML messages and inline keyboards. Every user string is escaped."""

from tgbot.render.common import Look, card, names, settings_text, title, until
from tgbot.render.group import (
    final,
    late_join_notice,
    reveal,
    round_message,
    score,
    standings_text,
    table,
    unreachable_notice,
    void_message,
)
from tgbot.render.lobby import DECK_NAMES, SETTING_LABELS, SETTING_ROWS, SETTING_STEPS, lobby
from tgbot.render.private import decoy_dm, hand_buttons, spectator_dm, storyteller_dm

__all__ = [
    "DECK_NAMES",
    "SETTING_LABELS",
    "SETTING_ROWS",
    "SETTING_STEPS",
    "Look",
    "card",
    "decoy_dm",
    "final",
    "hand_buttons",
    "late_join_notice",
    "lobby",
    "names",
    "reveal",
    "round_message",
    "score",
    "settings_text",
    "spectator_dm",
    "standings_text",
    "storyteller_dm",
    "table",
    "title",
    "unreachable_notice",
    "until",
    "void_message",
]
