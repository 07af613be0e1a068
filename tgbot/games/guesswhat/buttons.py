"""Guess What!'s buttons, all in private: the active player's picks and redraw, the guessers'
picks and Confirm. Each press is answered at once."""

from __future__ import annotations

import asyncio

from telegram import CallbackQuery, Update

from engine.errors import ErrorCode
from engine.games.guesswhat import commands as gw
from engine.games.guesswhat import icon
from engine.games.guesswhat.errors import Refusal
from engine.games.guesswhat.model import COLUMN_NAMES, ROWS, Phase, State
from engine.games.guesswhat.turns import CARRIED_CLUE_S
from engine.store import Outcome
from tgbot.games.guesswhat.refusals import REFUSALS
from tgbot.games.guesswhat.render import REDRAW_MODE, active_dm
from tgbot.i18n import _, texts
from tgbot.table.handlers.buttons import (
    answer,
    button_command,
    game_of,
    named_room,
    prompt_room,
    show_prompt,
)
from tgbot.table.handlers.common import Context, service
from tgbot.table.render.common import duration
from tgbot.table.screens import ButtonHandler

KINDS = {
    "gpick": 4,  # private: chat, round, icon (the active player's pick), game
    "gguess": 4,  # private: chat, round, icon (a guesser's pick), game
    "gok": 3,  # private: chat, round, game (confirm the guess)
    "gsel": 4,  # private: chat, round, redraw selection (REDRAW_MODE | positions), game
    "gredraw": 4,  # private: chat, round, the three positions to replace, game
}


def _picked(outcome: Outcome, number: int) -> str:
    state = outcome.room.play if outcome.room is not None else None
    column = state.column_of(number) if isinstance(state, State) else None
    where = COLUMN_NAMES[column] if column is not None else "?"
    return _("{column}: {icon}").format(column=where, icon=icon(number).emoji)


def _on_icon(kind: type[gw.PickIcon] | type[gw.GuessIcon], what: str) -> ButtonHandler:
    async def pressed(
        update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
    ) -> None:
        _chat, round_no, number = args[:3]
        command = kind(
            user_id=query.from_user.id, icon=number, round_no=round_no, game_id=game_of(args, 3)
        )
        await button_command(
            update, context, query, named_room(args, 4), command,
            lambda done: _picked(done, number),
        )  # fmt: skip

    pressed.__doc__ = what
    return pressed


on_pick = _on_icon(gw.PickIcon, "The active player picks an icon of a column (until the clue).")
on_guess = _on_icon(gw.GuessIcon, "A guesser picks an icon of a column (until it confirms).")


async def on_confirm(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A guesser confirms its three icons: final."""
    round_no = args[1]
    command = gw.ConfirmGuess(
        user_id=query.from_user.id, round_no=round_no, game_id=game_of(args, 2)
    )
    recorded = _("Your guess is recorded.")
    await button_command(update, context, query, named_room(args, 3), command, recorded)


async def on_select(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Choosing the icons to replace: only the active player's message changes (no move)."""
    selection = args[2]
    opened = await prompt_room(context, query, args, State)
    if opened is None:
        return
    svc, room, state = opened
    if state.phase is not Phase.CLUE:
        await answer(query, texts.STALE_BUTTON, alert=True)
        return
    index = room.seat_of(query.from_user.id)
    if index is None or index != state.round.active:
        await answer(query, texts.ERRORS[ErrorCode.NOT_STORYTELLER], alert=True)
        return
    if state.round.redrawn:
        await answer(query, REFUSALS[Refusal.REDRAW_USED], alert=True)
        return
    await show_prompt(svc, query, room, lambda look: active_dm(room, index, look, selection))


async def on_redraw(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Replace the three chosen icons (once per turn); the clue time becomes 30 seconds."""
    round_no, selection = args[1:3]
    where = named_room(args, 4)
    svc = service(context)
    room = await asyncio.to_thread(svc.store.load, where)
    state = room.play if room is not None else None
    if not isinstance(state, State):
        await answer(query, texts.STALE_BUTTON, alert=True)
        return
    positions = [p for p in range(ROWS * len(COLUMN_NAMES)) if selection >> p & 1]
    command = gw.Redraw(
        user_id=query.from_user.id,
        icons=tuple(state.board[p] for p in positions),
        round_no=round_no,
        game_id=game_of(args, 3),
    )
    await button_command(update, context, query, where, command, _redrawn)


def _redrawn(outcome: Outcome) -> str:
    """The answer to a redraw: the clue time it leaves, as it really runs."""
    state = outcome.room.play if outcome.room is not None else None
    if not isinstance(state, State) or not state.settings.timers:
        return _("Icons replaced. Now send your clue.")
    return _("Icons replaced. You have {time} for your clue.").format(
        time=duration(CARRIED_CLUE_S * state.timer_scale))


BUTTONS = {
    "gpick": on_pick,
    "gguess": on_guess,
    "gok": on_confirm,
    "gsel": on_select,
    "gredraw": on_redraw,
}
assert set(BUTTONS) == set(KINDS) and REDRAW_MODE > 511
