"""Who is spoken to in which language, per handled update; /language and its buttons.

A group's messages speak the group's language: the one its lobby chose, remembered for the
group; before any, the language of whoever added the bot or opened the first lobby. A player's
private messages and the answers to their presses speak the player's: their /language choice,
else their Telegram `language_code`, else their game's group's (SPEC section 10).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import redis
from telegram import CallbackQuery, Update

from engine.commands import ChangeSettings, ChooseLanguage
from engine.errors import ErrorCode, RuleError
from engine.model import Phase
from engine.roomid import RoomId
from engine.store import LANGUAGE_TTL, CorruptRoom, keys
from engine.store.scripts import script
from tgbot import i18n
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import _, texts
from tgbot.table.handlers.common import (
    Context,
    answer,
    command_in_group,
    is_admin,
    remember_group_language,
    reply,
    room_of,
    run,
    service,
    settings_done,
)
from tgbot.table.service import Service


@dataclass(frozen=True)
class Speakers:
    """The languages of one update."""

    chat: str
    """What the chat the update came from is told (a group's language, or the player's)."""
    user: str
    """What the acting player is told in private and in answers to their presses."""
    own: str | None
    """The player's own language, if they have one we speak (None: their group's)."""


_SPEAKERS: ContextVar[Speakers | None] = ContextVar("speakers", default=None)


def speakers() -> Speakers:
    """The languages of the update being handled (English outside of one)."""
    found = _SPEAKERS.get()
    return found if found is not None else Speakers(i18n.DEFAULT, i18n.DEFAULT, None)


def _text(value: object) -> str | None:
    return value.decode() if isinstance(value, bytes) else None


# What `read` needs, in one round trip. In a group (ARGV[1] = "1"): the player's chosen
# language, the group's, whether the group has a room. In a private chat: the player's chosen
# language and, when they have none and no Telegram language (ARGV[2] = "1"), the language of
# the group of the game they are seated in: its key is ARGV[3] .. chat .. ARGV[4], the chat
# read from their seat (a room written `<chat>` or `<chat>_<topic>`, `engine.roomid`). A key
# named by the script rather than in KEYS: the bot runs on one Redis (or Sentinel), no cluster.
_READ = """
local chosen = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  return {chosen, redis.call('GET', KEYS[2]), redis.call('EXISTS', KEYS[3])}
end
if ARGV[2] ~= '1' then return {chosen} end
local seated = redis.call('GET', KEYS[4])
if not seated then return {chosen} end
local chat = string.match(seated, '^(-?%d+)')
if not chat then return {chosen} end
return {chosen, redis.call('GET', ARGV[3] .. chat .. ARGV[4]), 0}
"""
_PLACEHOLDER = "\x00"


def read(client: redis.Redis, update: Update) -> Speakers:
    """Look up the languages of an update, in one round trip."""
    chat, user = update.effective_chat, update.effective_user
    group_chat = chat.id if chat is not None and chat.type != "private" else None
    told = i18n.supported(user.language_code if user else None)
    before, _, after = keys.group_language(_PLACEHOLDER).partition(_PLACEHOLDER)  # type: ignore[arg-type]
    found = script(client, _READ)(
        keys=[keys.user_language(user.id) if user is not None else "-",
              keys.group_language(group_chat) if group_chat is not None else "-",
              keys.room(group_chat) if group_chat is not None else "-",
              keys.player(user.id) if user is not None else "-"],
        args=[int(group_chat is not None), int(told is None), before, after],
    )  # fmt: skip
    chosen, group = found[0], found[1] if len(found) > 1 else None
    own = i18n.supported(_text(chosen)) or told
    if group_chat is not None:
        # A group that played before languages existed played in English.
        group_language = i18n.pick(_text(group), "en" if found[2] else own)
        return Speakers(chat=group_language, user=own or group_language, own=own)
    if own is None and len(found) > 1:  # seated: their game's group's language
        fallback = i18n.supported(_text(group)) or i18n.DEFAULT
        return Speakers(chat=fallback, user=fallback, own=None)
    language = own or i18n.DEFAULT
    return Speakers(chat=language, user=language, own=own)


@contextmanager
def speaking(found: Speakers) -> Iterator[None]:
    """Handle an update speaking its chat's language, knowing its player's."""
    token = _SPEAKERS.set(found)
    try:
        with i18n.use(found.chat):
            yield
    finally:
        _SPEAKERS.reset(token)


def named(text: str) -> str | None:
    """The language a player named: a code (`it`, `pt-BR`) or its own name (`italiano`)."""
    wanted = text.strip().lower()
    for code, name in i18n.LANGUAGES.items():
        if wanted == name.lower() or wanted == name.split(" ")[0].lower():
            return code
    return i18n.supported(wanted)


def _choices(svc: Service, current: str) -> Outgoing:
    """The language keyboard of the private chat."""
    rows = [
        [
            svc.look.button(("✅ " if code == current else "") + name, "lang", index)
            for index, (code, name) in list(enumerate(i18n.LANGUAGES.items()))[row : row + 2]
        ]
        for row in range(0, len(i18n.LANGUAGES), 2)
    ]
    text = _("I write to you in {language}. Choose another language:").format(
        language=texts.LANGUAGE_NAMES[current]
    )
    return Outgoing(chat_id=0, key="language", text=text, buttons=rows)


async def choose(svc: Service, update: Update, user_id: int, language: str) -> str:
    """Remember a player's language, and speak it in their running game's private messages
    from now on. Returns the confirmation, in that language."""
    await asyncio.to_thread(
        svc.redis.set, keys.user_language(user_id), language, ex=LANGUAGE_TTL
    )
    where = await asyncio.to_thread(svc.store.room_of_player, user_id)
    if where is not None:
        with contextlib.suppress(RuleError):  # chosen already, or the seat is gone
            await run(svc, where, ChooseLanguage(user_id=user_id, language=language), update)
    with i18n.use(language):
        return _("From now on I write to you in {language}.").format(
            language=texts.LANGUAGE_NAMES[language]
        )


async def on_language(update: Update, context: Context) -> None:
    """/language: in private, the player's language (a keyboard, or `/language it`); in a
    group, the group's language for its next game (a lobby setting: host or admin)."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    wanted = " ".join(context.args or [])
    language = named(wanted) if wanted else None
    if wanted and language is None:
        await reply(update, context, _("I do not speak that language. I speak: {names}.").format(
            names=", ".join(f"{name} ({code})" for code, name in i18n.LANGUAGES.items())))
        return
    if chat.type == "private":
        if language is None:
            # At the bottom of the chat; an earlier keyboard points to it.
            choices = _choices(svc, speakers().user).model_copy(
                update={"chat_id": chat.id, "fresh": True}
            )
            await asyncio.to_thread(svc.show, RoomId(chat.id), choices)
        else:
            await reply(update, context, await choose(svc, update, user.id, language))
        return
    if language is None:
        await reply(update, context, _(
            "This group's games speak {language}. The host or a group admin changes it with "
            "/language followed by a language (e.g. /language it) or the lobby's Settings; "
            "each of you can choose your own language for private messages with /language in "
            "a private chat with me."
        ).format(language=texts.LANGUAGE_NAMES[speakers().chat]))
        return
    await group_language(update, context, language)


