"""Hues and Cues' buttons, all in private: the cue giver's colour and "No second cue", the
rows and columns of a cell, a cone's Confirm. Each press is answered at once."""

from __future__ import annotations

from telegram import CallbackQuery, Update

from engine.errors import ErrorCode
from engine.games.huescues import board
from engine.games.huescues import commands as hc
from engine.games.huescues.model import GUESS_PHASES, Phase, State
from engine.store import Outcome
from tgbot.games.huescues.render import ROWS_VIEW, giver_dm, guesser_dm
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
    "hcol": 4,  # private: chat, round, cell (the cue giver's colour), game
    "hrow": 4,  # private: chat, round, row (or ROWS_VIEW: the rows again), game
    "hcel": 4,  # private: chat, round, cell (a guesser's cone, not yet final), game
    "hok": 3,  # private: chat, round, game (confirm the cone)
    "hno": 3,  # private: chat, round, game (no second cue)
}


async def on_colour(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The cue giver chooses its colour (until its cue)."""
    round_no, cell = args[1:3]
    command = hc.ChooseColour(user_id=query.from_user.id, cell=cell, round_no=round_no,
                              game_id=game_of(args, 3))  # fmt: skip
    chosen = _("Colour {cell} chosen. Now send your cue here.").format(cell=_name(cell))
    await button_command(update, context, query, named_room(args, 4), command, chosen)


async def on_cell(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A guesser puts its cone on a cell, not yet final."""
    round_no, cell = args[1:3]
    command = hc.ChooseCell(user_id=query.from_user.id, cell=cell, round_no=round_no,
                            game_id=game_of(args, 3))  # fmt: skip
    chosen = _("{cell}: confirm it or change it.").format(cell=_name(cell))
    await button_command(update, context, query, named_room(args, 4), command, chosen)


async def on_confirm(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A guesser confirms its cone: final."""
    command = hc.ConfirmCone(user_id=query.from_user.id, round_no=args[1],
                             game_id=game_of(args, 2))  # fmt: skip

    def placed(outcome: Outcome) -> str:
        state = outcome.room.play if outcome.room is not None else None
        if not isinstance(state, State) or state.round is None:
            return _("Your cone is placed.")
        rnd = state.round
        index = state.seat_of(query.from_user.id)
        cell = rnd.second_cones.get(index) if index is not None else None
        if cell is None and index is not None:
            cell = rnd.cones.get(index)
        return _("Your cone is on {cell}.").format(cell=_name(cell))

    await button_command(update, context, query, named_room(args, 3), command, placed)


async def on_no_second(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """The cue giver gives no second cue."""
    command = hc.NoSecondCue(user_id=query.from_user.id, round_no=args[1],
                             game_id=game_of(args, 2))  # fmt: skip
    await button_command(update, context, query, named_room(args, 3), command,
                         _("No second cue: the colour is revealed in the group."))  # fmt: skip


async def on_row(
    update: Update, context: Context, query: CallbackQuery, args: tuple[int, ...]
) -> None:
    """A row chosen (or the rows asked for again): only the presser's message changes."""
    row = args[2]
    if not (0 <= row < len(board.ROWS) or row == ROWS_VIEW):
        await answer(query, texts.FORGED_BUTTON, alert=True)  # no row our buttons carry
        return
    opened = await prompt_room(context, query, args, State)
    if opened is None:
        return
    svc, room, state = opened
    index = room.seat_of(query.from_user.id)
    rnd = state.round
    assert rnd is not None
    picking = None
    if index is not None and index in state.waiting_for():
        if state.phase is Phase.CUE and index == rnd.giver and state.settings.free_choice:
            picking = giver_dm
        elif state.phase in GUESS_PHASES and index != rnd.giver:
            picking = guesser_dm
    if index is None or picking is None:
        await answer(query, texts.ERRORS[ErrorCode.WRONG_PHASE], alert=True)
        return
    shown = row if row < len(board.ROWS) else len(board.ROWS)  # ROWS_VIEW: the rows again
    await show_prompt(svc, query, room, lambda look: picking(room, index, look, shown))


def _name(cell: int | None) -> str:
    return board.name(cell) if cell is not None and 0 <= cell < board.CELLS else "?"


BUTTONS = {
    "hcol": on_colour,
    "hrow": on_row,
    "hcel": on_cell,
    "hok": on_confirm,
    "hno": on_no_second,
}
assert set(BUTTONS) == set(KINDS)
