"""Wunchunk's buttons, all in the private message of the seat on turn: the colour of the next
stone, its row, its place (a stone placed), Undo, and End turn (or Pass). The colour and row
only redraw the presser's message; each press is answered at once."""

from __future__ import annotations

from telegram import CallbackQuery, Update

from engine.errors import ErrorCode
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk import commands as wc
from engine.games.wunchunk.model import Phase, State
from engine.store import Outcome
from tgbot.games.wunchunk.render import DOTS, ROWS_VIEW, turn_dm
from tgbot.i18n import _, texts
from tgbot.table.handlers.buttons import (
    answer,
    button_command,
    game_of,
    named_room,
    prompt_room,
    show_prompt,
)
from tgbot.table.handlers.common import Context

KINDS = {
    "wcol": 5,  # private: chat, round, colour, row shown (or ROWS_VIEW), game
    "wrow": 5,  # private: chat, round, colour, row (or ROWS_VIEW: the rows again), game
    "wput": 5,  # private: chat, round, colour, cell number, game (a pending stone)
    "wund": 3,  # private: chat, round, game (take the last pending stone back)
    "wrem": 4,  # private: chat, round, cell number, game (take that pending stone back)
    "wend": 3,  # private: chat, round, game (end the turn; with no stone, pass)
}


async def on_view(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A colour or a row chosen (or the rows asked for again): only the presser's message
    changes."""
    colour, row = args[2], args[3]
    opened = await prompt_room(context, query, args, State, values=2)
    if opened is None:
        return
    svc, room, state = opened
    if not (0 <= colour < len(state.seats) and (0 <= row < 2 * state.size - 1 or row == ROWS_VIEW)):
        await answer(query, texts.FORGED_BUTTON, alert=True)  # no colour or row we sent
        return
    index = room.seat_of(query.from_user.id)
    if index is None or state.phase is not Phase.TURN or index not in state.waiting_for():
        await answer(query, texts.ERRORS[ErrorCode.WRONG_PHASE], alert=True)
        return
    await show_prompt(svc, query, room, lambda look: turn_dm(room, index, look, colour, row))


async def _board_of(
    context: Context, query: CallbackQuery, args: tuple[int, ...], values: int, number: int
) -> hexes.Geometry | None:
    """The board of a button's turn while the turn is on, and the cell `number` is on it;
    otherwise the press is answered (stale, or forged) and None."""
    opened = await prompt_room(context, query, args, State, values=values)
    if opened is None:
        return None
    geometry = hexes.geometry(opened[2].size)
    if not 0 <= number < geometry.size:
        await answer(query, texts.FORGED_BUTTON, alert=True)
        return None
    return geometry


async def on_place(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A stone of the chosen colour on a cell: pending until the turn ends."""
    round_no, colour, number = args[1:4]
    geometry = await _board_of(context, query, args, 2, number)
    if geometry is None:
        return
    command = wc.PlaceStone(user_id=query.from_user.id, round_no=round_no,
                            cell=geometry.cells[number], colour=colour,
                            game_id=game_of(args, 4))  # fmt: skip
    placed = _("{dot} on {cell}.").format(dot=DOTS[colour % len(DOTS)],
                                          cell=geometry.names[number])  # fmt: skip
    await button_command(update, context, query, named_room(args, 5), command, placed)


async def on_undo(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Take the last pending stone back."""
    command = wc.Undo(user_id=query.from_user.id, round_no=args[1], game_id=game_of(args, 2))
    await button_command(update, context, query, named_room(args, 3), command,
                         _("Stone taken back."))  # fmt: skip


async def on_remove(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """Take one pending stone back (the board app's tap on it)."""
    round_no, number = args[1:3]
    geometry = await _board_of(context, query, args, 1, number)
    if geometry is None:
        return
    command = wc.Undo(user_id=query.from_user.id, round_no=round_no,
                      cell=geometry.cells[number], game_id=game_of(args, 3))  # fmt: skip
    await button_command(update, context, query, named_room(args, 4), command,
                         _("Stone taken back."))  # fmt: skip


async def on_end(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """End the turn: the pending stones go on the board together (none: a pass)."""
    command = wc.EndTurn(user_id=query.from_user.id, round_no=args[1], game_id=game_of(args, 2))

    def ended(outcome: Outcome) -> str:
        played = [e for e in outcome.events if e.kind == "turn_played"]
        return _("Turn played.") if played else _("You passed.")

    await button_command(update, context, query, named_room(args, 3), command, ended)


BUTTONS = {
    "wcol": on_view,
    "wrow": on_view,
    "wput": on_place,
    "wund": on_undo,
    "wrem": on_remove,
    "wend": on_end,
}
assert set(BUTTONS) == set(KINDS)
