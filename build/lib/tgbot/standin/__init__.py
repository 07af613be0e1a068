"""A Telegram Bot API double: a recorded in-memory world served over HTTP."""

from tgbot.standin.botapi import METHODS, call, canonical_method, normalize_params
from tgbot.standin.delivery import SECRET_HEADER, Delivery, adeliver, deliver
from tgbot.standin.errors import ApiError
from tgbot.standin.htmltext import parse_html, utf16_len
from tgbot.standin.ratelimit import ManualClock, RateLimiter, RateLimits
from tgbot.standin.records import (
    ApiCall,
    CallbackAnswer,
    CallbackQueryRecord,
    Chat,
    InjectedFailure,
    MessageRecord,
    RateLimitHit,
    User,
    WebhookSettings,
)
from tgbot.standin.server import (
    ServedApp,
    StandinServer,
    create_app,
    run_double,
    serve_app,
)
from tgbot.standin.world import DEFAULT_TOKEN, World, update_allowed, update_kind

__all__ = [
    "DEFAULT_TOKEN",
    "METHODS",
    "SECRET_HEADER",
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "Chat",
    "Delivery",
    "InjectedFailure",
    "ManualClock",
    "MessageRecord",
    "RateLimitHit",
    "RateLimiter",
    "RateLimits",
    "ServedApp",
    "StandinServer",
    "User",
    "WebhookSettings",
    "World",
    "adeliver",
    "call",
    "canonical_method",
    "create_app",
    "deliver",
    "normalize_params",
    "parse_html",
    "run_double",
    "serve_app",
    "update_allowed",
    "update_kind",
    "utf16_len",
]
