"""Telegram handlers: parse an update, build an engine command, run it, answer. Kept thin."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from telegram import CallbackQuery, ChatMember, Message, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from engine.commands import (
    ChangeSettings,
    ChooseCard,
    ComeBack,
    Command,
    GiveHint,
    Join,
    Leave,
    OpenLobby,
    PlayDecoy,
    Skip,
    StartGame,
    StopGame,
    Vote,
)
from engine.errors import ErrorCode, RuleError
from engine.events import PlayerJoined, VoteCast
from engine.model import Phase
from engine.settings import parse_changes
from engine.store import CorruptRoom, Outcome, StoreBusy
from tgbot import callback, render, texts
from tgbot.outgoing import Outgoing
from tgbot.render import DECK_NAMES, SETTING_ROWS
from tgbot.service import Service
from tgbot.texts import _

log = logging.getLogger(__name__)

ANONYMOUS_ADMIN = 1087968824
Context = ContextTypes.DEFAULT_TYPE


def service(context: Context) -> Service:
    """The service the composition root put in bot_data."""
    svc: Service = context.bot_data["service"]
    return svc


def display_name(update: Update) -> tuple[str, str | None]:
    """The acting user's display name and @username."""
    user = update.effective_user
    assert user is not None
    return user.full_name or str(user.id), user.username


def error_text(error: RuleError) -> str:
    """A rule error as a short answer."""
    return texts.ERRORS[error.code].format(detail=error.detail)


async def run(
    svc: Service, chat_id: int, command: Command, update: Update, **options: Any
) -> Outcome:
    """Run a command off the event loop (the store talks to Redis synchronously)."""
    return await asyncio.to_thread(svc.run, chat_id, command, update_id=update.update_id, **options)


async def is_admin(update: Update, context: Context) -> bool:
    """Whether the sender is an admin of the group (an anonymous admin writes as the group)."""
    chat, message, user = update.effective_chat, update.effective_message, update.effective_user
    assert chat is not None and user is not None
    if (
        message is not None
        and message.sender_chat is not None
        and message.sender_chat.id == chat.id
    ):
        return True
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


async def reply(update: Update, context: Context, text: str) -> None:
    """Answer a message in its chat, queued behind that chat's other messages."""
    chat = update.effective_chat
    assert chat is not None
    await asyncio.to_thread(service(context).show, chat.id, Outgoing(chat_id=chat.id, text=text))


async def attempt(
    update: Update, context: Context, chat_id: int, command: Command, **options: Any
) -> tuple[Outcome | None, str | None]:
    """Run a command; return its outcome, or the short answer explaining why not."""
    svc = service(context)
    try:
        return await run(svc, chat_id, command, update, **options), None
    except RuleError as error:
        if (
            error.code is ErrorCode.NOT_ALLOWED
            and hasattr(command, "is_admin")
            and await is_admin(update, context)
        ):
            return await attempt(
                update, context, chat_id, command.model_copy(update={"is_admin": True}), **options
            )
        return None, error_text(error)
    except CorruptRoom:
        log.exception("room %s is damaged", chat_id)
        return None, texts.DAMAGED
    except StoreBusy:
        log.warning("room %s is busy", chat_id)
        return None, texts.BUSY


async def command_in_group(update: Update, context: Context, command: Command) -> None:
    """Run a group command; only failures get an answer (success shows in the game's messages)."""
    chat = update.effective_chat
    assert chat is not None
    _outcome, problem = await attempt(update, context, chat.id, command)
    if problem:
        await reply(update, context, problem)


# -- group commands ---------------------------------------------------------------------------


async def on_newgame(update: Update, context: Context) -> None:
    """/newgame: open a lobby, or point to the one already here."""
    chat = update.effective_chat
    user = update.effective_user
    assert chat is not None and user is not None
    name, username = display_name(update)
    svc = service(context)
    command = OpenLobby(
        chat_id=chat.id,
        title=chat.title or "",
        user_id=user.id,
        name=name,
        username=username,
        seed=secrets.randbits(64),
        timer_scale=svc.timer_scale,
    )
    _outcome, problem = await attempt(update, context, chat.id, command)
    if problem:
        await reply(update, context, problem + " " + _("Scroll up to its latest message."))


async def on_settings(update: Update, context: Context) -> None:
    """/settings key=value …: change the lobby's settings."""
    user = update.effective_user
    assert user is not None
    try:
        changes = parse_changes(" ".join(context.args or []))
    except RuleError as error:
        await reply(
            update,
            context,
            error_text(error) + "\n" + _("Example: /settings rotations=3 hint=60 timers=off"),
        )
        return
    await command_in_group(update, context, ChangeSettings(user_id=user.id, changes=changes))


