"""The play page: a Telegram-like view of the stand-in's world, served by the stand-in app.

The page is static HTML, CSS and JS under `static/`. It reads `GET /_standin/view` (a compact,
long-polled snapshot of the world) and acts only through the control API that any test uses:
`/_standin/users`, `/_standin/send`, `/_standin/press` and `/_standin/start` (and, for forum
groups, `/_standin/chats`, `/_standin/topics` and `/_standin/bot/added`).
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from tgbot.standin.records import MessageRecord
from tgbot.standin.world import World

STATIC = Path(__file__).parent / "static"
MAX_WAIT_SECONDS = 20.0
ANSWERS_KEPT = 200


def version(world: World) -> int:
    """A number that changes whenever the bot calls the API or a user acts (a forum topic
    opened or deleted included, which no update tells)."""
    topics = sum(len(c.topics) + (c.last_message_id << 8) for c in world.chats.values())
    return len(world.calls) + len(world.updates) + len(world.users) + len(world.chats) + topics


def _message(record: MessageRecord) -> dict[str, Any]:
    markup = record.reply_markup or {}
    return {
        "message_id": record.message_id,
        "from_user_id": record.from_user_id,
        "date": record.date,
        "text": record.plain_text,
        "entities": record.entities,
        "keyboard": markup.get("inline_keyboard") or [],
        "edit_date": record.edit_date,
        "edits": len(record.edits),
        "thread_id": record.thread_id,
        "topic_created": record.topic_created,
        # A photo's address: its unique id changes with the picture, so the page reloads it.
        "photo": f"/_standin/photo/{record.photo[-1]['file_unique_id']}" if record.photo else None,
    }


def view(world: World) -> dict[str, Any]:
    """What the page shows: users, chats with their live messages, recent callback answers."""
    with world.lock:
        answered = [q for q in world.callback_queries.values() if q.answer is not None]
        return {
            "version": version(world),
            "bot": world.bot.to_api(),
            "users": [
                {
                    "id": u.id,
                    "first_name": u.first_name,
                    "last_name": u.last_name,
                    "username": u.username,
                    "started": u.started_bot,
                }
                for u in world.users.values()
            ],
            "chats": [
                {
                    "id": c.id,
                    "type": c.type,
                    "title": c.title,
                    "bot_status": c.bot_status,
                    "is_forum": c.is_forum,
                    "topics": [{"id": k, "name": v} for k, v in c.topics.items()],
                    "messages": [_message(m) for m in c.messages if not m.deleted],
                }
                for c in world.chats.values()
            ],
            "commands": next(iter(world.commands.values()), []),
            "answers": [
                {
                    "id": q.id,
                    "user_id": q.user_id,
                    "text": q.answer.text if q.answer else None,
                    "show_alert": q.answer.show_alert if q.answer else False,
                    "url": q.answer.url if q.answer else None,
                }
                for q in answered[-ANSWERS_KEPT:]
            ],
        }


def page_routes(
    world: World, closing: threading.Event | None = None, max_wait: float = MAX_WAIT_SECONDS
) -> list[BaseRoute]:
    """Routes of the page: `/`, `/static/...` and the long-polled `/_standin/view`.

    A long poll ends early when `closing` is set, so that the server stops without waiting.
    """
    closing = closing or threading.Event()

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def live_view(request: Request) -> JSONResponse:
        try:
            since = int(request.query_params.get("since", "-1"))
        except ValueError:
            since = -1
        deadline = time.monotonic() + max_wait
        while version(world) == since and time.monotonic() < deadline:
            if closing.is_set():
                return JSONResponse({"error": "the stand-in is stopping"}, status_code=503)
            await asyncio.sleep(0.05)
        return JSONResponse(view(world), headers={"Cache-Control": "no-store"})

    async def photo(request: Request) -> Response:
        with world.lock:
            stored = world.uploads.get(request.path_params["unique"])
        if stored is None:
            return Response("no such photo", status_code=404)
        return Response(stored.content, media_type="image/png",
                        headers={"Cache-Control": "max-age=86400"})  # fmt: skip

    return [
        Route("/", index, methods=["GET"]),
        Route("/_standin/view", live_view, methods=["GET"]),
        Route("/_standin/photo/{unique}", photo, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
