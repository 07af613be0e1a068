"""HTTP face of the double: the Bot API and a JSON control API, servable in a thread."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal
from urllib.parse import quote

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from tgbot.standin.botapi import call, canonical_method, normalize_params
from tgbot.standin.delivery import Delivery, adeliver, deliver
from tgbot.standin.errors import ApiError
from tgbot.standin.miniapp import direct_link, launch
from tgbot.standin.page import page_routes
from tgbot.standin.world import World

MAX_POLL_SECONDS = 2.0
BOT_STATUSES = ("member", "administrator", "left", "kicked")
Lifespan = Literal["auto", "on", "off"]


async def _read_params(request: Request) -> dict[str, Any]:
    params: dict[str, Any] = dict(request.query_params)
    if request.method != "POST":
        return params
    content_type = request.headers.get("content-type", "")
    if "form" in content_type:
        form = await request.form()
        for key, value in form.multi_items():
            if isinstance(value, UploadFile):
                params[key] = {"filename": value.filename, "content": await value.read()}
                await value.close()
            else:
                params[key] = value
        return params
    body = await request.body()
    if body.strip():
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise ApiError(400, "Bad Request: can't parse JSON object") from exc
        if not isinstance(data, dict):
            raise ApiError(400, "Bad Request: parameters must be a JSON object")
        params.update(data)
    return params


async def _long_poll(world: World, params: dict[str, Any], cap: float) -> None:
    """Wait until getUpdates has something to return, the timeout passes or a webhook is set."""
    try:
        wanted = normalize_params(params)
    except ApiError:
        return
    timeout, offset = wanted.get("timeout"), wanted.get("offset")
    wait = min(float(timeout), cap) if isinstance(timeout, int) else 0.0
    deadline = time.monotonic() + wait
    offset = offset if isinstance(offset, int) else None
    while time.monotonic() < deadline and not world.webhook.url and not world.has_updates(offset):
        await asyncio.sleep(0.02)


def echo_page(request: Request, error: ApiError) -> HTMLResponse:
    """An error page as a proxy or web server sends it, echoing the request path as it was
    asked for and percent-encoded."""
    path = request.url.path
    body = (f"<html><body><h1>{error.error_code} {error.description}</h1>"
            f"<p>{path}</p><p>{quote(path, safe='')}</p></body></html>")  # fmt: skip
    return HTMLResponse(body, status_code=error.error_code)


def create_app(world: World, *, max_poll_seconds: float = MAX_POLL_SECONDS) -> Starlette:
    """Build the Starlette app serving `/bot{token}/{method}` and `/_standin/...`."""
    closing = threading.Event()

    async def bot_api(request: Request) -> JSONResponse:
        if request.path_params["token"] != world.token:
            return JSONResponse(ApiError(401, "Unauthorized").payload(), status_code=401)
        method = request.path_params["method"]
        try:
            params = await _read_params(request)
            held = world.take_hold(canonical_method(method) or method, params)
            if held is not None:
                held.reached.set()
                while not held.released.is_set():
                    await asyncio.sleep(0.01)
            if canonical_method(method) == "getUpdates":
                await _long_poll(world, params, max_poll_seconds)
            result = call(world, method, params)
        except ApiError as error:
            if error.page:
                return echo_page(request, error)
            return JSONResponse(error.payload(), status_code=error.error_code)
        return JSONResponse({"ok": True, "result": result})

    async def control_body(request: Request) -> dict[str, Any]:
        body = await request.body()
        data = json.loads(body) if body.strip() else {}
        if not isinstance(data, dict):
            raise ValueError("body must be a JSON object")
        return data

    def delivered(result: Delivery) -> JSONResponse:
        return JSONResponse({"update": result.update, "delivery": result.to_dict()})

    def failure(exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"{type(exc).__name__}: {exc}"}, status_code=400)

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(world.state())

    async def list_users(request: Request) -> JSONResponse:
        with world.lock:
            return JSONResponse({"users": [vars(u).copy() for u in world.users.values()]})

    async def create_user(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            language = body.get("language_code")  # "" clears it; absent or null: unchanged
            if language is not None and not isinstance(language, str):
                raise TypeError("language_code must be a string (empty: none)")
            language = language.strip() if language is not None else None
            with world.lock:
                user = world.add_user(
                    body.get("id") or body.get("user_id"),
                    body.get("first_name"),
                    body.get("last_name"),
                    body.get("username"),
                    language_code=language or None,
                    started=body.get("started"),
                    blocked=body.get("blocked"),
                )
                if language == "":
                    user.language_code = None
        except (ValueError, TypeError) as exc:
            return failure(exc)
        return JSONResponse(vars(user).copy())

    async def create_chat(request: Request) -> JSONResponse:
        """A chat; `bot_status` "left" makes it without the bot (add it with
        `/_standin/bot/added`, a real my_chat_member change), `creator_id` names its creator."""
        try:
            body = await control_body(request)
            forum = body.get("is_forum")
            status = str(body.get("bot_status") or "member")
            if status not in BOT_STATUSES:
                raise ValueError(f"bot_status must be one of {', '.join(BOT_STATUSES)}")
            with world.lock:
                chat = world.add_chat(int(body["chat_id"]), body.get("type") or (
                    "supergroup" if forum else None), body.get("title"), bot_status=status,
                    is_forum=bool(forum) if forum is not None else None)  # fmt: skip
                if body.get("creator_id") is not None:
                    world.set_admin(chat.id, int(body["creator_id"]), creator=True)
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"id": chat.id, "type": chat.type, "title": chat.title,
                             "is_forum": chat.is_forum})  # fmt: skip

    async def create_topic(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            user = body.get("user_id")
            thread = world.create_topic(int(body["chat_id"]), str(body["name"]),
                                        int(user) if user is not None else None)  # fmt: skip
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"message_thread_id": thread, "name": str(body["name"])})

    async def delete_topic(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            world.delete_topic(int(body["chat_id"]), int(body["message_thread_id"]))
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"deleted": True})

    async def send(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            thread = body.get("message_thread_id")
            update = world.user_message(
                int(body["user_id"]), int(body["chat_id"]), str(body["text"]),
                int(thread) if thread else None,
            )  # fmt: skip
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return delivered(await adeliver(world, update))

    async def press(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            update = world.press(
                int(body["user_id"]),
                int(body["chat_id"]),
                int(body["message_id"]),
                str(body["data"]),
                force=bool(body.get("force", False)),
            )
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return delivered(await adeliver(world, update))

    async def presses(request: Request) -> JSONResponse:
        """Callback queries for presses a load generator delivers itself (nothing is sent)."""
        try:
            body = await control_body(request)
            updates = [
                world.press_unseen(int(p["user_id"]), int(p["chat_id"]), str(p["data"]))
                for p in body["presses"]
            ]
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"updates": updates})

    async def start(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            update = world.start_private(int(body["user_id"]), body.get("payload"))
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return delivered(await adeliver(world, update))

    async def open_app(request: Request) -> JSONResponse:
        """A user opens a Mini App: a `web_app` button's address, or a direct link to one of
        the bot's apps. Answers the address the app opens at, `initData` and all."""
        try:
            body = await control_body(request)
            user = world.users[int(body["user_id"])]
            if "link" in body:
                found = direct_link(str(body["link"]), world.bot.username or "", world.apps)
                if found is None:
                    return JSONResponse({"ok": False, "description": "no such app"},
                                        status_code=404)  # fmt: skip
                url = launch(found[0], user, world.token, world.now(), start_param=found[1],
                             from_button=False)  # fmt: skip
            else:
                url = launch(str(body["url"]), user, world.token, world.now())
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"ok": True, "url": url})

    async def register_app(request: Request) -> JSONResponse:
        """BotFather's /newapp: the bot's app of this name opens this URL."""
        try:
            body = await control_body(request)
            world.apps[str(body["name"])] = str(body["url"])
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return JSONResponse({"ok": True})

    async def membership(request: Request) -> JSONResponse:
        try:
            body = await control_body(request)
            chat_id, user_id = int(body["chat_id"]), int(body["user_id"])
            if request.path_params["action"] == "added":
                update = world.bot_added(chat_id, user_id, chat_type=body.get("type"))
            else:
                update = world.bot_removed(chat_id, user_id, status=body.get("status", "left"))
        except (ValueError, TypeError, KeyError) as exc:
            return failure(exc)
        return delivered(await adeliver(world, update))

    routes = [
        Route("/bot{token}/{method}", bot_api, methods=["GET", "POST"]),
        Route("/_standin/state", state, methods=["GET"]),
        Route("/_standin/users", list_users, methods=["GET"]),
        Route("/_standin/users", create_user, methods=["POST"]),
        Route("/_standin/chats", create_chat, methods=["POST"]),
        Route("/_standin/topics", create_topic, methods=["POST"]),
        Route("/_standin/topics/delete", delete_topic, methods=["POST"]),
        Route("/_standin/send", send, methods=["POST"]),
        Route("/_standin/press", press, methods=["POST"]),
        Route("/_standin/presses", presses, methods=["POST"]),
        Route("/_standin/start", start, methods=["POST"]),
        Route("/_standin/bot/{action:str}", membership, methods=["POST"]),
        Route("/_standin/webapp", open_app, methods=["POST"]),
        Route("/_standin/apps", register_app, methods=["POST"]),
        *page_routes(world, closing),
    ]
    app = Starlette(routes=routes)
    app.state.closing = closing  # set when the server stops: the page's long polls end
    return app