async def on_join_command(update: Update, context: Context) -> None:
    """/join: take a seat in the lobby, or late in a running game."""
    svc = service(context)
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if not await asyncio.to_thread(svc.has_started, user.id):
        await reply(
            update, context, texts.OPEN_PRIVATE_LINK.format(link=svc.look.link(f"j{chat.id}"))
        )
        return
    name, username = display_name(update)
    await command_in_group(update, context, Join(user_id=user.id, name=name, username=username))


async def on_leave(update: Update, context: Context) -> None:
    """/leave: leave the lobby or the game."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, Leave(user_id=user.id))


async def on_back(update: Update, context: Context) -> None:
    """/back: play again after sitting out."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, ComeBack(user_id=user.id))


async def on_skip(update: Update, context: Context) -> None:
    """/skip: apply the current phase's timeout rule once (creator or admin)."""
    user = update.effective_user
    assert user is not None
    await command_in_group(update, context, Skip(user_id=user.id))


async def on_stop(update: Update, context: Context) -> None:
    """/stop: ask for a confirmation before ending the game."""
    svc = service(context)
    chat = update.effective_chat
    assert chat is not None
    room = await asyncio.to_thread(svc.store.load, chat.id)
    if room is None or room.phase in (Phase.FINISHED, Phase.ABANDONED, Phase.CLOSED):
        await reply(update, context, texts.ERRORS[ErrorCode.NO_GAME])
        return
    look = svc.look
    confirm = Outgoing(
        chat_id=chat.id,
        key=f"stop:{room.version}",
        text=_("End this game now, without a winner?"),
        buttons=[
            [look.button(_("Yes, stop it"), "stop", 1), look.button(_("No, go on"), "stop", 0)]
        ],
    )
    await asyncio.to_thread(svc.show, chat.id, confirm)


async def on_score(update: Update, context: Context) -> None:
    """/score: standings of the current or last game, and the group's lifetime stats."""
    svc = service(context)
    chat = update.effective_chat
    assert chat is not None
    try:
        room = await asyncio.to_thread(svc.store.load, chat.id)
    except CorruptRoom:
        await reply(update, context, texts.DAMAGED)
        return
    stats = await asyncio.to_thread(svc.store.group_stats, chat.id)
    await reply(update, context, render.score(room, stats))


async def on_rules(update: Update, context: Context) -> None:
    """/rules: how to play."""
    await reply(update, context, texts.RULES)


async def on_help(update: Update, context: Context) -> None:
    """/help: the commands (in private: what the bot does there)."""
    chat = update.effective_chat
    assert chat is not None
    await reply(update, context, texts.PRIVATE_HELP if chat.type == "private" else texts.HELP)


async def wrong_chat(update: Update, context: Context) -> None:
    """A command sent in the wrong kind of chat."""
    chat = update.effective_chat
    assert chat is not None
    await reply(update, context, texts.GROUP_ONLY if chat.type == "private" else texts.PRIVATE_ONLY)


# -- private chat -----------------------------------------------------------------------------


async def on_start(update: Update, context: Context) -> None:
    """/start in private: remember the chat, join by deep link, or re-send what we wait for."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    await asyncio.to_thread(svc.mark_started, user.id)
    payload = context.args[0] if context.args else ""
    if payload.startswith("j") and payload[1:].lstrip("-").isdigit():
        name, username = display_name(update)
        outcome, problem = await attempt(
            update, context, int(payload[1:]), Join(user_id=user.id, name=name, username=username)
        )
        late = outcome is not None and any(
            isinstance(e, PlayerJoined) and e.late for e in outcome.events
        )
        await reply(update, context, problem or (texts.JOINED_LATE if late else texts.JOINED))
        return
    if not await resend(update, context):
        await reply(update, context, texts.PRIVATE_HELP)


async def resend(update: Update, context: Context) -> bool:
    """Re-send the private message the game waits on from this player, if any."""
    svc = service(context)
    user = update.effective_user
    assert user is not None
    chat_id = await asyncio.to_thread(svc.store.room_of_player, user.id)
    room = await asyncio.to_thread(svc.store.load, chat_id) if chat_id is not None else None
    if room is None or room.round is None:
        return False
    index = room.seat_of(user.id)
    rnd = room.round
    if index is None:
        return False
    look = svc.look
    message: Outgoing | None = None
    if room.seats[index].status.value == "spectating":
        message = render.spectator_dm(room, index, look)
    elif index == rnd.storyteller and room.phase is Phase.HINT:
        message = render.storyteller_dm(room, index, look)
    elif room.phase is Phase.DECOYS and index in rnd.participants and index not in rnd.plays:
        message = render.decoy_dm(room, index, look)
    if message is None:
        return False
    assert message.key is not None
    await asyncio.to_thread(svc.forget_message, room.chat_id, message.key)
    await asyncio.to_thread(svc.show, room.chat_id, message)
    return True


async def on_private_text(update: Update, context: Context) -> None:
    """Text in private: the storyteller's hint."""
    svc = service(context)
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    chat_id = await asyncio.to_thread(svc.store.room_of_player, user.id)
    if chat_id is None:
        await reply(update, context, texts.PRIVATE_HELP)
        return
    _outcome, problem = await attempt(
        update, context, chat_id, GiveHint(user_id=user.id, text=message.text or "")
    )
    if problem:
        await reply(update, context, problem)
    else:
        await reply(update, context, _("Hint given. The others are choosing their decoys."))


