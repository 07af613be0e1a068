"""/stats, /top and /notify (with the final message's "Notify me" button)."""

from __future__ import annotations

import asyncio

from telegram import CallbackQuery, Update, User

from tgbot.i18n import _
from tgbot.table import render
from tgbot.table.handlers.common import Context, answer, last_game, reply, service
from tgbot.table.handlers.language import speakers
from tgbot.table.notify import subscribe, unsubscribe
from tgbot.table.render import community


async def on_stats(update: Update, context: Context) -> None:
    """/stats: the sender's lifetime figures; in a group, in reply to a message, its sender's."""
    message = update.effective_message
    user = update.effective_user
    assert message is not None and user is not None
    whose: User = user
    replied = message.reply_to_message
    if replied is not None and (
        replied.forum_topic_created is not None or replied.message_id == message.message_thread_id
    ):
        replied = None  # a forum topic's messages answer its opening one: no reply meant
    if message.chat.type != "private" and replied is not None and replied.from_user is not None:
        whose = replied.from_user
        if whose.is_bot:
            await reply(update, context, _("Bots keep no stats."))
            return
    svc = service(context)
    figures = await asyncio.to_thread(svc.store.user_stats, whose.id)
    shown = community.stats(whose.full_name or str(whose.id), figures, svc.games)
    await reply(update, context, shown, once=f"stats:{whose.id}")


async def on_top(update: Update, context: Context) -> None:
    """/top: the group's leaderboard of the last 90 days."""
    chat = update.effective_chat
    assert chat is not None
    svc = service(context)
    now = await asyncio.to_thread(svc.store.clock)
    boards = {
        game: await asyncio.to_thread(svc.store.leaderboard, chat.id, game, now)
        for game in svc.games
    }
    shown = [community.top(svc.games[game], board) for game, board in boards.items() if board]
    if not shown:  # no game finished lately: said of the group's last game
        game = await asyncio.to_thread(last_game, svc, chat.id)
        shown = [community.top(svc.games[game], [])]
    await reply(update, context, "\n\n".join(shown), once="top")


async def on_notify(update: Update, context: Context) -> None:
    """/notify: a private message when the group's next lobby opens; `/notify off` cancels."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    svc = service(context)
    name = render.user_text(user.full_name or str(user.id))
    if context.args and context.args[0].lower() in ("off", "stop", "no", "0"):
        if await asyncio.to_thread(unsubscribe, svc, chat.id, user.id):
            text = _("{name}: no message about the next game, then.").format(name=name)
        else:
            text = _("{name}: you were not waiting for a message about the next game.").format(
                name=name
            )
        await reply(update, context, text)
        return
    await asyncio.to_thread(subscribe, svc, chat.id, user.id, speakers().user)
    text = _("🔔 {name}: I will write to you in private when the next game opens here.").format(
        name=name
    )
    if not await asyncio.to_thread(svc.has_started, user.id):
        text += "\n" + _("I cannot write to you yet: open {link} and press Start.").format(
            link=svc.look.anchor(f"n{chat.id}")
        )
    await reply(update, context, text)


async def on_notify_button(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The final message's "Notify me": the same as /notify, answered to the presser."""
    message = query.message
    assert message is not None
    svc = service(context)
    chat_id, user = message.chat.id, query.from_user
    await asyncio.to_thread(subscribe, svc, chat_id, user.id, speakers().user)
    if await asyncio.to_thread(svc.has_started, user.id):
        await answer(query, _("🔔 I will write to you in private when the next game opens here."))
    else:
        # The deep link opens the private chat; its /start confirms there.
        await answer(query, url=svc.look.link(f"n{chat_id}"))
