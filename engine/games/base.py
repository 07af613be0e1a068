"""A game's registration: what the shared table calls to run it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from engine.errors import ErrorCode, RuleError
from engine.model import MAX_SEATS, MIN_SEATS, Room, RoomShape

_GAME_NAMED = r'\{\s*"schema_version"\s*:\s*1\s*,\s*"game"\s*:\s*"(\w+)"'
"""How a room in this version's shape begins: the game's name comes right after the schema
version (the order of `Room`'s fields)."""
_GAME_NAMED_TEXT = re.compile(_GAME_NAMED)
_GAME_NAMED_BYTES = re.compile(_GAME_NAMED.encode())

if TYPE_CHECKING:  # the context carries the games, and a game's hooks take the context
    from engine.context import Ctx


class Moment(NamedTuple):
    """Where a running game stands: its round and phase (as the game names them), when that
    phase began, and the seats it waits for (the workers move the AI seats among them)."""

    round_no: int
    phase: str
    phase_at: float
    waiting: list[int]


@dataclass(frozen=True)
class Game:
    """One game the table hosts. The table keeps the lobby, the seats' people (names,
    languages, private chats), the settings every game shares, the commit, the timers' jobs
    and the lifetime figures; the game keeps its rules and its own state.

    `start`, `act` and `join_late` work on the table's `Ctx` and may raise `RuleError`,
    which leaves the room unchanged.
    """

    name: str
    """Its name in commands and keys (`/newgame guesswhat`, `…:top:guesswhat`)."""
    title: str
    """How it is called, in every language (a proper name)."""
    start: Callable[[Ctx], None]
    """The lobby's seats become the game's; its first round begins."""
    act: Callable[[Ctx, Any], None]
    """One command in the running game (its own, or a shared one: leave, come back, skip,
    stop, a timer, an unreachable player)."""
    join_late: Callable[[Ctx, int], None]
    """The table has just seated a player late (the last seat): the game takes it in, or
    refuses (`too_late_to_join`)."""
    joinable: Callable[[Room], bool]
    """Whether a player may still join the running game (until its last turn starts)."""
    timer: Callable[[Room], tuple[int, str] | None]
    """The (round, phase) its current deadline is set for; a `Timeout` names them."""
    figures: tuple[str, ...]
    """A player's lifetime figures of this game, in the order /stats shows them; "games" and
    "wins" are the table's, "best" is kept as the largest value seen, "fewest" as the smallest."""
    seat_figures: Callable[[Room, int], dict[str, int]]
    """What one seat adds to its figures at the end of a finished game (all but games and
    wins)."""
    winners: Callable[[Room], list[int]]
    """The seats that won a finished game."""
    moment: Callable[[Room], Moment | None]
    """Where the running game stands, and whom it waits for (None: between phases)."""
    timed_events: frozenset[str]
    """The kinds of events after which the room waits on a new deadline (the workers set its
    timer)."""
    reminded_phases: frozenset[str]
    """The phases whose group message shows the time left shortly before they end."""
    settings_model: type[BaseModel] | None = None
    """The model of the game's own settings (`Room.game_settings`); None: it has none of its
    own."""
    state_model: type[BaseModel] | None = None
    """The model of the game's own state (`Room.play`), its phases among it."""
    setting_names: frozenset[str] = field(default_factory=frozenset)
    """The names of the game's own settings (changed in `Room.game_settings`)."""
    change_settings: Callable[[BaseModel, dict[str, int | bool | str]], BaseModel] | None = None
    """Apply checked changes to the game's own settings (raise `RuleError` when out of bounds)."""
    setting_aliases: dict[str, str] = field(default_factory=dict)
    """How /settings names the game's own settings (`clue` → `clue_s`)."""
    switches: frozenset[str] = field(default_factory=frozenset)
    """The game's own settings that are on or off."""
    words: frozenset[str] = field(default_factory=frozenset)
    """The game's own settings whose value is a name, taken as typed (a deck); the others are
    numbers."""
    min_seats: int = MIN_SEATS
    """The fewest active seats the game starts and goes on with (below: abandoned)."""
    max_seats: int = MAX_SEATS
    """The most seats the game takes (the lobby refuses more, whatever its seats setting)."""
    check_settings: Callable[[Room], None] | None = None
    """Check a lobby's settings, the table's and the game's own together, after a change
    (raise `RuleError` when they do not fit)."""
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Bring a room of the game stored by an earlier version (its JSON, as read) to this
    version's shape: run on every load, it returns a room already upgraded as it is."""


class Games(Mapping[str, Game]):
    """The games a table hosts, by name, in the order the lobby's Game button walks them: the
    list the composition root hands down (`engine.games.registry.GAMES` in the bot), so no
    module below it looks a game up."""

    def __init__(self, *games: Game, unnamed: str | None = None) -> None:
        self._games = {game.name: game for game in games}
        if len(self._games) != len(games):
            raise ValueError("two games share a name")
        if not games:
            raise ValueError("a table needs a game")
        if unnamed is not None and unnamed not in self._games:
            raise ValueError(f"no game {unnamed} for the rooms stored without one")
        self.unnamed = unnamed
        """The game of a room stored without a game's name, by a version whose table hosted
        that game alone (None: such a room does not load)."""
        self._shapes: dict[str, RoomShape] = {}

    def __getitem__(self, name: str) -> Game:
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    @property
    def default(self) -> Game:
        """The game a bare /newgame opens in a group that has played none (the first)."""
        return next(iter(self._games.values()))

    def named(self, name: str) -> Game:
        """The game of that name.

        Raises:
            RuleError: no such game (`unknown_game`).
        """
        game = self._games.get(name)
        if game is None:
            raise RuleError(ErrorCode.UNKNOWN_GAME, name)
        return game

    def parse_room(self, raw: str | bytes) -> Room:
        """A stored room's JSON as a room, its game's own documents parsed by that game's
        models (raises pydantic's `ValidationError` when it is not a room).

        A room in this version's shape (as the store writes it: its game named first, after
        the schema version) is parsed in one pass by its game's `RoomShape`; any other (an
        earlier version's, one the shape refuses) by `Room`, with the games as context: its
        game's `upgrade` and documents' models, and the game of an unnamed room."""
        if isinstance(raw, bytes):
            named = _GAME_NAMED_BYTES.match(raw)
            name = named.group(1).decode() if named is not None else None
        else:
            named_text = _GAME_NAMED_TEXT.match(raw)
            name = named_text.group(1) if named_text is not None else None
        game = self._games.get(name) if name is not None else None
        if game is not None:
            shape = self._shapes.get(game.name)
            if shape is None:
                shape = self._shapes[game.name] = RoomShape(game.settings_model,
                                                            game.state_model)  # fmt: skip
            try:
                room = shape.parse(raw)
            except ValidationError:
                pass
            else:
                if room.game == game.name:
                    return room
        return Room.model_validate_json(raw, context=self)

    def load_room(self, data: dict[str, Any]) -> Room:
        """A stored room, already read from JSON, as a room (see `parse_room`)."""
        return Room.model_validate(data, context=self)
