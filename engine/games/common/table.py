"""A pure game's registration at the table, shared by the games that keep their own state.

The table seats the players, keeps the lobby and the settings every game shares (seats,
timers); a `PureTable` hands its seats and commands to the game's pure rules (its `start` and
`apply`), keeps the game's own settings in `Room.game_settings` and its state in `Room.play`,
and mirrors onto the room what the table reads: the phase, the deadline, the seats' status
and totals. Each game gives it its models, rules and the few things that are its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, cast

from pydantic import BaseModel

from engine import commands as shared
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.base import Game, Moment
from engine.games.common import commands as common
from engine.model import Phase, Room, SeatStatus


class _Seat(Protocol):
    @property
    def status(self) -> SeatStatus: ...

    @property
    def score(self) -> int: ...


class _Round(Protocol):
    @property
    def no(self) -> int: ...


class _State(Protocol):
    @property
    def phase(self) -> StrEnum: ...

    @property
    def deadline(self) -> float | None: ...

    end_reason: str | None

    @property
    def round(self) -> _Round | None: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...


class _Waiting(_State, Protocol):
    phase_at: float

    def waiting_for(self) -> list[int]: ...


S = TypeVar("S", bound=BaseModel)
"""The game's state."""
G = TypeVar("G", bound=BaseModel)
"""The game's own settings."""


def _no_extra(room: Room) -> dict[str, Any]:
    return {}


def room_language(room: Room) -> dict[str, Any]:
    """`start_extra` of a game whose words are the room's language's (colour words, cards)."""
    return {"language": room.settings.language}