# -- buttons ----------------------------------------------------------------------------------


async def on_button(update: Update, context: Context) -> None:
    """Every inline button: decode, run, answer the press (always, and at once)."""
    query = update.callback_query
    assert query is not None
    svc = service(context)
    try:
        pressed = callback.decode(svc.look.key, query.data)
    except callback.BadCallback:
        await query.answer(texts.FORGED_BUTTON, show_alert=True)
        return
    handler = BUTTONS.get(pressed.kind)
    assert handler is not None
    await handler(update, context, query, pressed.args)


async def answer(query: CallbackQuery, text: str, alert: bool = False) -> None:
    """Answer a press privately."""
    await query.answer(text[:200], show_alert=alert)


def _chat(query: CallbackQuery) -> int:
    message = query.message
    assert message is not None
    return message.chat.id


Ok = str | Callable[[Outcome], str]


async def _button_command(
    update: Update,
    context: Context,
    query: CallbackQuery,
    chat_id: int,
    command: Command,
    ok: Ok,
    **options: Any,
) -> Outcome | None:
    outcome, problem = await attempt(update, context, chat_id, command, **options)
    if problem is not None:
        await answer(query, problem, alert=True)
    elif outcome is None or outcome.duplicate:
        await answer(query, "")
    elif any(e.kind == "seat_returned" for e in outcome.events):
        await answer(query, texts.BACK, alert=True)
    else:
        await answer(query, ok if isinstance(ok, str) else ok(outcome))
    return outcome


def _scene_of(card: int) -> Callable[[Outcome], str]:
    def scene(outcome: Outcome) -> str:
        assert outcome.room is not None
        return render.card(outcome.room, card)

    return scene


