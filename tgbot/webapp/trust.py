"""Who is asking, for the board app: Telegram's `initData` checked as Telegram says, and the
signed token that names a room (the `startapp` of a direct link, the query of a button's URL).

`initData` is the query string Telegram gives the app (`Telegram.WebApp.initData`): every field
but `hash`, sorted by name as `name=value` lines, signed with HMAC-SHA256 under the key
HMAC-SHA256(b"WebAppData", bot token). It is parsed from the raw string (`parse_qsl`, no other
decoding), a field given twice is refused, the hash is compared in constant time, and it is
stale an hour after its `auth_date` (or when it claims to come from the future).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from engine.roomid import RoomId

MAX_AGE_S = 3600
CLOCK_SKEW_S = 60  # an auth_date at most this far ahead of our clock still counts
MAX_INIT_DATA = 4096
_TOKEN = re.compile(r"(-?\d{1,20})_(\d{1,12})_(\d{1,20})_([A-Za-z0-9_-]{11})")


@dataclass(frozen=True)
class AppUser:
    """The Telegram user an `initData` was signed for."""

    id: int
    first_name: str
    language_code: str | None
    start_param: str | None
    auth_date: int


def check_init_data(raw: str, bot_token: str, now: float,
                    max_age: float = MAX_AGE_S) -> AppUser | None:  # fmt: skip
    """The user of a genuine, fresh `initData`, or None (forged, tampered, stale, malformed)."""
    if not raw or len(raw) > MAX_INIT_DATA:
        return None
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        return None  # a field given twice: not what Telegram signs
    given = fields.pop("hash", "")
    check = "\n".join(f"{name}={value}" for name, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), given.encode()):
        return None
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
    except ValueError:
        return None
    if not now - max_age <= auth_date <= now + CLOCK_SKEW_S:
        return None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        return None
    language = user.get("language_code")
    return AppUser(
        id=user["id"],
        first_name=str(user.get("first_name", "")),
        language_code=language if isinstance(language, str) else None,
        start_param=fields.get("start_param"),
        auth_date=auth_date,
    )


def _mac(key: bytes, body: str) -> str:
    digest = hmac.new(key, b"app:" + body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:8]).decode().rstrip("=")


def room_token(key: bytes, room: RoomId, game_id: int) -> str:
    """A room and its game, signed: `<chat>_<topic>_<game>_<mac>`, fit for a `startapp`
    (at most 64 characters of `[A-Za-z0-9_-]`)."""
    body = f"{room.chat}_{room.topic}_{game_id}"
    return f"{body}_{_mac(key, body)}"


def read_room_token(key: bytes, token: str) -> tuple[RoomId, int] | None:
    """The room and game a token names, or None when it is not one we signed."""
    match = _TOKEN.fullmatch(token or "")
    if match is None:
        return None
    chat, topic, game, mac = match.groups()
    if not hmac.compare_digest(_mac(key, f"{chat}_{topic}_{game}").encode(), mac.encode()):
        return None
    return RoomId(int(chat), int(topic)), int(game)
