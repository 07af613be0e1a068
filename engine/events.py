"""Events of the table: facts about what a command changed in a lobby or a seat, as small frozen
models in one tagged union. A running game gives its own (`engine.games.<game>.events`); the
table hands them on with its own, each an `AnyEvent`."""

from __future__ import annotations

from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class AnyEvent(Protocol):
    """An event of the table or of the room's game: a frozen model tagged by its `kind`."""

    @property
    def kind(self) -> str: ...


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class LobbyOpened(_Event):
    """A lobby was opened and its creator seated."""

    kind: Literal["lobby_opened"] = "lobby_opened"
    seat: int


class PlayerJoined(_Event):
    """A player took a seat; `late` when the game was already running."""

    kind: Literal["player_joined"] = "player_joined"
    seat: int
    late: bool = False


class PlayerLeftLobby(_Event):
    """A player left the lobby; `user_id` because its seat is gone."""

    kind: Literal["player_left_lobby"] = "player_left_lobby"
    user_id: int
    name: str


class JoinerWaiting(_Event):
    """A player pressed Join but must open a private chat with the bot before being seated."""

    kind: Literal["joiner_waiting"] = "joiner_waiting"
    user_id: int


class JoinerLeftOut(_Event):
    """The lobby started without players who had pressed Join but never opened a private chat
    with the bot (their names; the seated ones the join timer dropped for that too)."""

    kind: Literal["joiner_left_out"] = "joiner_left_out"
    names: list[str]


class PrivateChatOpened(_Event):
    """A seated player opened a private chat with the bot, so it can get its cards."""

    kind: Literal["private_chat_opened"] = "private_chat_opened"
    seat: int


class LanguageChosen(_Event):
    """A seated player chose the language of their private messages."""

    kind: Literal["language_chosen"] = "language_chosen"
    seat: int


class CreatorChanged(_Event):
    """The lobby passed to its earliest remaining player."""

    kind: Literal["creator_changed"] = "creator_changed"
    user_id: int


class LobbyClosed(_Event):
    """The lobby closed: the last player left, it was stopped, or its time ran out."""

    kind: Literal["lobby_closed"] = "lobby_closed"
    reason: str | None = None
    """"too_few" (the join time ran out), "idle" (a day without a move), "topic_gone" (its
    forum topic was deleted), None otherwise."""


class LobbyExtended(_Event):
    """A seated player gave the lobby more time to fill."""

    kind: Literal["lobby_extended"] = "lobby_extended"
    deadline: float


class SettingsChanged(_Event):
    """Lobby settings changed."""

    kind: Literal["settings_changed"] = "settings_changed"
    changes: dict[str, int | bool | str]


class GameChosen(_Event):
    """The lobby is one of another game now."""

    kind: Literal["game_chosen"] = "game_chosen"
    game: str


Event = Annotated[
    LobbyOpened
    | PrivateChatOpened
    | LanguageChosen
    | PlayerJoined
    | PlayerLeftLobby
    | JoinerWaiting
    | JoinerLeftOut
    | CreatorChanged
    | LobbyClosed
    | LobbyExtended
    | SettingsChanged
    | GameChosen,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
