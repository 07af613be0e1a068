"""What every game at the table shares and computes the same way: standings with co-winners,
the checks of managers and timers. Games call these; none of them knows a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.errors import ErrorCode, RuleError
from engine.model import SeatStatus


class ScoredSeat(Protocol):
    """A seat as the table ranks it: a status and a total."""

    @property
    def status(self) -> SeatStatus: ...

    @property
    def score(self) -> int: ...


def standings(seats: Sequence[ScoredSeat], *tiebreaks: Callable[[int], int]) -> list[int]:
    """Seat indices by total points, then each tie-break (all descending), then seat order."""
    return sorted(
        range(len(seats)),
        key=lambda i: (-seats[i].score, *(-tiebreak(i) for tiebreak in tiebreaks), i),
    )


def winners(seats: Sequence[ScoredSeat], order: list[int]) -> list[int]:
    """Every seat still in the game with the top total, in standings order: ties stay
    co-winners (tie-breaks only order the standings); a seat that left cannot win."""
    present = [i for i, seat in enumerate(seats) if seat.status is not SeatStatus.LEFT]
    if not present:
        return []
    top = max(seats[i].score for i in present)
    return [i for i in order if i in present and seats[i].score == top]


def next_turn(
    seats: Sequence[ScoredSeat], current: int, first: int, done: int, rotations: int
) -> tuple[int | None, int]:
    """Walk the seat order from `current`; return (the next seat to take a turn, or None when
    the game's rotations are complete, and the rotations done then). SPEC section 5, for every
    game: a rotation completes each time the walk reaches the first turn's position (`first`);
    spectating and left seats are stepped over, so passing that position counts too."""
    count = len(seats)
    position = current
    for _ in range(count * (rotations + 1)):
        position = (position + 1) % count
        if position == first:
            done += 1
            if done >= rotations:
                return None, done
        if seats[position].status is SeatStatus.PLAYING:
            return position, done
    return None, done


def require_manager(host: int, user_id: int, is_admin: bool) -> None:
    """Only the lobby's creator (the game's host) or a group admin may manage the room."""
    if user_id != host and not is_admin:
        raise RuleError(ErrorCode.NOT_ALLOWED)


def check_timer(
    current: tuple[int, str] | None, named: tuple[int, str], deadline: float | None, now: float
) -> None:
    """Refuse a timer that names another round or phase than the current one (`stale`), one
    set for a phase without a deadline (`stale`), or one that fires early (`too_early`)."""
    if current is None or current != named:
        raise RuleError(ErrorCode.STALE, "the game has moved on")
    if deadline is None:
        raise RuleError(ErrorCode.STALE, "no timer runs in this phase")
    if now < deadline:
        raise RuleError(ErrorCode.TOO_EARLY, f"{deadline - now:.3f}s early")
