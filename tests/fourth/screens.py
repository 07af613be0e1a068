"""Tally's Telegram side: one group message with its two buttons, and the table's final."""

from __future__ import annotations

from typing import Any

from telegram import CallbackQuery, Update

from engine.model import Room
from tests.fourth.rules import Add, Refusal, state_of
from tgbot.egress.outgoing import Outgoing
from tgbot.i18n import Texts
from tgbot.table.effects import game_over
from tgbot.table.handlers.buttons import button_command
from tgbot.table.handlers.common import room_of
from tgbot.table.render import Look, names
from tgbot.table.render.common import to_group
from tgbot.table.screens import Screens


def _board(room: Room, look: Look) -> Outgoing:
    state = state_of(room)
    who = names(room)
    lines = [f"Tally, round {state.round}:"] + [
        f"{who[i]}: {total}" for i, total in enumerate(state.totals)
    ]
    buttons = [[look.button("+1", "tally", 1, room.game_id),
                look.button("+2", "tally", 2, room.game_id)]]  # fmt: skip
    return to_group(room, key="tally", text="\n".join(lines), buttons=buttons)


def _away(room: Room, index: int, look: Look) -> Outgoing:
    return Outgoing(chat_id=room.seats[index].user_id, text="Tally is over.")


def messages(room: Room, event: Any, look: Look, settings_mode: bool) -> list[Outgoing]:
    if event.kind == "game_finished":
        return game_over(room, look, _away)
    if event.kind in ("tally_started", "tally_added"):
        return [_board(room, look)]
    return []


def standings(room: Room) -> str:
    who = names(room)
    totals = state_of(room).totals
    return "\n".join(f"{who[i]}: {total}" for i, total in enumerate(totals))


async def on_tally(update: Update, context: Any, query: CallbackQuery, args: tuple[int, ...]
                   ) -> None:  # fmt: skip
    command = Add(user_id=query.from_user.id, amount=args[0], game_id=args[1])
    await button_command(update, context, query, room_of(update), command, "Added.")


SCREENS = Screens(
    name="tally",
    messages=messages,
    settings_text=lambda room: "Tally: two rounds.",
    setting_rows=("max_seats", "language"),
    rules=lambda: "Press +1 or +2 each round; the highest total after two rounds wins.",
    settings_help=lambda: "Tally has no settings of its own.",
    waiting_prompt=lambda room, index, look: None,
    where_it_stands=lambda room, user_id: "Tally is played in the group.",
    standings=standings,
    reminder=lambda room, look: None,
    text_given=None,
    joined=lambda: "You joined Tally in {group}.",
    private_why=lambda: "Tally needs nothing in private.",
    button_kinds={"tally": 2},
    buttons={"tally": on_tally},
    refusals=Texts(
        {
            Refusal.ADDED_ALREADY: "You added this round already.",
            Refusal.BAD_AMOUNT: "Add 1 or 2, not {detail}.",
        }
    ),
    aliases=("count",),
)
