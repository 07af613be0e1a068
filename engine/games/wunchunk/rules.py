"""The entry points of Wunchunk: `start()` a game, then `apply()` one command at a time."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.common.rules import PureRules
from engine.games.wunchunk import play
from engine.games.wunchunk.commands import (
    OWN_ACTIONS,
    Command,
    EndTurn,
    Pass,
    PlaceStone,
    PlaceStones,
    Undo,
)
from engine.games.wunchunk.context import Ctx
from engine.games.wunchunk.events import Event
from engine.games.wunchunk.model import OVER_PHASES, Seat, Settings, State
from engine.games.wunchunk.turns import abandon, new_game


def start(
    players: Sequence[tuple[int, str]],
    settings: Settings | None = None,
    *,
    seed: int,
    now: float,
    host: int | None = None,
    timer_scale: float = 1.0,
) -> tuple[State, list[Event]]:
    """Start a game with the seated players (user id, name) in seat order; who plays first is
    drawn from `seed`.

    Raises:
        RuleError: fewer than two players, more than four (or `max_seats`), a player twice,
            or settings out of bounds.
    """
    ctx = new_game(players, settings or Settings(), seed, now, host, timer_scale)
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events



def _round_action(ctx: Ctx, index: int, command: Command) -> None:
    """One of the game's own commands by a seat."""
    if isinstance(command, PlaceStone):
        play.place(ctx, index, [(command.cell, command.colour)])
    elif isinstance(command, PlaceStones):
        play.place(ctx, index, command.stones)
    elif isinstance(command, Undo):
        play.undo(ctx, index, command.cell, command.all)
    elif isinstance(command, EndTurn):
        play.end_turn(ctx, index)
    elif isinstance(command, Pass):
        play.require_turn(ctx, index)
        play.pass_turn(ctx, "pass")
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def joinable(state: State) -> bool:
    """Nobody joins a running game: each colour was set on the board at the start."""
    return False


def _skip(ctx: Ctx) -> None:
    play.time_out(ctx, skipped=True)


RULES: PureRules[State, Ctx] = PureRules(
    context=Ctx,
    over_phases=OVER_PHASES,
    own_actions=OWN_ACTIONS,
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
