"""Every Redis key name, built in one place.

Keys of one room share the hash tag `{room:<chat_id>}`, so a room's keys sit on one Redis
Cluster slot. Player and lifetime-stats keys are per user.
"""

from __future__ import annotations


def room(chat_id: int) -> str:
    """The hash holding a room's state JSON (`state`) and its version (`ver`)."""
    return f"{{room:{chat_id}}}:state"


def applied_update(chat_id: int, update_id: int) -> str:
    """Marks a Telegram update as applied to this room."""
    return f"{{room:{chat_id}}}:upd:{update_id}"


def group_stats(chat_id: int) -> str:
    """Lifetime stats of a group."""
    return f"{{room:{chat_id}}}:stats"


def room_prefix(chat_id: int) -> str:
    """The common prefix of every key of a room."""
    return f"{{room:{chat_id}}}:"


def player(user_id: int) -> str:
    """The chat id of the game a player is seated in."""
    return f"player:{user_id}"


def user_stats(user_id: int) -> str:
    """Lifetime stats of a player."""
    return f"stats:user:{user_id}"
