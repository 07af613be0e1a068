"""The board app's routes in the `web` process (SPEC 16): its page and scripts, a seat's view of
its room, and taps.

Every API request carries Telegram's `initData` (`Authorization: tma <initData>`, checked by
`tgbot.webapp.trust`) and the signed token of a room's game; the user is seated there or
watches. A request that fails either check is answered 401 or 403 with no detail and changes
nothing; an app asking more than about twice a second is answered 429.

A tap becomes the press of a button the game already has (`tgbot.webapp.board`): an update
with a `callback_query` of its own id (`app:<digest>`) and the button's signed data, pushed to
the room's inbox as the webhook pushes Telegram's. The workers handle it like any press; its
answer is written to Redis (`tgbot.table.handlers.common.answer`), where the request waits for
it. The update id comes from the user and the tap's nonce (negative: never one of Telegram's),
so a tap sent twice is taken in once.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import html
import json
import logging
import re
import time
from importlib import resources
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from engine.model import OVER_PHASES
from engine.roomid import RoomId
from engine.store import CorruptRoom, keys, parse_stored
from tgbot import i18n
from tgbot.ingress.inbox import WebInbox
from tgbot.ops.config import Config
from tgbot.table.render.common import Look, seat_language
from tgbot.table.screens import Lineup
from tgbot.webapp.board import APP_PRESS, BadTap
from tgbot.webapp.trust import AppUser, check_init_data, read_room_token

log = logging.getLogger(__name__)

STATIC = resources.files(__package__).joinpath("static")
ANSWER_WAIT_S = 4.0  # how long a tap's request waits for the workers' answer
ANSWER_POLL_S = 0.03
MAX_BODY = 4096
_NONCE = re.compile(r"[A-Za-z0-9_-]{8,40}")
RATE_PER_S = 2.0  # an open app polls once a second and taps now and then
RATE_BURST = 6.0
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


class Packed:
    """A file the app loads, and the same gzipped once (for clients that take gzip)."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.gzipped = gzip.compress(body, mtime=0)


