"""What a group keeps between games: its last game, its language and each game's settings
from its last lobby, so the next lobby starts where the last one left off."""

from __future__ import annotations

import json
from typing import cast

import redis

from engine.model import Room
from engine.store import keys
from engine.store.rooms import LANGUAGE_TTL


def remember(client: redis.Redis, room: Room, own_settings: frozenset[str]) -> None:
    """Keep a lobby's settings (the table's and the game's `own_settings`) for its group's
    next lobby of the game, its language and its game."""
    remembered = room.settings.model_dump(exclude={"language"}, exclude_defaults=True)
    if room.game_settings is not None:
        own = room.game_settings.model_dump(exclude_defaults=True)
        remembered.update((k, v) for k, v in own.items() if k in own_settings)
    pipe = client.pipeline(transaction=False)
    pipe.set(keys.group_settings(room.chat_id, room.game), json.dumps(remembered), ex=LANGUAGE_TTL)
    pipe.set(keys.group_language(room.chat_id), room.settings.language, ex=LANGUAGE_TTL)
    pipe.set(keys.group_game(room.chat_id), room.game, ex=LANGUAGE_TTL)
    pipe.execute()


def last_game(client: redis.Redis, chat_id: int) -> str | None:
    """The name of the group's last game, if it kept one."""
    raw = cast(bytes | str | None, client.get(keys.group_game(chat_id)))
    return raw.decode() if isinstance(raw, bytes) else raw


def remember_language(client: redis.Redis, chat_id: int, language: str) -> None:
    """Keep a group's language for its next lobby (and its answers outside a game)."""
    client.set(keys.group_language(chat_id), language, ex=LANGUAGE_TTL)


def settings(client: redis.Redis, chat_id: int, game: str) -> dict[str, int | bool | str]:
    """The settings of the group's last lobby of the game (none kept, or unreadable: {})."""
    raw = cast(bytes | str | None, client.get(keys.group_settings(chat_id, game)))
    try:
        found = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
