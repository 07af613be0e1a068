"""The workers' Bot API client: python-telegram-bot's `BaseRequest` on aiohttp.

python-telegram-bot's own client (httpx, on httpcore, h11 and anyio) spends more of a worker's
CPU on one Bot API call than the rest of that message's delivery. aiohttp does the same
exchange for a fraction of it (its HTTP parser is in C), and is a client made for the job:

- one `ClientSession` per request object, opened by `initialize` and closed by `shutdown`,
  whose connector keeps connections open between calls (a few per server: a worker makes one
  call at a time). A connection the server closed while idle is not used again, and a POST that
  fails once sent is not sent again (the caller's retry decides, as with httpx);
- a connection is used for `connection_max_age` seconds from its opening at most (30), then
  closed once its call is answered (or when its turn comes, if it waits in the pool). Telegram
  has been seen to close a kept connection about 39 s after it was opened, busy or not (a
  report of 2026-08, with a script that shows it): a call under way on it then fails, and one
  whose request had reached Telegram would be sent again by the caller's retry. aiohttp's
  connector knows no such age (its keep-alive timeout counts idle time only): `AgingConnector`;
- the proxy the environment names for the URL's scheme (`HTTPS_PROXY`, `HTTP_PROXY`, else
  `ALL_PROXY`, as httpx reads them; credentials in its URL; none for the hosts of `NO_PROXY`),
  read with the standard library's `urllib.request.getproxies` and `proxy_bypass`, once per
  session and server. aiohttp's own `trust_env` reads them again on every call, the `.netrc`
  file too, each through the loop's executor: about 300 µs of CPU per call, as much as the
  rest of the call. An HTTP or HTTPS proxy; a SOCKS one is not taken (a warning says so);
- a call without a file is sent as JSON (which the Bot API takes for every such call), one
  with files (a picture's upload) as multipart/form-data, the fields encoded as
  python-telegram-bot encodes them for a form.

Timeouts are python-telegram-bot's four: `connect` bounds opening a connection
(`sock_connect`), `pool` plus `connect` getting one from the pool or opening it (`connect`),
`read` the wait for each part of the answer (`sock_read`). aiohttp has no timeout of its own
for sending, so `write` bounds it within the whole exchange: `total`, the four added up. A
timeout raises `TimedOut`, any other failure of the exchange `NetworkError`, as
python-telegram-bot's httpx client does.

`WorkerBot` is the Bot the workers deliver with: the answer to a message sent or edited as text
is read for its id alone (`tgbot.egress.delivery`), so it builds that answer's `Message` from
its id, date and chat, and not the whole message back (its text, entities, keyboard and
sender, a tree of objects per call).
"""

from __future__ import annotations

import base64
import json
import logging
import urllib.request
import weakref
from time import monotonic
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.ext import ExtBot
from telegram.request import BaseRequest, RequestData
from yarl import URL

log = logging.getLogger(__name__)

# Calls whose answer (the message) is read for its id alone: a picture's (sendPhoto,
# editMessageMedia) is read for its file ids too, and comes whole.
ID_ONLY = frozenset({"sendMessage", "editMessageText", "editMessageCaption"})
JSON = {"Content-Type": "application/json"}
# A proxy's URL, and the headers it takes (its login: on the CONNECT of an HTTPS server, or on
# the call itself to an HTTP one).
Proxy = tuple[URL | None, dict[str, str] | None]


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


