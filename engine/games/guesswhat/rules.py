"""The entry points of Guess What!: `start()` a game, then `apply()` one command at a time."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ErrorCode, RuleError
from engine.games.common.rules import PureRules
from engine.games.guesswhat import play
from engine.games.guesswhat.commands import (
    Command,
    ConfirmGuess,
    GiveClue,
    GuessIcon,
    PickIcon,
    Redraw,
)
from engine.games.guesswhat.context import Ctx
from engine.games.guesswhat.events import Event
from engine.games.guesswhat.model import OVER_PHASES, Phase, Seat, Settings, State
from engine.games.guesswhat.turns import abandon, new_game


def start(
    players: Sequence[tuple[int, str]],
    settings: Settings | None = None,
    *,
    seed: int,
    now: float,
    host: int | None = None,
    timer_scale: float = 1.0,
) -> tuple[State, list[Event]]:
    """Start a game with the seated players (user id, name) in seat order.

    `host` may /skip and /stop besides a group admin (default: the first player).

    Raises:
        RuleError: fewer than three players, more than `max_seats`, a player twice, or
            settings out of bounds.
    """
    ctx = new_game(players, settings or Settings(), seed, now, host, timer_scale)
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events



def _round_action(ctx: Ctx, index: int, command: Command) -> None:
    """One of the game's own commands by a seat."""
    if isinstance(command, PickIcon):
        play.pick_icon(ctx, index, command.icon)
    elif isinstance(command, Redraw):
        play.redraw(ctx, index, command.icons)
    elif isinstance(command, GiveClue):
        play.give_clue(ctx, index, command.text)
    elif isinstance(command, GuessIcon):
        play.guess_icon(ctx, index, command.icon)
    elif isinstance(command, ConfirmGuess):
        play.confirm_guess(ctx, index)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def ending(state: State) -> bool:
    """The reveal of the round in which a seat reached the target: the game ends after it."""
    target = state.settings.target
    return state.phase is Phase.REVEAL and any(seat.score >= target for seat in state.seats)


def joinable(state: State) -> bool:
    """Whether a player may still join: until the last turn starts (and not during the
    reveal of the turn that reached the target)."""
    return state.round is not None and not (state.round.last or ending(state))


def _skip(ctx: Ctx) -> None:
    play.time_out(ctx, reason="skipped")


RULES: PureRules[State, Ctx] = PureRules(
    context=Ctx,
    over_phases=OVER_PHASES,
    own_actions=(PickIcon, Redraw, GiveClue, GuessIcon, ConfirmGuess),
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
