"""Handing built updates to the bot: POST to its webhook, or queue them for getUpdates.

Like Telegram, a webhook response whose body names a `method` has that method run ("making
requests when getting updates"); its outcome is not reported to anyone.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

import httpx

from tgbot.standin.botapi import call
from tgbot.standin.errors import ApiError
from tgbot.standin.world import World, update_allowed

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass
class Delivery:
    """Outcome of delivering one update.

    `via` is "webhook" (then `status` is the HTTP status, or None with `error` when the
    request failed), "queue" (waiting for getUpdates) or "dropped" (filtered out by
    allowed_updates).
    """

    update: dict[str, Any]
    via: str
    status: int | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """False only for a webhook POST that failed or got a non-2xx answer."""
        if self.via != "webhook":
            return True
        return self.status is not None and 200 <= self.status < 300

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (without the update)."""
        return {"via": self.via, "status": self.status, "error": self.error, "ok": self.ok}


def _route(world: World, update: dict[str, Any]) -> tuple[str, dict[str, str]] | Delivery:
    """Queue or drop the update, or return the webhook url and headers to POST it with."""
    with world.lock:
        hook = world.webhook
        allowed = hook.allowed_updates if hook.url else world.polling_allowed_updates
        if not update_allowed(update, allowed):
            return Delivery(update, "dropped")
        if not hook.url:
            world.enqueue(update)
            return Delivery(update, "queue")
        headers = {SECRET_HEADER: hook.secret_token} if hook.secret_token else {}
        return hook.url, headers


def _reply_method(world: World, response: httpx.Response) -> None:
    """Run the method a webhook response asks for, if any (JSON or form body)."""
    if not 200 <= response.status_code < 300 or not response.content:
        return
    kind = response.headers.get("content-type", "")
    params: dict[str, Any] = {}
    with contextlib.suppress(ValueError):
        if "json" in kind:
            loaded = json.loads(response.content)
            params = loaded if isinstance(loaded, dict) else {}
        elif "form" in kind:
            params = dict(httpx.QueryParams(response.text))
    method = params.pop("method", None)
    if isinstance(method, str):
        with contextlib.suppress(ApiError):
            call(world, method, params)


def _outcome(
    world: World, update: dict[str, Any], status: int | None, error: str | None
) -> Delivery:
    if status is not None and not 200 <= status < 300:
        error = f"Wrong response from the webhook: {status}"
    if error:
        with world.lock:
            world.webhook_last_error = (int(world.now()), error)
    return Delivery(update, "webhook", status, error)


def deliver(
    world: World, update: dict[str, Any], timeout: float = 30.0, url: str | None = None
) -> Delivery:
    """Deliver an update synchronously (blocks until the webhook answers).

    `url` posts to another address than the registered webhook's, with its secret: several
    web processes behind one public address, as a load balancer would spread them.
    """
    route = _route(world, update)
    if isinstance(route, Delivery):
        return route
    registered, headers = route
    url = url or registered
    try:
        response = httpx.post(url, json=update, headers=headers, timeout=timeout, trust_env=False)
    except httpx.HTTPError as exc:
        return _outcome(world, update, None, f"{type(exc).__name__}: {exc}")
    _reply_method(world, response)
    return _outcome(world, update, response.status_code, None)


async def adeliver(world: World, update: dict[str, Any], timeout: float = 30.0) -> Delivery:
    """Deliver an update from async code (awaits the webhook's answer)."""
    route = _route(world, update)
    if isinstance(route, Delivery):
        return route
    url, headers = route
    try:
        async with httpx.AsyncClient(timeout=timeout, trust_env=False) as client:
            response = await client.post(url, json=update, headers=headers)
    except httpx.HTTPError as exc:
        return _outcome(world, update, None, f"{type(exc).__name__}: {exc}")
    _reply_method(world, response)
    return _outcome(world, update, response.status_code, None)