class AgingConnector(aiohttp.TCPConnector):
    """A `TCPConnector` that uses a connection for `max_age` seconds from its opening at most
    (None: for ever): an older one is closed when its call is over, or when it is taken from
    the pool (a call never starts on it)."""

    def __init__(self, *args: Any, max_age: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._max_age = max_age
        self._opened: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()

    def _too_old(self, protocol: Any) -> bool:
        opened = self._opened.get(protocol)
        return (self._max_age is not None and opened is not None
                and monotonic() - opened >= self._max_age)  # fmt: skip

    async def _create_connection(self, req: Any, traces: Any, timeout: Any) -> Any:
        protocol = await super()._create_connection(req, traces, timeout)
        self._opened[protocol] = monotonic()
        return protocol

    def _release(self, key: Any, protocol: Any, *, should_close: bool = False) -> None:
        super()._release(key, protocol, should_close=should_close or self._too_old(protocol))

    async def _get(self, key: Any, traces: Any) -> Any:
        kept = self._conns.get(key)
        for entry in [e for e in kept or () if self._too_old(e[0])]:
            kept.remove(entry)  # type: ignore[union-attr]
            super()._release(key, entry[0], should_close=True)  # closed as aiohttp closes one
        if kept is not None and not kept:
            del self._conns[key]
        return await super()._get(key, traces)


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` for python-telegram-bot's `Bot` on aiohttp; see the module docstring.

    `session_kwargs` go to the `aiohttp.ClientSession` as they are, over this class's own
    (as `HTTPXRequest`'s `httpx_kwargs` do)."""

    def __init__(
        self,
        connection_pool_size: int = 8,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        keepalive_timeout: float = 30.0,
        session_kwargs: dict[str, Any] | None = None,
        connection_max_age: float | None = 30.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._keepalive_timeout = keepalive_timeout
        self._max_age = connection_max_age
        self._session_kwargs = session_kwargs or {}
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], Proxy] = {}

    @property
    def read_timeout(self) -> float | None:
        """See `BaseRequest.read_timeout`."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (on the running event loop), unless it is open."""
        if self._session is None or self._session.closed:
            options: dict[str, Any] = {
                "connector": AgingConnector(
                    limit=self._pool_size, keepalive_timeout=self._keepalive_timeout,
                    max_age=self._max_age,
                ),
                "headers": {"User-Agent": self.USER_AGENT},
                "timeout": _timeout(self._connect_timeout, self._pool_timeout,
                                    self._write_timeout, self._read_timeout),  # fmt: skip
                **self._session_kwargs,
            }
            self._session = aiohttp.ClientSession(**options)
            self._proxies = {}

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        session, self._session = self._session, None
        if session is None or session.closed:
            log.debug("This AiohttpRequest is already shut down. Returning.")
            return
        await session.close()

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
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        timeout = _timeout(
            _given(connect_timeout, self._connect_timeout),
            _given(pool_timeout, self._pool_timeout),
            _given(write_timeout, self._media_write_timeout if files else self._write_timeout),
            _given(read_timeout, self._read_timeout),
        )
        parts = urlsplit(url)
        origin = (parts.scheme, parts.hostname or "")
        proxy = self._proxies.get(origin)
        if proxy is None:
            proxy = self._proxies[origin] = _environment_proxy(*origin)
        data: bytes | aiohttp.FormData | None = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if files:
                data = _form(request_data)
            else:
                data, headers = json.dumps(request_data.parameters).encode(), JSON
        if proxy[1] and origin[0] == "http":  # sent to the proxy with the call itself
            headers = {**(headers or {}), **proxy[1]}
        try:
            async with session.request(
                method, url, data=data, headers=headers, timeout=timeout,
                proxy=proxy[0], proxy_headers=proxy[1],
            ) as response:  # fmt: skip
                return response.status, await response.read()
        except TimeoutError as error:  # aiohttp's own timeouts are TimeoutErrors too
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error


def _environment_proxy(scheme: str, host: str) -> Proxy:
    """The proxy the environment names for a server (see the module docstring)."""
    if host and urllib.request.proxy_bypass(host):
        return None, None
    proxies = urllib.request.getproxies()
    named = proxies.get(scheme) or proxies.get("all")
    if not named:
        return None, None
    proxy = URL(named if "://" in named else f"http://{named}")
    if proxy.scheme not in ("http", "https"):
        log.warning("the environment's %s proxy is not an HTTP proxy: not used", proxy.scheme)
        return None, None
    if proxy.user is None:
        return proxy, None
    login = f"{proxy.user}:{proxy.password or ''}".encode()
    return proxy.with_user(None), {
        "Proxy-Authorization": "Basic " + base64.b64encode(login).decode()
    }


def _given(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value


def _timeout(connect: float | None, pool: float | None, write: float | None,
             read: float | None) -> aiohttp.ClientTimeout:  # fmt: skip
    """python-telegram-bot's four timeouts as aiohttp's (see the module docstring)."""
    given = (connect, pool, write, read)
    total = None if None in given else sum(t for t in given if t is not None)
    return aiohttp.ClientTimeout(
        total=total,
        connect=None if connect is None or pool is None else connect + pool,
        sock_connect=connect,
        sock_read=read,
    )


def _form(request_data: RequestData) -> aiohttp.FormData:
    """A call with files as multipart/form-data: its parameters JSON encoded as
    python-telegram-bot encodes them for a form, then each file with its name and type."""
    form = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename,
                       content_type=mimetype or "application/octet-stream")  # fmt: skip
    return form
