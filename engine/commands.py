"""Commands of the table: orders given to a room, as small frozen models in one tagged union.

A running game's own commands are in its package (`engine.games.<game>.commands`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True)


class _PlayerCommand(_Command):
    user_id: int


class _ButtonCommand(_PlayerCommand):
    """A command given by a button of one game; `game_id` refuses a button of another game
    that was played in the same room (None: not given by a button)."""

    game_id: int | None = None


class OpenLobby(_PlayerCommand):
    """Open a lobby in a group; the creator is seated at once."""

    kind: Literal["open_lobby"] = "open_lobby"
    chat_id: int
    topic: int = 0
    """The forum topic the lobby opens in (0: none, or the General topic)."""
    title: str = ""
    name: str
    username: str | None = None
    seed: int
    timer_scale: float = 1.0
    private_ok: bool = True
    language: str = "en"
    """The group's language."""
    settings: dict[str, int | bool | str] = Field(default_factory=dict)
    """The group's settings of its last lobby of this game, taken where still valid."""
    seat_language: str | None = None
    """The creator's own language (None: the group's)."""
    game: str | None = None
    """The game the lobby is for (a name in the table's `Games`; None: its first,
    `Games.default`)."""
    game_settings: dict[str, int | bool | str] = Field(default_factory=dict)
    """The group's settings of its last lobby of that game, for a game that keeps its own."""


class OpenedPrivateChat(_PlayerCommand):
    """The player opened a private chat with the bot: it can send them their cards now."""

    kind: Literal["opened_private_chat"] = "opened_private_chat"


class Join(_ButtonCommand):
    """Take a seat, in the lobby or in a running game."""

    kind: Literal["join"] = "join"
    name: str
    username: str | None = None
    private_ok: bool = True
    language: str | None = None
    """The player's own language (None: the group's)."""


class AwaitJoin(_ButtonCommand):
    """A player pressed Join in the lobby but cannot be written to in private yet: they are
    listed as waiting, not seated, until they open the private chat (then `Join`)."""

    kind: Literal["await_join"] = "await_join"
    name: str
    username: str | None = None


class ChooseLanguage(_PlayerCommand):
    """A seated player chose the language of their private messages (None: the group's)."""

    kind: Literal["choose_language"] = "choose_language"
    language: str | None = None


class Leave(_ButtonCommand):
    """Leave the lobby, or leave a running game for good."""

    kind: Literal["leave"] = "leave"


class ChangeSettings(_ButtonCommand):
    """Change some settings of the lobby (creator or group admin)."""

    kind: Literal["change_settings"] = "change_settings"
    is_admin: bool = False
    changes: dict[str, int | bool | str]


class ChooseGame(_ButtonCommand):
    """Make the lobby one of another game (creator or group admin)."""

    kind: Literal["choose_game"] = "choose_game"
    is_admin: bool = False
    game: str
    settings: dict[str, int | bool | str] = Field(default_factory=dict)
    """The group's remembered settings of that game (for a game that keeps its own)."""


class AddAI(_ButtonCommand):
    """Seat one more AI player in the lobby (creator or group admin)."""

    kind: Literal["add_ai"] = "add_ai"
    is_admin: bool = False


class RemoveAI(_ButtonCommand):
    """Free the lobby's last AI seat (creator or group admin)."""

    kind: Literal["remove_ai"] = "remove_ai"
    is_admin: bool = False


class ExtendLobby(_PlayerCommand):
    """A seated player gives the lobby a minute more before it starts by itself."""

    kind: Literal["extend_lobby"] = "extend_lobby"


class StartGame(_ButtonCommand):
    """Deal and start the first round (creator or group admin)."""

    kind: Literal["start_game"] = "start_game"
    is_admin: bool = False


class GiveHint(_PlayerCommand):
    """Text a player typed in private, for the room's game to read its own way (its typed
    command): in Hintrigue, the storyteller's hint for its chosen card."""

    kind: Literal["give_hint"] = "give_hint"
    text: str


class ComeBack(_ButtonCommand):
    """A spectating seat asks to play again from the next round."""

    kind: Literal["come_back"] = "come_back"


class Skip(_PlayerCommand):
    """Apply the current phase's timeout rule once (creator or group admin)."""

    kind: Literal["skip"] = "skip"
    is_admin: bool = False
    grace: float = 0.0
    """Refused while the phase is younger than this (seconds): a /skip typed for the phase
    before must not skip the next one too."""


class StopGame(_ButtonCommand):
    """End the game now without a winner (creator or group admin)."""

    kind: Literal["stop_game"] = "stop_game"
    is_admin: bool = False


class Timeout(_Command):
    """A timer fired for the round and phase it was set for."""

    kind: Literal["timeout"] = "timeout"
    round_no: int
    phase: str
    """The phase's name in its game (0 and "lobby": the lobby's join time)."""


class MarkUnreachable(_Command):
    """A player's private chat refused the bot's message during this round and phase."""

    kind: Literal["mark_unreachable"] = "mark_unreachable"
    user_id: int
    round_no: int
    phase: str


class TopicGone(_Command):
    """Telegram no longer knows the forum topic the room is (it was deleted): the game there
    cannot go on."""

    kind: Literal["topic_gone"] = "topic_gone"


TableCommand: TypeAlias = (
    OpenLobby
    | OpenedPrivateChat
    | ChooseLanguage
    | Join
    | AwaitJoin
    | Leave
    | ChangeSettings
    | ChooseGame
    | ExtendLobby
    | AddAI
    | RemoveAI
    | StartGame
    | GiveHint
    | ComeBack
    | Skip
    | StopGame
    | Timeout
    | MarkUnreachable
    | TopicGone
)
"""Every command of the table; a game's own are in its package (`engine.games.<game>.commands`),
each in a union with these."""

Command = Annotated[TableCommand, Field(discriminator="kind")]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