@dataclass(frozen=True)
class PureTable(Generic[S, G]):
    """What the table calls to run one pure game (the functions of `engine.games.base.Game`)."""

    title: str
    state_model: type[S]
    settings_model: type[G]
    phases: type[StrEnum]
    """The game's phases (a `Timeout` names one by its value)."""
    start_game: Callable[..., tuple[S, list[Any]]]
    """The game's `rules.start(players, settings, *, seed, now, host, timer_scale, ...)`."""
    apply: Callable[..., tuple[S, list[Any]]]
    """The game's `rules.apply(state, command, now, *, owned)`."""
    own_commands: tuple[type, ...]
    """The game's own commands, which pass to `apply` as they are."""
    timeout: Callable[..., Any]
    """The game's `Timeout(round_no, phase)`."""
    unreachable: Callable[..., Any]
    """The game's `MarkUnreachable(user_id, round_no, phase)`."""
    typed: Callable[[S, int, str], Any]
    """The game's command for text a player typed in private (`GiveHint`)."""
    open_to_join: Callable[[S], bool]
    """Whether a player may still join the running game."""
    apply_changes: Callable[[G, dict[str, int | bool | str]], G]
    own_winners: Callable[[S], list[int]]
    start_extra: Callable[[Room], dict[str, Any]] = field(default=_no_extra)
    """More of the room the game's `start` takes (its language…)."""

    def game(
        self,
        name: str,
        *,
        figures: tuple[str, ...],
        seat_figures: Callable[[Room, int], dict[str, int]],
        setting_names: frozenset[str],
        setting_aliases: dict[str, str],
        switches: frozenset[str],
        timed_events: frozenset[str],
        reminded_phases: frozenset[str],
    ) -> Game:
        """The game's registration at the table, run by this adapter."""
        return Game(
            name=name,
            title=self.title,
            start=self.start,
            act=self.act,
            join_late=self.join_late,
            joinable=self.joinable,
            timer=self.timer,
            figures=figures,
            seat_figures=seat_figures,
            winners=self.winners,
            moment=self.moment,
            timed_events=timed_events,
            reminded_phases=reminded_phases,
            settings_model=self.settings_model,
            state_model=self.state_model,
            setting_names=setting_names,
            change_settings=self.change_settings,
            setting_aliases=setting_aliases,
            switches=switches,
        )

    def settings_of(self, room: Room) -> G:
        """The settings a game in this room plays (or will play) with."""
        own_settings = room.game_settings
        if not isinstance(own_settings, self.settings_model):
            own_settings = self.settings_model()
        return own_settings.model_copy(
            update={"max_seats": room.settings.max_seats, "timers": room.settings.timers}
        )

    def state_of(self, room: Room) -> S:
        """The running (or ended) game's state."""
        if not isinstance(room.play, self.state_model):
            raise RuleError(ErrorCode.WRONG_PHASE, f"no game of {self.title} here")
        return room.play

    def start(self, ctx: Ctx) -> None:
        """The lobby's seats, in order, start a game; its host is the lobby's creator."""
        room = ctx.room
        players = [(seat.user_id, seat.name) for seat in room.seats]
        state, events = self.start_game(
            players,
            self.settings_of(room),
            seed=ctx.rng.next64(),
            now=ctx.now,
            host=room.creator,
            timer_scale=room.timer_scale,
            **self.start_extra(room),
        )
        self._mirror(ctx, state, events)

    def act(self, ctx: Ctx, command: Any) -> None:
        """Apply one command, the game's own or a shared one, to the running game."""
        state = self.state_of(ctx.room)
        state, events = self.apply(state, self._own(command, state), ctx.now, owned=True)
        if isinstance(command, shared.TopicGone):
            cast(_State, state).end_reason = "topic_gone"  # stopped, as by an admin
        self._mirror(ctx, state, events)

    def join_late(self, ctx: Ctx, index: int) -> None:
        """The table seated a player late: the game seats it too (it plays from the next
        round)."""
        seat = ctx.room.seats[index]
        joined = common.Join(user_id=seat.user_id, name=seat.name)
        state, _ = self.apply(self.state_of(ctx.room), joined, ctx.now, owned=True)
        self._mirror(ctx, state, [])  # the table says who joined

    def joinable(self, room: Room) -> bool:
        """Whether a player may still join the running game."""
        state = room.play
        return isinstance(state, self.state_model) and self.open_to_join(state)

    def timer(self, room: Room) -> tuple[int, str] | None:
        """The round and phase the game's current deadline is set for."""
        state = room.play
        if not isinstance(state, self.state_model):
            return None
        play = cast(_State, state)
        if play.round is None:
            return None
        return play.round.no, play.phase.value

    def moment(self, room: Room) -> Moment | None:
        """Where the game stands, and the seats it waits for."""
        state = room.play
        if not isinstance(state, self.state_model):
            return None
        play = cast(_Waiting, state)
        number = play.round.no if play.round is not None else 0
        return Moment(number, play.phase.value, play.phase_at, play.waiting_for())

    def winners(self, room: Room) -> list[int]:
        """The seats with the top total (co-winners), none of them left."""
        return self.own_winners(self.state_of(room))

    def change_settings(self, settings: Any, changes: dict[str, int | bool | str]) -> G:
        """The game's own settings with checked changes."""
        if not isinstance(settings, self.settings_model):
            settings = self.settings_model()
        return self.apply_changes(settings, changes)

    def _own(self, command: Any, state: S) -> Any:
        """The game's command for a shared one (the game's own pass as they are)."""
        if isinstance(command, self.own_commands):
            return command
        if isinstance(command, shared.GiveHint):
            return self.typed(state, command.user_id, command.text)  # typed in private
        if isinstance(command, shared.Leave):
            return common.Leave(user_id=command.user_id)
        if isinstance(command, shared.ComeBack):
            return common.ComeBack(user_id=command.user_id)
        if isinstance(command, shared.Skip):
            return common.Skip(
                user_id=command.user_id, is_admin=command.is_admin, grace=command.grace
            )
        if isinstance(command, shared.StopGame):
            return common.StopGame(user_id=command.user_id, is_admin=command.is_admin)
        if isinstance(command, shared.TopicGone):
            return common.StopGame(user_id=0, is_admin=True)
        if isinstance(command, shared.Timeout | shared.MarkUnreachable):
            try:
                phase = self.phases(command.phase)
            except ValueError:
                raise RuleError(ErrorCode.STALE, "a timer of another game") from None
            if isinstance(command, shared.Timeout):
                return self.timeout(round_no=command.round_no, phase=phase)
            return self.unreachable(user_id=command.user_id, round_no=command.round_no, phase=phase)
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)

    def _mirror(self, ctx: Ctx, state: S, events: list[Any]) -> None:
        """Keep the game's state in the room and show the table what it reads."""
        play = cast(_State, state)
        room = ctx.room
        room.play = state
        room.deadline = play.deadline
        room.phase = _OVER.get(play.phase.value, Phase.PLAYING)
        room.end_reason = play.end_reason
        for seat, own_seat in zip(room.seats, play.seats, strict=True):
            seat.status = own_seat.status
            seat.score = own_seat.score
        ctx.events.extend(events)


_OVER = {"finished": Phase.FINISHED, "abandoned": Phase.ABANDONED}