def _served(request: Request, file: Packed, media_type: str, headers: dict[str, str]) -> Response:
    headers = {**headers, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(file.gzipped, media_type=media_type, headers=headers)
    return Response(file.body, media_type=media_type, headers=headers)


class Buckets:
    """A token bucket per user: at most `RATE_BURST` requests at once, `RATE_PER_S` a second
    after that (each web process counts its own)."""

    def __init__(self, rate: float = RATE_PER_S, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self._level: dict[int, tuple[float, float]] = {}

    def take(self, user: int, now: float) -> bool:
        level, at = self._level.get(user, (self.burst, now))
        level = min(self.burst, level + (now - at) * self.rate)
        if level < 1:
            self._level[user] = (level, now)
            return False
        self._level[user] = (level - 1, now)
        if len(self._level) > 100_000:  # forget the users whose buckets are full again
            self._level = {u: (v, t) for u, (v, t) in self._level.items()
                           if v + (now - t) * self.rate < self.burst}  # fmt: skip
        return True


def press_ids(user: int, nonce: str, step: int) -> tuple[str, int]:
    """The query id and update id of a tap's `step`-th press."""
    digest = hashlib.sha256(f"{user}:{nonce}:{step}".encode()).hexdigest()
    return f"{APP_PRESS}{digest[:24]}", -(int(digest[:13], 16) + 1)


def app_routes(config: Config, client: aioredis.Redis, inbox: WebInbox, lineup: Lineup
               ) -> list[BaseRoute]:  # fmt: skip
    """The app's routes under `/app/`."""
    buckets = Buckets()
    page = Packed(STATIC.joinpath("index.html").read_text("utf-8").replace(
        "{{telegram_script}}", html.escape(config.app_script, quote=True)).encode())
    scripts = {name: Packed(app.script.read_bytes()) for name, app in lineup.apps.items()}
    files = {name: Packed(STATIC.joinpath(name).read_bytes())
             for name in ("app.js", "app.css", "shim.js")}  # fmt: skip

    async def index(request: Request) -> Response:
        return _served(request, page, "text/html; charset=utf-8",
                       {**_GUARDS, "Cache-Control": "no-cache"})  # fmt: skip

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        body = files.get(name)
        if body is None:
            return Response(status_code=404)
        kind = _TYPES[name[name.rfind(".") :]]
        return _served(request, body, kind, {"Cache-Control": "max-age=300"})

    async def game_script(request: Request) -> Response:
        body = scripts.get(request.path_params["game"])
        if body is None:
            return Response(status_code=404)
        return _served(request, body, _TYPES[".js"], {"Cache-Control": "max-age=300"})

    def who(request: Request) -> AppUser | None:
        scheme, _, raw = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "tma":
            return None
        return check_init_data(raw, config.token, time.time())

    async def body_of(request: Request) -> dict[str, Any] | None:
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            return None
        raw = await request.body()
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            return None
        return data if isinstance(data, dict) and len(raw) <= MAX_BODY else None

    async def opened(request: Request) -> tuple[Any, ...] | Response:
        """The user, the request's body, the room's id and game id, or the refusal."""
        user = who(request)
        if user is None:
            return Response(status_code=401)
        if not buckets.take(user.id, time.monotonic()):
            return Response(status_code=429, headers={"Retry-After": "1"})
        data = await body_of(request)
        named = read_room_token(config.signing_key, str(data.get("room", ""))) if data else None
        if data is None or named is None:
            return Response(status_code=403)
        return user, data, *named

    def gone(user: AppUser) -> Response:
        with i18n.use(i18n.pick(user.language_code)):
            text = i18n._("That game is over.")
        return JSONResponse({"over": True, "text": text}, headers=_GUARDS)

    async def view(request: Request) -> Response:
        found = await opened(request)
        if isinstance(found, Response):
            return found
        user, data, where, game_id = found
        try:
            raw, version = await client.hmget(keys.room(where), ["state", "ver"])
        except RedisError:
            return Response(status_code=503)
        since, version = data.get("since"), _text(version)
        if raw is not None and version and str(since) == version:
            return JSONResponse({"same": True}, headers=_GUARDS)  # the app shows it already
        try:
            room = parse_stored(lineup.games, where, raw)
        except CorruptRoom:
            return Response(status_code=503)
        app = lineup.apps.get(room.game) if room is not None else None
        if room is None or app is None or room.game_id != game_id or room.phase in OVER_PHASES:
            return gone(user)
        index = room.seat_of(user.id)
        language = (seat_language(room, index) if index is not None
                    else i18n.pick(user.language_code, room.settings.language))  # fmt: skip
        look = Look(bot_username="", key=config.signing_key, lineup=lineup, now=time.time())
        with i18n.use(language):
            shown = app.view(room, index, look)
        body = {"version": version, "game": room.game,
                "language": language, "seat": index, **shown}  # fmt: skip
        return JSONResponse(body, headers=_GUARDS)

    async def tap(request: Request) -> Response:
        found = await opened(request)
        if isinstance(found, Response):
            return found
        user, data, where, game_id = found
        nonce, move = data.get("nonce"), data.get("tap")
        if not isinstance(nonce, str) or not _NONCE.fullmatch(nonce) or not isinstance(move, dict):
            return JSONResponse({"error": "bad tap"}, status_code=400)
        try:
            room = parse_stored(lineup.games, where, await client.hget(keys.room(where), "state"))
        except (RedisError, CorruptRoom):
            return Response(status_code=503)
        app = lineup.apps.get(room.game) if room is not None else None
        if room is None or app is None or room.game_id != game_id or room.phase in OVER_PHASES:
            return gone(user)
        index = room.seat_of(user.id)
        if index is None:
            return Response(status_code=403)  # a watcher: taps are for seats
        try:
            presses = app.press(room, index, move)
        except BadTap:
            return JSONResponse({"error": "bad tap"}, status_code=400)
        answers = []
        for step, (kind, args) in enumerate(presses):
            query_id, update_id = press_ids(user.id, nonce, step)
            update = {"update_id": update_id, "callback_query": {
                "id": query_id, "chat_instance": "app",
                "data": lineup.codec.encode(config.signing_key, kind, *args),
                "from": {"id": user.id, "is_bot": False, "first_name": user.first_name or "?",
                         **({"language_code": user.language_code}
                            if user.language_code else {})},
            }}  # fmt: skip
            try:
                await inbox.push(update_id, json.dumps(update).encode(), RoomId(user.id), user.id)
                answered = await _answer(client, query_id)
            except RedisError:
                return Response(status_code=503)
            answers.append(answered)
            if answered is None or answered.get("alert"):
                break  # not answered yet, or refused: the presses after it would not stand
        body = {"answers": [a for a in answers if a is not None],
                "pending": not answers or answers[-1] is None}  # fmt: skip
        return JSONResponse(body, headers=_GUARDS)

    return [
        Route("/app/", index, methods=["GET"]),
        Route("/app/api/view", view, methods=["POST"]),
        Route("/app/api/tap", tap, methods=["POST"]),
        Route("/app/games/{game:str}.js", game_script, methods=["GET"]),
        Route("/app/{name:str}", static, methods=["GET"]),
    ]


def _text(value: bytes | str | None) -> str:
    return value.decode() if isinstance(value, bytes) else value or ""


async def _answer(client: aioredis.Redis, query_id: str) -> dict[str, Any] | None:
    """The workers' answer to a press, once it is there (None: not within `ANSWER_WAIT_S`)."""
    deadline = time.monotonic() + ANSWER_WAIT_S
    key = keys.app_answer(query_id)
    while True:
        raw = await client.get(key)
        if raw is not None:
            found = json.loads(raw)
            return found if isinstance(found, dict) else None
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(ANSWER_POLL_S)


# The app's answers are the user's own: no cache, no page framing them but Telegram's.
_GUARDS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}  # fmt: skip
