"""The workers' Bot API client (`workers.botapi`, python-telegram-bot's `BaseRequest` on
aiohttp): every exchange of the double's own suite with python-telegram-bot goes the same
through it, on connections kept open; and what a raw server, a proxy or a silent server make
of it."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from telegram import Bot, InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from tests.integration import test_standin
from tests.integration.test_pictures import PICTURE
from tests.integration.test_standin import *  # noqa: F403  (run again, through this client)
from tests.integration.test_standin import ALICE, GROUP, with_bot
from tgbot import pictures
from tgbot.standin import StandinServer
from workers.botapi import AiohttpRequest, WorkerBot

# The connections the clients of a test opened (see `opened`).
OPENED: list[str] = []


def traced(**options: Any) -> AiohttpRequest:
    """An `AiohttpRequest` whose new connections are counted in `OPENED`."""
    trace = aiohttp.TraceConfig()

    async def created(session: Any, context: Any, params: Any) -> None:
        OPENED.append("connection")

    trace.on_connection_create_end.append(created)
    return AiohttpRequest(session_kwargs={"trace_configs": [trace]}, **options)


class KeptBot(Bot):
    """A Bot whose calls go through `AiohttpRequest`."""

    def __init__(self, token: str, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("request", traced())
        super().__init__(token, *args, **kwargs)


@pytest.fixture(autouse=True)
def kept_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_standin, "Bot", KeptBot)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """The connections the client opens."""
    OPENED.clear()
    yield OPENED
    OPENED.clear()


def test_calls_share_one_connection(double: StandinServer, opened: list[str]) -> None:
    double.world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        await bot.send_message(GROUP, "message")
        await bot.get_chat(GROUP)
        await bot.edit_message_text("edited", chat_id=GROUP, message_id=1)

    with_bot(double, body)
    assert len(opened) == 1  # getMe's, and every call after it


@pytest.fixture
def scripted() -> Iterator[Any]:
    """A raw HTTP server: each request is answered by the next action of `actions`: bytes to
    send, (bytes, "close") to close the connection after answering, "hang" to answer nothing.
    It keeps each request's head and body (`requests`) and counts the connections
    (`connections`). With `lifetime` set, a request that comes on a connection opened that many
    seconds before or longer is not answered: the connection is closed instead."""
    server = SimpleNamespace(port=0, actions=[], requests=[], connections=0, lifetime=None)
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.connections += 1
        opened = time.monotonic()
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                body = await reader.readexactly(length)
                if server.lifetime is not None and time.monotonic() - opened >= server.lifetime:
                    writer.close()
                    return
                server.requests.append((head, body))
                action = server.actions.pop(0)
                if action == "hang":
                    await asyncio.sleep(30)
                    return
                answer, close = (action[0], True) if isinstance(action, tuple) else (action, False)
                writer.write(answer)
                await writer.drain()
                if close:
                    writer.close()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def start() -> None:
        listening = await asyncio.start_server(handle, "127.0.0.1", 0)
        server.port = listening.sockets[0].getsockname()[1]
        ready.set()

    def run() -> None:
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(5)
    yield server
    loop.call_soon_threadsafe(loop.stop)


def ok(body: bytes = b'{"ok":true,"result":true}', extra: str = "") -> bytes:
    return (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def chunked(body: bytes) -> bytes:
    middle = len(body) // 2
    parts = [body[:middle], body[middle:]]
    encoded = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts)
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + encoded + b"0\r\n\r\n")


def call(url: str, request: AiohttpRequest, data: RequestData | None = None,
         times: int = 1) -> list[tuple[int, bytes]]:  # fmt: skip
    async def main() -> list[tuple[int, bytes]]:
        async with request:
            return [await request.do_request(url, "POST", data) for _ in range(times)]

    return asyncio.run(main())


def endpoint(port: int) -> str:
    return f"http://127.0.0.1:{port}/bot1:x/sendMessage"


@pytest.mark.parametrize("max_age", [None, 0.4], ids=["kept for ever", "retired in time"])
def test_a_connection_is_retired_before_the_server_closes_it_for_its_age(
    scripted: Any, max_age: float | None
) -> None:
    # Telegram closes a connection some 39 s after it was opened, a call under way or not:
    # here 0.7 s, with a call every 0.1 s (none idle long enough to be seen closed first).
    scripted.lifetime = 0.7
    scripted.actions += [ok()] * 20
    request = AiohttpRequest(connection_max_age=max_age)

    async def main() -> list[str]:
        outcomes = []
        async with request:
            # 14 calls 0.1 s apart, then one after 0.8 s: its connection waited in the pool
            # past its age (it was young when its last call was answered).
            for pause in [0.1] * 13 + [0.8, 0]:
                try:
                    await request.do_request(endpoint(scripted.port), "POST")
                    outcomes.append("ok")
                except NetworkError:
                    outcomes.append("failed")
                await asyncio.sleep(pause)
        return outcomes

    outcomes = asyncio.run(main())
    if max_age is None:  # what the server does to a client that keeps its connection
        assert "failed" in outcomes
        return
    assert outcomes == ["ok"] * 15
    assert 4 <= scripted.connections <= 7  # kept for a few calls each, then a new one


def test_a_connection_the_server_closed_is_not_used_again(scripted: Any) -> None:
    scripted.actions += [(ok(), "close"), ok(), chunked(b'{"ok":true,"result":1}')]
    request = AiohttpRequest()

    async def main() -> list[tuple[int, bytes]]:
        async with request:
            first = await request.do_request(endpoint(scripted.port), "POST")
            await asyncio.sleep(0.2)  # the server's end of the connection arrives meanwhile
            return [first, await request.do_request(endpoint(scripted.port), "POST"),
                    await request.do_request(endpoint(scripted.port), "POST")]  # fmt: skip

    assert asyncio.run(main()) == [(200, b'{"ok":true,"result":true}')] * 2 + [
        (200, b'{"ok":true,"result":1}')]
    assert scripted.connections == 2  # the first one closed by the server, then one for both


def test_a_call_without_files_is_sent_as_json(scripted: Any) -> None:
    scripted.actions += [ok()]
    data = RequestData([RequestParameter.from_input("chat_id", 5),
                        RequestParameter.from_input("text", "hé")])  # fmt: skip
    call(endpoint(scripted.port), AiohttpRequest(), data)
    head, body = scripted.requests[0]
    assert b"content-type: application/json" in head.lower()
    assert b"user-agent: python-telegram-bot" in head.lower()
    assert body == b'{"chat_id": 5, "text": "h\\u00e9"}'


def test_an_upload_is_sent_as_multipart_form_data(scripted: Any) -> None:
    scripted.actions += [ok()]
    upload = InputFile(b"\x89PNG-bytes", filename="standings.png")
    data = RequestData([RequestParameter.from_input("chat_id", 5),
                        RequestParameter.from_input("caption", "Round 1"),
                        RequestParameter.from_input("photo", upload)])  # fmt: skip
    assert data.contains_files
    call(endpoint(scripted.port), AiohttpRequest(), data)
    head, body = scripted.requests[0]
    assert b"content-type: multipart/form-data; boundary=" in head.lower()
    assert b'name="chat_id"\r\n' in body and b"\r\n\r\n5\r\n" in body
    assert b"\r\n\r\nRound 1\r\n" in body
    assert b'filename="standings.png"' in body and b"\x89PNG-bytes" in body
    assert b"Content-Type: image/png" in body


def test_a_silent_server_times_out_and_a_dropped_one_is_a_network_error(scripted: Any) -> None:
    scripted.actions += ["hang"]
    with pytest.raises(TimedOut):
        call(endpoint(scripted.port), AiohttpRequest(read_timeout=0.3))
    with pytest.raises(NetworkError) as raised:
        call(endpoint(free_port()), AiohttpRequest())
    assert "aiohttp." in str(raised.value)


def free_port() -> int:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return int(closed.getsockname()[1])


def test_calls_go_through_the_proxy_the_environment_names(
    scripted: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted.actions += [ok()]  # the proxy answers itself
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{scripted.port}")
    assert call("http://api.telegram.invalid/bot1:x/getMe", AiohttpRequest()) == [
        (200, b'{"ok":true,"result":true}')]
    head, _ = scripted.requests[0]
    assert head.startswith(b"POST http://api.telegram.invalid/bot1:x/getMe HTTP/1.1\r\n")

    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{free_port()}")  # a proxy that is down
    with pytest.raises(NetworkError):
        call(endpoint(scripted.port), AiohttpRequest())
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")  # but not for what NO_PROXY names
    scripted.actions += [ok()]
    assert call(endpoint(scripted.port), AiohttpRequest())[0][0] == 200
    assert scripted.requests[-1][0].startswith(b"POST /bot1:x/sendMessage HTTP/1.1\r\n")

    monkeypatch.delenv("NO_PROXY")
    monkeypatch.delenv("HTTP_PROXY")  # ALL_PROXY when none is named for the scheme, and the
    monkeypatch.setenv("ALL_PROXY", f"http://bot:secret@127.0.0.1:{scripted.port}")  # login
    scripted.actions += [ok()]
    call("http://api.telegram.invalid/bot1:x/getMe", AiohttpRequest())
    head, _ = scripted.requests[-1]
    assert head.startswith(b"POST http://api.telegram.invalid/bot1:x/getMe HTTP/1.1\r\n")
    assert b"Proxy-Authorization: Basic Ym90OnNlY3JldA==" in head


def test_a_request_is_used_between_initialize_and_shutdown(scripted: Any) -> None:
    scripted.actions += [ok(), ok()]
    request = AiohttpRequest()

    async def main() -> None:
        with pytest.raises(RuntimeError):
            await request.do_request(endpoint(scripted.port), "POST")
        await request.initialize()
        await request.do_request(endpoint(scripted.port), "POST")
        await request.shutdown()
        await request.shutdown()  # twice is harmless
        with pytest.raises(RuntimeError):
            await request.do_request(endpoint(scripted.port), "POST")
        await request.initialize()  # and it opens again
        await request.do_request(endpoint(scripted.port), "POST")
        await request.shutdown()

    asyncio.run(main())
    assert len(scripted.requests) == 2


def test_the_workers_bot_reads_a_text_messages_id_alone_and_a_photo_whole(
    double: StandinServer,
) -> None:
    double.world.bot_added(GROUP, ALICE)
    png = pictures.render(PICTURE, "en")

    async def body() -> None:
        async with WorkerBot(double.token, base_url=double.api_base,
                             request=AiohttpRequest()) as bot:  # fmt: skip
            sent = await bot.send_message(GROUP, "<b>Round 1</b>", parse_mode="HTML")
            assert sent.message_id == 1 and sent.chat.id == GROUP and sent.text is None
            edited = await bot.edit_message_text("again", chat_id=GROUP, message_id=1)
            assert not isinstance(edited, bool) and edited.message_id == 1
            photo = await bot.send_photo(GROUP, png, caption="standings")
            assert photo.photo and photo.photo[-1].file_id and photo.caption == "standings"

    asyncio.run(body())
    assert [m.text or m.caption for m in double.world.bot_messages(GROUP)] == [
        "again", "standings"]
