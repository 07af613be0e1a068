"""The workers' Bot API client (`workers.botapi`): every exchange of the double's own suite with
python-telegram-bot goes the same through it, on connections kept open."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from telegram import Bot
from telegram.error import NetworkError, TimedOut

from tests.integration import test_standin
from tests.integration.test_pictures import PICTURE
from tests.integration.test_standin import *  # noqa: F403  (run again, through this client)
from tests.integration.test_standin import ALICE, GROUP, with_bot
from tgbot import pictures
from tgbot.standin import StandinServer
from workers.botapi import KeepAliveRequest, WorkerBot


class KeptBot(Bot):
    """A Bot whose calls go through `KeepAliveRequest`."""

    def __init__(self, token: str, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("request", KeepAliveRequest())
        super().__init__(token, *args, **kwargs)


@pytest.fixture(autouse=True)
def kept_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_standin, "Bot", KeptBot)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The connections the client opens."""
    calls: list[tuple[str, int]] = []
    real = asyncio.open_connection

    async def counted(host: str, port: int, **options: Any) -> Any:
        calls.append((host, port))
        return await real(host, port, **options)

    monkeypatch.setattr(asyncio, "open_connection", counted)
    return calls


def test_calls_share_one_connection(double: StandinServer, opened: list[tuple[str, int]]
                                    ) -> None:  # fmt: skip
    double.world.bot_added(GROUP, ALICE)

    async def body(bot: Bot) -> None:
        await bot.send_message(GROUP, "message")
        await bot.get_chat(GROUP)
        await bot.edit_message_text("edited", chat_id=GROUP, message_id=1)

    with_bot(double, body)
    assert len(opened) == 1  # getMe's, and every call after it


@pytest.fixture
def scripted() -> Iterator[tuple[int, list[Any]]]:
    """A raw HTTP server: each request is answered by the next action of its list: bytes to
    send, "close" to close the connection after answering, "hang" to answer nothing."""
    actions: list[Any] = []
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                action = actions.pop(0)
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
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        holder["server"] = server
        holder["port"] = server.sockets[0].getsockname()[1]
        ready.set()

    def run() -> None:
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(5)
    yield holder["port"], actions
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


def call(port: int, request: KeepAliveRequest, times: int = 1) -> list[tuple[int, bytes]]:
    async def main() -> list[tuple[int, bytes]]:
        url = f"http://127.0.0.1:{port}/bot1:x/sendMessage"
        return [await request.do_request(url, "POST") for _ in range(times)]

    return asyncio.run(main())


def test_a_connection_the_server_closed_is_not_used_again(scripted, opened) -> None:
    port, actions = scripted
    actions += [(ok(), True), ok(), chunked(b'{"ok":true,"result":1}')]
    request = KeepAliveRequest()

    async def main() -> list[tuple[int, bytes]]:
        url = f"http://127.0.0.1:{port}/bot1:x/sendMessage"
        first = await request.do_request(url, "POST")
        await asyncio.sleep(0.2)  # the server's end of the connection arrives meanwhile
        return [first, await request.do_request(url, "POST"),
                await request.do_request(url, "POST")]

    assert asyncio.run(main()) == [(200, b'{"ok":true,"result":true}')] * 2 + [
        (200, b'{"ok":true,"result":1}')]
    assert len(opened) == 2  # the first one closed by the server, then one for both others


def test_a_silent_server_times_out_and_a_dropped_one_is_a_network_error(scripted) -> None:
    port, actions = scripted
    actions += ["hang"]
    with pytest.raises(TimedOut):
        call(port, KeepAliveRequest(read_timeout=0.3))
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        free = closed.getsockname()[1]
    with pytest.raises(NetworkError):
        call(free, KeepAliveRequest())


def test_the_workers_bot_reads_a_text_messages_id_alone_and_a_photo_whole(
    double: StandinServer,
) -> None:
    double.world.bot_added(GROUP, ALICE)
    png = pictures.render(PICTURE, "en")

    async def body() -> None:
        async with WorkerBot(double.token, base_url=double.api_base,
                             request=KeepAliveRequest()) as bot:  # fmt: skip
            sent = await bot.send_message(GROUP, "<b>Round 1</b>", parse_mode="HTML")
            assert sent.message_id == 1 and sent.chat.id == GROUP and sent.text is None
            edited = await bot.edit_message_text("again", chat_id=GROUP, message_id=1)
            assert not isinstance(edited, bool) and edited.message_id == 1
            photo = await bot.send_photo(GROUP, png, caption="standings")
            assert photo.photo and photo.photo[-1].file_id and photo.caption == "standings"

    asyncio.run(body())
    assert [m.text or m.caption for m in double.world.bot_messages(GROUP)] == [
        "again", "standings"]
