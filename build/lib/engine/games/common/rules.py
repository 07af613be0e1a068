"""How a pure game applies one command: the checks and the dispatch every game shares.

Seats, late joins, leaving, coming back, /skip and /stop, timers and unreachable players are
the same in every pure game; a game gives `PureRules` its context, its own round actions and
what its timeouts, leaving and abandoning do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.errors import ErrorCode, RuleError
from engine.games.common.commands import (
    ComeBack,
    Join,
    Leave,
    MarkUnreachable,
    Skip,
    StopGame,
    Timeout,
)
from engine.games.common.context import PlayCtx
from engine.games.common.events import PlayerJoined, SeatReturned
from engine.model import SeatStatus
from engine.rng import Rng
from engine.table import check_timer, require_manager

S = TypeVar("S")
"""The game's state."""
C = TypeVar("C", bound=PlayCtx[Any, Any, Any, Any])
"""The game's context."""


@dataclass(frozen=True)
class PureRules(Generic[S, C]):
    """A game's `apply`, made of the rules it shares with the other pure games and its own."""

    context: Callable[..., C]
    """The game's `Ctx(state=, now=, rng=)`."""
    over_phases: frozenset[Any]
    own_actions: tuple[type, ...]
    """The game's own commands in a round (a spectator doing one of them only comes back)."""
    round_action: Callable[[C, int, Any], None]
    """Apply one of the game's own commands by a seat (refuse one of another kind)."""
    time_out: Callable[[C], None]
    """Apply the current phase's timeout rule once."""
    skip: Callable[[C], None]
    """Apply it once as /skip does."""
    leave: Callable[[C, int], None]
    unreachable: Callable[[C, int], None]
    abandon: Callable[[C, str], None]
    open_to_join: Callable[[S], bool]
    """Whether a player may still join (the game is not in its last round)."""
    new_seat: Callable[..., Any]
    """The game's `Seat(user_id=, name=)`."""

    def apply(
        self, state: S, command: Any, now: float, *, owned: bool = False
    ) -> tuple[S, list[Any]]:
        """Apply one command to a game at time `now` (UTC seconds): `(state, events)`.

        `state` itself is never changed, unless the caller owns it (`owned=True`: a state
        freshly parsed for this one command, thrown away if the command is refused), which
        spares a copy.

        Raises:
            RuleError: the rules refuse the command; nothing changed.
        """
        given: Any = state
        if given.phase in self.over_phases:
            raise RuleError(ErrorCode.NO_GAME)
        ctx = self.context(state=given if owned else given.clone(), now=now, rng=Rng(given.rng))
        before = _moment(given)
        self._dispatch(ctx, command)
        if _moment(ctx.state) != before:
            ctx.state.phase_at = now
        ctx.state.rng = ctx.rng.state
        return ctx.state, ctx.events

    def _dispatch(self, ctx: C, command: Any) -> None:
        if isinstance(command, Timeout | MarkUnreachable):
            self._system(ctx, command)
            return
        if isinstance(command, Join):
            self._join(ctx, command)
            return
        if isinstance(command, Skip | StopGame):
            self._manage(ctx, command)  # a group admin need not be seated
            return
        index = ctx.seat_for(command.user_id)
        if ctx.seat(index).status is SeatStatus.LEFT:
            raise RuleError(ErrorCode.HAS_LEFT)  # a left seat never plays again
        if isinstance(command, Leave):
            self.leave(ctx, index)
            return
        if self._came_back(ctx, index, command) and isinstance(
            command, (*self.own_actions, ComeBack)
        ):
            return
        expected = getattr(command, "round_no", None)
        if expected is not None and expected != ctx.round.no:
            raise RuleError(ErrorCode.STALE, "a button of another round")
        self.round_action(ctx, index, command)

    def _manage(self, ctx: C, command: Skip | StopGame) -> None:
        require_manager(ctx.state.host, command.user_id, command.is_admin)
        index = ctx.state.seat_of(command.user_id)
        if index is not None:
            self._came_back(ctx, index, command)
        if isinstance(command, StopGame):
            self.abandon(ctx, "stopped")
            return
        if ctx.now - ctx.state.phase_at < command.grace:
            # Likely meant for the phase before (two managers skipping at once).
            raise RuleError(ErrorCode.JUST_STARTED)
        self.skip(ctx)

    def _came_back(self, ctx: C, index: int, command: Any) -> bool:
        """A spectating seat that acts in the game (other than leaving) plays from the next
        round."""
        seat = ctx.seat(index)
        if seat.status is not SeatStatus.SPECTATING:
            if isinstance(command, ComeBack):
                raise RuleError(ErrorCode.NOT_SPECTATING)
            return False
        seat.status = SeatStatus.PLAYING
        seat.missed = 0
        ctx.emit(SeatReturned(seat=index))
        return True

    def _join(self, ctx: C, command: Join) -> None:
        """Seat a player late, until the last round starts; it plays from the next round."""
        state = ctx.state
        existing = state.seat_of(command.user_id)
        if existing is not None:
            left = state.seats[existing].status is SeatStatus.LEFT
            raise RuleError(ErrorCode.HAS_LEFT if left else ErrorCode.ALREADY_JOINED)
        if len(state.present_seats()) >= state.settings.max_seats:
            raise RuleError(ErrorCode.ROOM_FULL)
        if not self.open_to_join(state):
            raise RuleError(ErrorCode.TOO_LATE_TO_JOIN)
        state.seats.append(self.new_seat(user_id=command.user_id, name=command.name))
        ctx.emit(PlayerJoined(seat=len(state.seats) - 1))

    def _system(self, ctx: C, command: Timeout[Any] | MarkUnreachable[Any]) -> None:
        """Timers and delivery failures name the round and phase they were meant for."""
        state = ctx.state
        rnd = state.round
        current = (rnd.no, state.phase.value) if rnd is not None else None
        named = (command.round_no, command.phase.value)
        if isinstance(command, MarkUnreachable):
            if current != named:
                raise RuleError(ErrorCode.STALE, "the game has moved on")
            self.unreachable(ctx, ctx.seat_for(command.user_id))
            return
        check_timer(current, named, state.deadline, ctx.now)
        self.time_out(ctx)


def _moment(state: Any) -> tuple[Any, int | None]:
    return state.phase, state.round.no if state.round is not None else None
