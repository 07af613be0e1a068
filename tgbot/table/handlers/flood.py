"""The flood guard: a player who sends more than 5 commands that change or post things within
10 seconds in a group is ignored there for a minute (told once); /leave, /stop and /skip are
never ignored. Commands that only read (/help, /rules, /score, /stats, /top) do not count:
their answers are queued once per wait already; they are ignored while the player is."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from engine.store import keys
from tgbot.i18n import _
from tgbot.table.handlers.common import Context, reply, service
from tgbot.table.render import user_text

WINDOW_S = 10
MOST_COMMANDS = 5
IGNORED_S = 60
NEVER_IGNORED = frozenset({"leave", "stop", "skip"})
READ_ONLY = frozenset({"help", "rules", "score", "stats", "top", "start"})
"""Commands that change nothing and whose answer is not queued twice while it waits (/start
in a group is /help)."""

# KEYS: the player's recent commands (sorted set), the "ignored" marker. ARGV: window, most,
# ignored seconds, the update id (one entry per update: an update handled twice counts once),
# whether the command counts (1) or only minds the marker (0). Returns 0 to go on, 1 while
# ignored, 2 when the player starts being ignored. Redis's clock, the same for every worker.
_FLOOD = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
if ARGV[5] == '0' then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
redis.call('EXPIRE', KEYS[1], ARGV[1])
if redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  return 2
end
return 0
"""


def command_of(text: str) -> str | None:
    """The command a message starts with (`/help@bot args` → `help`), or None."""
    if not text.startswith("/"):
        return None
    return text[1:].split(maxsplit=1)[0].partition("@")[0].lower() if len(text) > 1 else ""


async def flood_guard(update: Update, context: Context) -> None:
    """Run before every handler: stop a group command from a player who floods the group."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None or chat.type == "private":
        return
    command = command_of(message.text or "")
    if command is None or command in NEVER_IGNORED:
        return
    verdict = await asyncio.to_thread(
        service(context).lua(_FLOOD),
        keys=[keys.flood(chat.id, user.id), keys.muted(chat.id, user.id)],
        args=[WINDOW_S, MOST_COMMANDS, IGNORED_S, update.update_id,
              int(command not in READ_ONLY)],
    )
    if verdict == 0:
        return
    if verdict == 2:
        name = user_text(user.full_name or str(user.id), 32)
        await reply(
            update,
            context,
            _("{name}, that is a lot of commands: I ignore yours here for a minute "
              "(/leave, /stop and /skip still work).").format(name=name),  # fmt: skip
        )
    raise ApplicationHandlerStop
