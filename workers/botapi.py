"""The workers' HTTP client for the Bot API: HTTP/1.1 POSTs on connections kept open.

python-telegram-bot's own client (httpx, on httpcore, h11 and anyio) spends more of a worker's
CPU on one Bot API call than the rest of that message's delivery: the layers of a general
client (its URL, header and timeout models, the state machine of every connection, the async
library detection) for what is always the same exchange. This one speaks only that exchange:

- a POST of the call's parameters: JSON (which the Bot API takes for every call without a
  file), or multipart/form-data with the files (a picture's upload), each field as
  python-telegram-bot encodes it;
- its answer, whose body comes with a Content-Length or chunked;
- over connections kept open between calls (HTTPS with the system's certificates), one per
  call in flight. A connection the server closed while it was idle is noticed before it is
  used (as httpx does: it polls the socket), so a call is never sent on a dead connection;
  one that fails once sent is not sent again (the caller's retry decides, as with httpx).

`WorkerBot` is the Bot the workers deliver with: the answer to a message sent or edited as text
is read for its id alone (`tgbot.egress.delivery`), so it builds that answer's `Message` from
its id, date and chat, and not the whole message back (its text, entities, keyboard and
sender, a tree of objects per call).

Timeouts are python-telegram-bot's four (connect, write, read, and pool: which waits for
nothing here, a new connection being opened when none is idle). A timeout raises `TimedOut`, any
other failure of the exchange `NetworkError`, as python-telegram-bot's own client does.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import select
import ssl
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.ext import ExtBot
from telegram.request import BaseRequest, RequestData

Key = tuple[str, str, int]  # scheme, host, port
Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]

MAX_IDLE = 8  # connections kept open per server
MAX_HEAD = 64 * 1024
# Calls whose answer (the message) is read for its id alone: a picture's (sendPhoto,
# editMessageMedia) is read for its file ids too, and comes whole.
ID_ONLY = frozenset({"sendMessage", "editMessageText", "editMessageCaption"})


class WorkerBot(ExtBot[Any]):
    """The workers' Bot: the message Telegram answers a text sent or edited with comes back
    with its id, date and chat only (see the module docstring); any other answer whole."""

    async def _post(
        self,
        endpoint: str,
        data: JSONDict | None = None,
        *,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
        api_kwargs: JSONDict | None = None,
    ) -> Any:
        result = await super()._post(
            endpoint, data, read_timeout=read_timeout, write_timeout=write_timeout,
            connect_timeout=connect_timeout, pool_timeout=pool_timeout, api_kwargs=api_kwargs,
        )  # fmt: skip
        if endpoint in ID_ONLY and isinstance(result, dict) and "message_id" in result:
            chat = result.get("chat")
            if isinstance(chat, dict):
                return {"message_id": result["message_id"], "date": result.get("date", 0),
                        "chat": {"id": chat.get("id"), "type": chat.get("type")}}  # fmt: skip
        return result


class KeepAliveRequest(BaseRequest):
    """A `BaseRequest` for python-telegram-bot's `Bot`; see the module docstring."""

    def __init__(self, connect_timeout: float = 3.0, read_timeout: float = 5.0,
                 write_timeout: float = 5.0, media_write_timeout: float = 20.0
                 ) -> None:  # fmt: skip
        self._connect_timeout = connect_timeout
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._media_write_timeout = media_write_timeout
        self._idle: dict[Key, list[Stream]] = {}
        self._tls: ssl.SSLContext | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        """Nothing to open ahead: connections open with the first call."""

    async def shutdown(self) -> None:
        """Close every idle connection."""
        idle, self._idle = self._idle, {}
        for streams in idle.values():
            for _, writer in streams:
                writer.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """See `BaseRequest.do_request`."""
        parts = urlsplit(url)
        scheme = parts.scheme or "http"
        host = parts.hostname or ""
        port = parts.port or (443 if scheme == "https" else 80)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        files = request_data is not None and request_data.contains_files
        body, content_type = _body(request_data)
        head = (f"{method} {target} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                f"User-Agent: {self.USER_AGENT}\r\nAccept-Encoding: identity\r\n")  # fmt: skip
        if body or method == "POST":
            head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        request = (head + "\r\n").encode("latin-1") + body
        reading = _seconds(read_timeout, self._read_timeout)
        writing = _seconds(write_timeout, self._media_write_timeout if files
                           else self._write_timeout)  # fmt: skip
        key = (scheme, host, port)
        stream = self._take(key) or await self._open(
            key, _seconds(connect_timeout, self._connect_timeout)
        )
        reader, writer = stream
        try:
            writer.write(request)
            await asyncio.wait_for(writer.drain(), writing)
            status, content, keep = await asyncio.wait_for(_answer(reader), reading)
        except TimeoutError as error:
            writer.close()
            raise TimedOut from error
        except (OSError, EOFError, ValueError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError) as error:  # fmt: skip
            writer.close()
            raise NetworkError(f"{type(error).__name__}: {error}") from error
        except BaseException:
            writer.close()
            raise
        if keep and len(self._idle.setdefault(key, [])) < MAX_IDLE:
            self._idle[key].append(stream)
        else:
            writer.close()
        return status, content

    def _take(self, key: Key) -> Stream | None:
        """An idle connection to the server that is still open, if any."""
        idle = self._idle.get(key)
        while idle:
            stream = idle.pop()
            if _usable(stream):
                return stream
            stream[1].close()
        return None

    async def _open(self, key: Key, timeout: float | None) -> Stream:
        scheme, host, port = key
        tls: ssl.SSLContext | None = None
        if scheme == "https":
            if self._tls is None:
                self._tls = ssl.create_default_context()
            tls = self._tls
        try:
            return await asyncio.wait_for(
                asyncio.open_connection(host, port, ssl=tls, limit=MAX_HEAD), timeout
            )
        except TimeoutError as error:
            raise TimedOut("connect timed out") from error
        except OSError as error:
            raise NetworkError(f"{type(error).__name__}: {error}") from error


def _seconds(given: ODVInput[float], default: float) -> float | None:
    return default if isinstance(given, DefaultValue) else given


def _usable(stream: Stream) -> bool:
    """Whether an idle connection is still open: nothing to read on it (a server that closed
    it has sent its end), and its transport not closing."""
    reader, writer = stream
    if writer.is_closing() or reader.at_eof() or len(getattr(reader, "_buffer", b"")):
        return False
    sock = writer.get_extra_info("socket")
    if sock is None:
        return False
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    return not poller.poll(0)


def _body(request_data: RequestData | None) -> tuple[bytes, str]:
    """The POST body and its content type: the parameters as JSON, or multipart/form-data with
    the files (fields encoded as python-telegram-bot encodes them for a form)."""
    if request_data is None:
        return b"", "application/json"
    if not request_data.contains_files:
        return json.dumps(request_data.parameters).encode(), "application/json"
    boundary = secrets.token_hex(16)
    return _multipart(boundary, request_data.json_parameters.items(),
                      request_data.multipart_data.items()), \
        f"multipart/form-data; boundary={boundary}"  # fmt: skip


def _multipart(boundary: str, fields: Iterable[tuple[str, str]],
               files: Iterable[tuple[str, object]]) -> bytes:  # fmt: skip
    chunks: list[bytes] = []
    for name, value in fields:
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                      .encode() + value.encode() + b"\r\n")  # fmt: skip
    for name, upload in files:
        if isinstance(upload, tuple):
            filename, content, mimetype = (*upload, "application/octet-stream")[:3]
        else:
            filename, content, mimetype = name, upload, "application/octet-stream"
        data = content.read() if hasattr(content, "read") else content
        if isinstance(data, str):
            data = data.encode()
        assert isinstance(data, bytes)
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                      f'filename="{filename}"\r\nContent-Type: {mimetype}\r\n\r\n'.encode()
                      + data + b"\r\n")  # fmt: skip
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks)


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    """Read one answer: its status, body, and whether the connection may be used again."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    status = int(rest.split(" ", 1)[0])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    keep = version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
    if "chunked" in headers.get("transfer-encoding", "").lower():
        content = await _chunks(reader)
    elif "content-length" in headers:
        content = await reader.readexactly(int(headers["content-length"]))
    elif status in (204, 304) or 100 <= status < 200:
        content = b""
    else:  # the body runs to the end of the connection
        content, keep = await reader.read(), False
    return status, content, keep


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                pass
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)
