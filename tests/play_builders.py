"""What the builders of Guess What! and Hues and Cues games share: a game played through its
rules in a test, and the builder's players, seed and settings. Each game's builders module
names its own rules, commands and phases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

BASE_USER = 500


def user(seat: int) -> int:
    """The user id of the player seated at `seat` by the builders."""
    return BASE_USER + seat


@dataclass
class PlayedGame:
    """A game being played in a test: apply commands, keep the clock and the last events.
    A game's subclass names its rules' `apply` and its `Timeout` command."""

    rules: ClassVar[Callable[..., tuple[Any, list[Any]]]]
    """The game's `apply(state, command, now)`, as a staticmethod."""
    timeout: ClassVar[Callable[..., Any]]
    """The game's Timeout command."""

    state: Any
    now: float = 1_000.0
    events: list[Any] = field(default_factory=list)

    def do(self, command: Any) -> list[Any]:
        """Apply a command that must be accepted."""
        self.state, self.events = self.rules(self.state, command, self.now)
        return self.events

    def later(self, seconds: float) -> Self:
        """Move the clock."""
        self.now += seconds
        return self

    @property
    def round(self) -> Any:
        assert self.state.round is not None
        return self.state.round

    def uid(self, seat: int) -> int:
        return self.state.seats[seat].user_id

    def guessers(self) -> list[int]:
        return self.state.guessers()

    def time_out(self) -> Self:
        assert self.state.deadline is not None
        self.now = self.state.deadline
        self.do(self.timeout(round_no=self.round.no, phase=self.state.phase))
        return self


@dataclass
class Builder:
    """The players, seed and settings of a game a test builds."""

    players: int = 4
    seed: int = 7
    settings: dict[str, int | bool] = field(default_factory=dict)

    def with_players(self, count: int) -> Self:
        self.players = count
        return self

    def with_seed(self, seed: int) -> Self:
        self.seed = seed
        return self

    def with_settings(self, **changes: int | bool) -> Self:
        self.settings.update(changes)
        return self

    def seated(self) -> list[tuple[int, str]]:
        """The players' user ids and names, in seat order."""
        return [(user(i), f"P{i}") for i in range(self.players)]
