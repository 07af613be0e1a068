"""The entry points of Hues and Cues: `start()` a game, then `apply()` one command at a time."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.common.rules import PureRules
from engine.games.huescues import play
from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    Command,
    ConfirmCone,
    GiveCue,
    NoSecondCue,
)
from engine.games.huescues.context import Ctx
from engine.games.huescues.events import Event
from engine.games.huescues.model import OVER_PHASES, Seat, Settings, State
from engine.games.huescues.turns import abandon, new_game


def start(
    players: Sequence[tuple[int, str]],
    settings: Settings | None = None,
    *,
    seed: int,
    now: float,
    host: int | None = None,
    timer_scale: float = 1.0,
    language: str = "en",
) -> tuple[State, list[Event]]:
    """Start a game with the seated players (user id, name) in seat order.

    `host` may /skip and /stop besides a group admin (default: the first player); `language`
    is the room's (its colour words are forbidden cues, besides English ones).

    Raises:
        RuleError: fewer than three players, more than `max_seats`, a player twice, or
            settings out of bounds.
    """
    ctx = new_game(players, settings or Settings(), seed, now, host, timer_scale, language)
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events



def _round_action(ctx: Ctx, index: int, command: Command) -> None:
    """One of the game's own commands by a seat."""
    if isinstance(command, ChooseColour):
        play.choose_colour(ctx, index, command.cell)
    elif isinstance(command, GiveCue):
        play.give_cue(ctx, index, command.text)
    elif isinstance(command, NoSecondCue):
        play.no_second_cue(ctx, index)
    elif isinstance(command, ChooseCell):
        play.choose_cell(ctx, index, command.cell)
    elif isinstance(command, ConfirmCone):
        play.confirm_cone(ctx, index)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def joinable(state: State) -> bool:
    """Whether a player may still join: until the last regular round starts."""
    rnd = state.round
    return state.phase not in OVER_PHASES and rnd is not None and not (rnd.last or rnd.extra)


def _skip(ctx: Ctx) -> None:
    play.time_out(ctx, skipped=True)


RULES: PureRules[State, Ctx] = PureRules(
    context=Ctx,
    over_phases=OVER_PHASES,
    own_actions=(ChooseColour, GiveCue, NoSecondCue, ChooseCell, ConfirmCone),
    round_action=_round_action,
    time_out=play.time_out,
    skip=_skip,
    leave=play.leave,
    unreachable=play.unreachable,
    abandon=abandon,
    open_to_join=joinable,
    new_seat=Seat,
)
apply = RULES.apply
"""Apply one command at time `now` (UTC seconds): `(state, events)`; see `PureRules.apply`."""
