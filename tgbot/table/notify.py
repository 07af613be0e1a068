"""Who waits for a group's next lobby (/notify), and telling them when it opens.

A group's subscribers are one hash (`keys.notify`: user id → the language to tell them in),
kept 90 days from the last subscription. When a lobby opens, the hash is taken and deleted in
one transaction, so each subscriber is told once, and the messages go through the room's
outbox like the game's own. An update handled twice opens its lobby once (the store knows
it), so it tells nobody twice; a worker that dies between the commit and taking the list
leaves the list for the group's next lobby.
"""

from __future__ import annotations

import logging

from engine.model import Room
from engine.store import keys
from tgbot import i18n
from tgbot.table import render
from tgbot.table.render import community
from tgbot.table.service import Service

log = logging.getLogger(__name__)

NOTIFY_TTL = 90 * 24 * 3600


def subscribe(svc: Service, chat_id: int, user_id: int, language: str) -> None:
    """Put a player on the group's list for its next lobby (in the language to tell them in)."""
    pipe = svc.redis.pipeline(transaction=True)
    pipe.hset(keys.notify(chat_id), str(user_id), language)
    pipe.expire(keys.notify(chat_id), NOTIFY_TTL)
    pipe.execute()


def is_subscribed(svc: Service, chat_id: int, user_id: int) -> bool:
    """Whether a player is on the group's list for its next lobby."""
    return bool(svc.redis.hexists(keys.notify(chat_id), str(user_id)))


def unsubscribe(svc: Service, chat_id: int, user_id: int) -> bool:
    """Take a player off the group's list; whether they were on it."""
    return bool(svc.redis.hdel(keys.notify(chat_id), str(user_id)))


def pop_subscribers(svc: Service, chat_id: int) -> dict[int, str]:
    """Take the group's list of subscribers (each is told once), user id → language."""
    pipe = svc.redis.pipeline(transaction=True)
    pipe.hgetall(keys.notify(chat_id))
    pipe.delete(keys.notify(chat_id))
    found, _deleted = pipe.execute()
    subscribers = {}
    for raw_user, raw_language in found.items():
        try:
            user = int(raw_user)
        except ValueError:
            continue
        language = raw_language.decode() if isinstance(raw_language, bytes) else raw_language
        subscribers[user] = language
    return subscribers


def tell_subscribers(svc: Service, room: Room, opener: int) -> int:
    """A lobby opened: one private message to each of the group's subscribers (but the one who
    opened it), in their language, through the room's outbox. A subscriber who blocked the bot
    is dropped by delivery without a word. Returns how many were told."""
    subscribers = pop_subscribers(svc, room.chat_id)
    subscribers.pop(opener, None)
    messages = []
    for user_id, language in sorted(subscribers.items()):
        with i18n.use(language):
            messages.append(community.next_game(render.title(room), room.room_id, user_id,
                                                svc.look))  # fmt: skip
    if messages:
        svc.show(room.room_id, *messages)
        log.info("chat %s: told %d subscribers that a lobby opened", room.chat_id, len(messages))
    return len(messages)
