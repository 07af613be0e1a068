"""The entry points of Hunch!: `start()` a game, then `apply()` one command at a time."""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.common.rules import PureRules
from engine.games.hunch import play
from engine.games.hunch.commands import OWN_ACTIONS
from engine.games.hunch.context import Ctx
from engine.games.hunch.events import Event
from engine.games.hunch.model import OVER_PHASES, Seat, Settings, State
from engine.games.hunch.setup import new_game
from engine.games.hunch.turns import abandon


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
    """Start a game with the seated players (user id, name) in seat order; the deal, the
    matrix and the starting player are drawn from `seed`; the words are `language`'s.

    Raises:
        RuleError: fewer than three players, more than six (or `max_seats`), a player twice,
            or settings out of bounds.
    """
    ctx = new_game(players, settings or Settings(), seed, now, host, timer_scale, language)
    ctx.state.rng = ctx.rng.state
    return ctx.state, ctx.events



def joinable(state: State) -> bool:
    """Nobody joins a running game: the target cards were dealt and the matrix laid out."""
    return False


def _skip(ctx: Ctx) -> None:
    play.time_out(ctx, skipped=True)


RULES: PureRules[State, Ctx] = PureRules(
    context=Ctx,
    over_phases=OVER_PHASES,
    own_actions=OWN_ACTIONS,
    round_action=play.round_action,
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
