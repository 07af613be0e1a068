"""Mini Apps as Telegram opens them: the launch address of a `web_app` button or of a direct
link (`https://t.me/<bot>/<app>?startapp=…`), with `initData` signed by the bot's token.

Telegram hands the app its launch parameters in the address's fragment (`#tgWebAppData=…`),
which its script (`telegram-web-app.js`) reads; the play page opens the app at that address,
and a local shim of the script reads the same fragment.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from tgbot.standin.records import User

VERSION = "9.0"
THEME = {  # Telegram's light theme, as a client sends it
    "bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
    "link_color": "#3390ec", "button_color": "#3390ec", "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}  # fmt: skip
_DIRECT = re.compile(r"https://t\.me/([A-Za-z0-9_]{5,32})/([A-Za-z0-9_]{3,30})")
_START = re.compile(r"[A-Za-z0-9_-]{1,512}")


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """`initData` for these fields, signed as Telegram signs it: every field as `name=value`,
    sorted, joined by newlines, under HMAC-SHA256 with the key HMAC-SHA256("WebAppData", token)."""
    check = "\n".join(f"{name}={value}" for name, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def launch(url: str, user: User, bot_token: str, now: float, *,
           start_param: str | None = None, from_button: bool = True) -> str:  # fmt: skip
    """The address Telegram opens an app at for `user`: a `web_app` button's (with a
    `query_id`) or a direct link's (with its `start_param`, no `query_id`)."""
    person: dict[str, Any] = {"id": user.id, "first_name": user.first_name}
    for key in ("last_name", "username", "language_code"):
        if getattr(user, key):
            person[key] = getattr(user, key)
    fields = {"auth_date": str(int(now)), "user": json.dumps(person, separators=(",", ":"),
                                                              ensure_ascii=False)}  # fmt: skip
    if from_button:
        fields["query_id"] = "AAH" + secrets.token_urlsafe(12)
    if start_param is not None:
        fields.update(start_param=start_param, chat_type="group",
                      chat_instance=str(secrets.randbelow(10**18)))  # fmt: skip
    data = sign_init_data(fields, bot_token)
    theme = json.dumps(THEME, separators=(",", ":"))
    return (f"{url}#tgWebAppData={quote(data, safe='')}&tgWebAppVersion={VERSION}"
            f"&tgWebAppPlatform=weba&tgWebAppThemeParams={quote(theme, safe='')}")  # fmt: skip


def direct_link(link: str, bot_username: str, apps: dict[str, str]
                ) -> tuple[str, str | None] | None:  # fmt: skip
    """The registered app address and `startapp` a direct link to this bot's app names, or
    None when it names no app of the bot (or its `startapp` is not one Telegram takes)."""
    parts = urlsplit(link)
    match = _DIRECT.fullmatch(f"{parts.scheme}://{parts.netloc}{parts.path}")
    if match is None or match.group(1).lower() != bot_username.lower():
        return None
    url = apps.get(match.group(2))
    if url is None:
        return None
    start = parse_qs(parts.query).get("startapp", [None])[0]
    if start is not None and not _START.fullmatch(start):
        return None
    return url, start
