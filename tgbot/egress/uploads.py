"""The `file_id`s Telegram gave to pictures the bot uploaded, by the picture's content digest:
a picture sent once is sent again by its `file_id`, not uploaded again.

One string key per picture, `b<id>:picture:<sha256 of the PNG>` → file_id. A file_id belongs
to one bot token, which the `b<id>:` prefix keeps apart. Kept 30 days from its last use (each
use renews it); one Telegram no longer knows is forgotten when the photo is refused, and the
picture is uploaded again.

And which picture each photo message the bot sent shows, `b<id>:shown:<chat>:<message>` → the
picture's identity (`tgbot.pictures.identity`), so that an edit that leaves the picture as it is
changes the caption only (editMessageCaption), without drawing or sending the picture again.
Kept as long as a game's message ids.
"""

from __future__ import annotations

import redis

from engine.store import keys

RETENTION_SECONDS = 30 * 24 * 3600
SHOWN_SECONDS = 8 * 24 * 3600


def key(digest: str) -> str:
    """Where the file_id of the picture with this content digest is kept."""
    return f"{keys.namespace()}picture:{digest}"


def shown_key(chat_id: int, message_id: int) -> str:
    """Where the identity of the picture a photo message shows is kept."""
    return f"{keys.namespace()}shown:{chat_id}:{message_id}"


class FileIds:
    """The file_ids of pictures already uploaded, in Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def get(self, digest: str) -> str | None:
        """The file_id of an uploaded picture (its retention renewed), or None."""
        raw = self.client.getex(key(digest), ex=RETENTION_SECONDS)
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def put(self, digest: str, file_id: str) -> None:
        """Remember the file_id Telegram gave to an uploaded picture."""
        self.client.set(key(digest), file_id, ex=RETENTION_SECONDS)

    def forget(self, digest: str) -> None:
        """Drop a file_id Telegram refused."""
        self.client.delete(key(digest))

    def showing(self, chat_id: int, message_id: int) -> str | None:
        """The identity of the picture a message shows (None: unknown, or not a photo)."""
        raw = self.client.get(shown_key(chat_id, message_id))
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def shows(self, chat_id: int, message_id: int, identity: str) -> None:
        """Remember the picture a photo message now shows."""
        self.client.set(shown_key(chat_id, message_id), identity, ex=SHOWN_SECONDS)