async def on_join(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Join: seat the player, or send one who never opened a private chat to the deep link."""
    svc = service(context)
    chat_id = _chat(query)
    user = query.from_user
    if not await asyncio.to_thread(svc.has_started, user.id):
        await query.answer(texts.OPEN_PRIVATE, url=svc.look.link(f"j{chat_id}"))
        return
    name, username = display_name(update)
    await _button_command(
        update,
        context,
        query,
        chat_id,
        Join(user_id=user.id, name=name, username=username),
        texts.JOINED,
    )


async def on_leave_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Leave the lobby."""
    await _button_command(
        update, context, query, _chat(query), Leave(user_id=query.from_user.id), texts.LEFT
    )


async def on_start_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Start the game."""
    await _button_command(
        update, context, query, _chat(query), StartGame(user_id=query.from_user.id), texts.STARTED
    )


async def on_menu(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Open or close the settings keyboard of the lobby (creator or admin)."""
    svc = service(context)
    chat_id = _chat(query)
    room = await asyncio.to_thread(svc.store.load, chat_id)
    if room is None or room.phase is not Phase.LOBBY:
        await answer(query, texts.STALE_BUTTON, alert=True)
        return
    if query.from_user.id != room.creator and not await is_admin(update, context):
        await answer(query, texts.ERRORS[ErrorCode.NOT_ALLOWED], alert=True)
        return
    opening = query.data is not None and ".menu" in query.data
    await asyncio.to_thread(svc.show, chat_id, render.lobby(room, svc.look, opening))
    await answer(query, "")


async def on_set(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A settings button: change one setting."""
    row, value = args
    if not 0 <= row < len(SETTING_ROWS):
        await answer(query, texts.FORGED_BUTTON, alert=True)
        return
    name = SETTING_ROWS[row]
    setting: int | bool | str = value
    if name == "timers":
        setting = bool(value)
    elif name == "deck":
        setting = DECK_NAMES[value % len(DECK_NAMES)]
    await _button_command(
        update,
        context,
        query,
        _chat(query),
        ChangeSettings(user_id=query.from_user.id, changes={name: setting}),
        texts.SETTINGS_CHANGED,
        settings_mode=True,
    )


async def on_card(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The storyteller's card, in private."""
    chat_id, round_no, card = args
    chosen = _scene_of(card)
    await _button_command(
        update,
        context,
        query,
        chat_id,
        ChooseCard(user_id=query.from_user.id, card=card, round_no=round_no),
        lambda outcome: texts.CARD_CHOSEN.format(card=chosen(outcome)),
    )


async def on_decoy(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A decoy, in private."""
    chat_id, round_no, card = args
    await _button_command(
        update,
        context,
        query,
        chat_id,
        PlayDecoy(user_id=query.from_user.id, card=card, round_no=round_no),
        lambda outcome: texts.DECOY_ACCEPTED.format(card=_scene_of(card)(outcome)),
    )


async def on_vote(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A vote on the table message in the group."""
    round_no, card = args
    scene = _scene_of(card)

    def accepted(outcome: Outcome) -> str:
        changed = any(isinstance(e, VoteCast) and e.changed for e in outcome.events)
        return (texts.VOTE_CHANGED if changed else texts.VOTE_ACCEPTED).format(card=scene(outcome))

    await _button_command(
        update,
        context,
        query,
        _chat(query),
        Vote(user_id=query.from_user.id, card=card, round_no=round_no),
        accepted,
    )


async def on_back_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """ "I'm back", in private."""
    (chat_id,) = args
    await _button_command(
        update, context, query, chat_id, ComeBack(user_id=query.from_user.id), texts.BACK
    )


async def on_stop_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The /stop confirmation."""
    (confirm,) = args
    if not confirm:
        message = query.message
        assert isinstance(message, Message)
        await answer(query, _("The game goes on."))
        svc = service(context)
        await asyncio.to_thread(
            svc.show,
            message.chat.id,
            Outgoing(chat_id=message.chat.id, text=_("The game goes on.")),
        )
        return
    await _button_command(
        update,
        context,
        query,
        _chat(query),
        StopGame(user_id=query.from_user.id),
        _("The game is stopped."),
    )


BUTTONS = {
    "join": on_join,
    "leave": on_leave_button,
    "start": on_start_button,
    "menu": on_menu,
    "done": on_menu,
    "set": on_set,
    "card": on_card,
    "decoy": on_decoy,
    "vote": on_vote,
    "back": on_back_button,
    "stop": on_stop_button,
}


# -- membership -------------------------------------------------------------------------------


async def on_membership(update: Update, context: Context) -> None:
    """The bot added to a group introduces itself; removed, the room is closed and cleaned up."""
    change = update.my_chat_member
    assert change is not None
    svc = service(context)
    chat_id = change.chat.id
    old, new = change.old_chat_member.status, change.new_chat_member.status
    present = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER)
    if new in present and old not in present and change.chat.type != "private":
        await asyncio.to_thread(svc.show, chat_id, Outgoing(chat_id=chat_id, text=texts.INTRO))
    elif new in (ChatMember.LEFT, ChatMember.BANNED) and change.chat.type != "private":
        await asyncio.to_thread(svc.store.delete_room, chat_id)


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: move its game to the new chat id."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id:
        await asyncio.to_thread(
            service(context).store.migrate, message.chat.id, message.migrate_to_chat_id
        )


async def on_error(update: object, context: Context) -> None:
    """Log every handler error; the webhook still answers 200 so Telegram does not repeat."""
    log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register every handler in one place."""
    group, private = filters.ChatType.GROUPS, filters.ChatType.PRIVATE
    app.add_handler(ChatMemberHandler(on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    for name, handler in [
        ("newgame", on_newgame),
        ("settings", on_settings),
        ("join", on_join_command),
        ("leave", on_leave),
        ("back", on_back),
        ("skip", on_skip),
        ("stop", on_stop),
        ("score", on_score),
    ]:
        app.add_handler(CommandHandler(name, handler, filters=group))
        app.add_handler(CommandHandler(name, wrong_chat, filters=private))
    app.add_handler(CommandHandler("start", on_start, filters=private))
    app.add_handler(CommandHandler("start", on_help, filters=group))
    app.add_handler(CommandHandler("help", on_help))
    app.add_handler(CommandHandler("rules", on_rules))
    app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, on_private_text))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_error_handler(on_error)