KEEP_ALIVE_S = 75  # seconds an idle connection stays open (nginx's default)


class ServedApp:
    """An ASGI app served by uvicorn on 127.0.0.1 in a background thread."""

    def __init__(
        self, app: Any, host: str = "127.0.0.1", port: int = 0, lifespan: Lifespan = "off"
    ):
        # An explicit IPPROTO_TCP lets asyncio set TCP_NODELAY on accepted connections;
        # without it every response waits ~40 ms for a delayed ACK.
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self.host, self.port = self._sock.getsockname()[:2]
        self.url = f"http://{self.host}:{self.port}"
        # An idle connection is kept open longer than the workers' Bot API client keeps one
        # (`workers.botapi`, 30 s): with uvicorn's 5 s, a worker reusing a connection some 5 s
        # after its last call raced the server closing it, and lost its call to a network
        # error (`tests/e2e/test_crashes.py`: the room's next message 6 s late, not 3).
        config = uvicorn.Config(
            app, log_level="warning", lifespan=lifespan, access_log=False,
            timeout_graceful_shutdown=1, timeout_keep_alive=KEEP_ALIVE_S,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def start(self, timeout: float = 10.0) -> None:
        """Start serving and wait until the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn failed to start")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop serving and release the port."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()


@contextmanager
def serve_app(
    app: Any, host: str = "127.0.0.1", port: int = 0, lifespan: Lifespan = "off"
) -> Iterator[str]:
    """Serve any ASGI app in a background thread; yields its base url."""
    served = ServedApp(app, host, port, lifespan)
    served.start()
    try:
        yield served.url
    finally:
        served.stop()


class StandinServer(ServedApp):
    """A running double: `.url`, `.api_base` (for PTB's base_url), `.world`, delivery helpers."""

    def __init__(
        self,
        world: World | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        max_poll_seconds: float = MAX_POLL_SECONDS,
    ):
        self.world = world if world is not None else World()
        self.app = create_app(self.world, max_poll_seconds=max_poll_seconds)
        super().__init__(self.app, host, port)
        self.api_base = f"{self.url}/bot"

    @property
    def token(self) -> str:
        """The bot token the double accepts."""
        return self.world.token

    def stop(self) -> None:
        """End the page's long polls, then stop serving."""
        self.app.state.closing.set()
        super().stop()

    def deliver(self, update: dict[str, Any], timeout: float = 30.0) -> Delivery:
        """Deliver an update to the webhook (or the getUpdates queue) and wait."""
        return deliver(self.world, update, timeout)

    async def adeliver(self, update: dict[str, Any], timeout: float = 30.0) -> Delivery:
        """Async form of `deliver`."""
        return await adeliver(self.world, update, timeout)


@contextmanager
def run_double(world: World | None = None, **world_kwargs: Any) -> Iterator[StandinServer]:
    """Run the double in a background thread; `world_kwargs` build a World when none given."""
    if world is not None and world_kwargs:
        raise TypeError("pass either a World or World keyword arguments, not both")
    double = StandinServer(world if world is not None else World(**world_kwargs))
    double.start()
    try:
        yield double
    finally:
        double.stop()