async def group_language(update: Update, context: Context, language: str) -> None:
    """Change a group's language: the open lobby's setting, else the next game's."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    try:
        room = await asyncio.to_thread(svc.store.load, room_of(update))
    except CorruptRoom:
        room = None
    if room is not None and room.phase is Phase.LOBBY:
        command = ChangeSettings(user_id=user.id, changes={"language": language})
        await command_in_group(update, context, command,
                           lambda done: settings_done(done, service(context).lineup))
        return
    if (room is None or room.creator != user.id) and not await is_admin(update, context):
        await reply(update, context, texts.ERRORS[ErrorCode.NOT_ALLOWED])
        return
    await asyncio.to_thread(remember_group_language, svc, chat.id, language)
    with i18n.use(language):
        await reply(update, context, _("This group's next games speak {language}.").format(
            language=texts.LANGUAGE_NAMES[language]))


async def on_language_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A language of the private chat's language keyboard."""
    svc = service(context)
    codes = list(i18n.LANGUAGES)
    language = codes[args[0] % len(codes)]
    confirmation = await choose(svc, update, query.from_user.id, language)
    message = query.message
    if message is not None:
        with i18n.use(language):
            choices = _choices(svc, language)
        edited = choices.model_copy(update={"chat_id": message.chat.id, "text": confirmation})
        await asyncio.to_thread(svc.show, RoomId(message.chat.id), edited)
    await answer(query, confirmation)
