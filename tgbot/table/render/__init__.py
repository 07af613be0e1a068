"""Rendering: room views into HTML messages and inline keyboards. Every user string is escaped."""

from tgbot.table.render.common import (
    NAME_MAX,
    Look,
    duration,
    message_link,
    names,
    private_link_works,
    seat_language,
    time_left,
    title,
    user_text,
)
from tgbot.table.render.group import (
    STOP_KEY,
    final,
    late_join_notice,
    left_notice,
    listed,
    score,
    stop_closed,
    stop_started,
    unreachable_notice,
)
from tgbot.table.render.lobby import (
    lobby,
    setting_line,
    setting_shown,
)
from tgbot.table.render.private import (
    closed_prompt,
    spectator_dm,
)

__all__ = [
    "NAME_MAX",
    "Look",
    "closed_prompt",
    "duration",
    "message_link",
    "private_link_works",
    "STOP_KEY",
    "final",
    "late_join_notice",
    "left_notice",
    "listed",
    "lobby",
    "names",
    "score",
    "seat_language",
    "setting_line",
    "setting_shown",
    "spectator_dm",
    "stop_closed",
    "stop_started",
    "time_left",
    "title",
    "unreachable_notice",
    "user_text",
]
