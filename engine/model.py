"""The room state: pydantic models, serialised as one JSON document per room."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)

from engine.roomid import RoomId

SCHEMA_VERSION: Literal[1] = 1
MIN_SEATS = 3
MAX_SEATS = 10
AI_USER_ID = -(1 << 53)
"""AI seats' user ids are AI_USER_ID - k: below every Telegram id (users and chats fit in 52
bits), so an AI seat never takes a person's place, in a room, the player index or a chat."""
AI_NAMES = ("Iris", "Otto", "Nova", "Felix", "Luna", "Milo", "Zara", "Hugo", "Vera", "Leo")
"""The names AI seats take, in order, each at most once in a room (shown as "🤖 Iris")."""


class Phase(StrEnum):
    """Where a room stands: a lobby, a game playing (its own phases in its state, `Room.play`),
    a game over, or a lobby closed."""

    LOBBY = "lobby"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    CLOSED = "closed"
    PLAYING = "playing"
    """A running game; it keeps its phases in its own state (`Room.play`)."""


RUNNING_PHASES = frozenset({Phase.PLAYING})
OVER_PHASES = frozenset({Phase.FINISHED, Phase.ABANDONED, Phase.CLOSED})


class SeatStatus(StrEnum):
    """A seat plays rounds, sits out keeping its hand and score, or has left for good."""

    PLAYING = "playing"
    SPECTATING = "spectating"
    LEFT = "left"


class Settings(BaseModel):
    """The settings every game plays with; bounds live in `engine.settings`. A game's own
    settings are in `Room.game_settings`."""

    model_config = ConfigDict(frozen=True)

    max_seats: int = 8
    timers: bool = True
    join_s: int = 180
    """How long a lobby waits for players before it starts by itself (0: no join timer; an
    idle lobby then closes after a day)."""
    language: str = "en"
    """What the group is told in (one of `engine.settings.LANGUAGES`)."""
    pictures: bool = True
    """Whether the bot sends pictures (the final's results picture) beside its texts."""


class Seat(BaseModel):
    """One player's place in the room, in join order."""

    user_id: int
    name: str
    username: str | None = None
    status: SeatStatus = SeatStatus.PLAYING
    score: int = 0
    """The seat's total in the running (or ended) game, as its game keeps it."""
    private_ok: bool = True
    """Whether the bot can write to the player in private (it opened a chat with the bot)."""
    language: str | None = None
    """The player's own language for private messages (None: the group's)."""
    ai: bool = False
    """An AI player: it gets no private messages, and no figures or leaderboard lines."""


