"""The seats' rules every pure game shares: who may start a game, and its end without a
winner (stopped, or too few players left)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from enum import StrEnum
from typing import Any

from engine.errors import ErrorCode, RuleError
from engine.games.common.context import PlayCtx
from engine.games.common.events import GameAbandoned
from engine.model import is_ai_user


def check_players(players: Sequence[tuple[int, str]], min_seats: int) -> None:
    """Refuse too few players (before the settings' check)."""
    if len(players) < min_seats:
        raise RuleError(ErrorCode.NOT_ENOUGH_PLAYERS, str(min_seats))


def check_seats(players: Sequence[tuple[int, str]], max_seats: int) -> None:
    """Refuse more players than seats, or a player twice (after the settings' check)."""
    if len(players) > max_seats:
        raise RuleError(ErrorCode.ROOM_FULL)
    if len({user_id for user_id, _ in players}) != len(players):
        raise RuleError(ErrorCode.ALREADY_JOINED)


def abandon(
    ctx: PlayCtx[Any, Any, Any, Any],
    reason: str,
    abandoned: StrEnum,
    standings: Callable[[Any], list[int]],
) -> None:
    """End the game without a winner (in the game's `abandoned` phase); a round not yet
    scored is dropped."""
    state = ctx.state
    interrupted = state.phase.value
    state.phase = abandoned
    state.deadline = None
    state.end_reason = reason
    ctx.emit(
        GameAbandoned(
            reason="stopped" if reason == "stopped" else "too_few_players",
            standings=standings(state),
            interrupted=interrupted,
        )
    )


def too_few(state: Any, running: Collection[StrEnum], min_seats: int) -> bool:
    """Whether a running game has fewer than `min_seats` active seats, or no active human
    seat (AI players alone do not play on)."""
    active: list[int] = state.active_seats()
    humans = [i for i in active if not is_ai_user(state.seats[i].user_id)]
    return state.phase in running and (len(active) < min_seats or not humans)