class Waiting(BaseModel):
    """A player who pressed Join in the lobby but has not opened a private chat with the bot
    yet: listed, not seated (opening the chat seats them)."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    name: str
    username: str | None = None


class Room(BaseModel):
    """The table of one group: its lobby, seats, settings and the lifecycle every game shares,
    with the game being played. The only state the bot keeps.

    Every game keeps its own settings in `game_settings` and its state in `play`, documents
    of its own (`engine.games`), and mirrors onto the room what the table reads: the phase,
    the deadline, the seats' status and totals, the end. A room stored before a game kept its
    documents apart is brought to this shape as it loads (its registration's `upgrade`), and
    one stored before rooms named their game is given it (`Games.unnamed`).
    """

    schema_version: Literal[1] = SCHEMA_VERSION
    game: str
    """The game of this lobby or running game (a name in the table's `Games`). A room stored
    before rooms named their game is given its game as it loads (`Games.unnamed`)."""
    chat_id: int
    topic: int = 0
    """The forum topic the room is (0: the whole chat, or a forum's General topic)."""
    title: str = ""
    version: int = 0
    phase: Phase = Phase.LOBBY
    settings: Settings = Field(default_factory=Settings)
    creator: int
    seats: list[Seat] = Field(default_factory=list)
    rng: int
    deadline: float | None = None
    timer_scale: float = 1.0
    end_reason: str | None = None
    opened_at: float = 0.0
    phase_at: float = 0.0
    """When the current phase (of the current round) began (0: before this was kept)."""
    game_id: int = 0
    """Tells this room's games apart: their messages and buttons never mix (0: a room stored
    before games had ids)."""
    game_settings: SerializeAsAny[BaseModel] | None = None
    """The game's own settings, for a game that keeps them apart from the table's."""
    play: SerializeAsAny[BaseModel] | None = None
    """The running (or ended) game's own state, for a game that keeps one apart."""
    waiting: list[Waiting] = Field(default_factory=list, exclude_if=lambda waiting: not waiting)
    """Players who pressed Join in the lobby and must still open a private chat with the bot
    (not seated; the game starts without them). Empty once the lobby is over, and then not
    written, so a room dumps as rooms stored before the list existed."""

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: object, info: ValidationInfo) -> object:
        """A room stored by an earlier version, brought to this version's shape by its game
        (the games come as the validation context: `Games.parse_room`). Being a validator
        `before`, it has the whole room parsed from Python objects rather than from its JSON:
        `Games.parse_room` takes a room in this version's shape through `RoomShape`, in one
        pass, and only other rooms through here."""
        games = info.context
        if games is None or not isinstance(data, dict):
            return data
        if "game" not in data and games.unnamed is not None:
            data = {**data, "game": games.unnamed}  # stored when the table hosted one game
        game = games.get(str(data.get("game")))
        if game is None or game.upgrade is None:
            return data
        return game.upgrade(data)

    @field_validator("game_settings", "play", mode="before")
    @classmethod
    def _game_document(cls, value: object, info: ValidationInfo) -> object:
        """Parse the game's own documents with the models its registration names (the games
        come as the validation context: `Games.parse_room`)."""
        if value is None or isinstance(value, BaseModel):
            return value
        games = info.context
        if games is None:
            raise ValueError("a stored game's documents are parsed by Games.parse_room")
        if "game" not in info.data:
            raise ValueError("the room names no game")
        game = games.named(str(info.data["game"]))
        model = game.settings_model if info.field_name == "game_settings" else game.state_model
        if model is None:
            raise ValueError(f"{game.name} keeps no {info.field_name}")
        return model.model_validate(value)

    def clone(self) -> Room:
        """Return a copy sharing no mutable container with this room (settings are frozen)."""
        return self.model_copy(
            update={
                "seats": [s.model_copy() for s in self.seats],
                "play": _clone(self.play),
                "waiting": list(self.waiting),
            }
        )

    @property
    def room_id(self) -> RoomId:
        """Which room this is: its chat, and its forum topic."""
        return RoomId(self.chat_id, self.topic)

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat index of a user, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def waiting_for(self, user_id: int) -> int | None:
        """Return where a user is on the lobby's list of those not seated yet, or None."""
        for index, waiting in enumerate(self.waiting):
            if waiting.user_id == user_id:
                return index
        return None

    def ai_seats(self) -> list[int]:
        """Return the indices of the AI players' seats."""
        return [i for i, s in enumerate(self.seats) if s.ai]

    def active_seats(self) -> list[int]:
        """Return the seat indices that play rounds."""
        return [i for i, s in enumerate(self.seats) if s.status is SeatStatus.PLAYING]

    def present_seats(self) -> list[int]:
        """Return the seat indices that have not left."""
        return [i for i, s in enumerate(self.seats) if s.status is not SeatStatus.LEFT]


class RoomShape:
    """One game's rooms as this version stores them, parsed from their JSON in one pass: the
    room with that game's own documents as typed fields, and no validator `before` (`Room`'s
    take the room from Python objects, field by field, which costs about half as much again).

    Strict where an earlier version's room differs: an unknown key in the room, its settings or
    a seat (a field an earlier version kept there) refuses the room, which then goes the way
    every room went before (`Room`'s validators, a game's `upgrade` among them). So a room this
    parses is one that `upgrade` leaves as it is, and both ways give the same room."""

    def __init__(self, settings_model: type[BaseModel] | None,
                 state_model: type[BaseModel] | None) -> None:  # fmt: skip
        # `_become` swaps classes of the same layout: none of these has private attributes.
        assert not any(m.__private_attributes__ for m in (Room, Settings, Seat))
        # The shape mirrors the room's fields, not its validators: those two only.
        checks = Room.__pydantic_decorators__
        assert set(checks.model_validators) == {"_upgrade"}
        assert set(checks.field_validators) == {"_game_document"}
        assert not (checks.validators or checks.root_validators or checks.field_serializers
                    or checks.model_serializers)  # fmt: skip
        fields = _fields(Room)
        fields["settings"] = (_StrictSettings, Field(default_factory=_StrictSettings))
        fields["seats"] = (list[_StrictSeat], Field(default_factory=list))
        fields["game_settings"] = (_optional(settings_model), None)
        fields["play"] = (_optional(state_model), None)
        self.model: type[BaseModel] = create_model(
            "RoomShape", __config__=ConfigDict(extra="forbid"), **fields
        )

    def parse(self, raw: str | bytes) -> Room:
        """The room (raises pydantic's `ValidationError` when the JSON is not one of this
        game's rooms in this version's shape)."""
        shaped = self.model.model_validate_json(raw)
        values = shaped.__dict__
        _become(values["settings"], Settings)
        for seat in values["seats"]:
            _become(seat, Seat)
        _become(shaped, Room)
        return shaped  # type: ignore[return-value]


def _fields(model: type[BaseModel]) -> dict[str, Any]:
    return {name: (info.annotation, info) for name, info in model.model_fields.items()}


def _optional(model: type[BaseModel] | None) -> Any:
    return None if model is None else model | None


class _StrictSettings(Settings):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _StrictSeat(Seat):
    model_config = ConfigDict(extra="forbid")


def _become(shaped: BaseModel, model: type[BaseModel]) -> None:
    """Make an instance of a shape model (`RoomShape`) one of the model it mirrors: the same
    fields, validated to the same values, kept in the same slots (pydantic's own: neither has
    private attributes or keeps extra fields), so only its class changes. What
    `model_construct` would make of its values, for a fraction of its cost."""
    object.__setattr__(shaped, "__class__", model)


def is_ai_user(user_id: int) -> bool:
    """Whether a user id is an AI seat's (never a Telegram user's)."""
    return user_id <= AI_USER_ID


def _clone(document: BaseModel | None) -> BaseModel | None:
    """A deep copy of a game's own state (its `clone()` when it has one)."""
    if document is None:
        return None
    clone = getattr(document, "clone", None)
    if callable(clone):
        copied = clone()
        assert isinstance(copied, BaseModel)
        return copied
    return document.model_copy(deep=True)
