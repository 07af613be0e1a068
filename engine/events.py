"""Events: facts about what a command changed, as small frozen models in one tagged union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.games.hintrigue.model import Round

VoidReason = Literal["missed_hint", "storyteller_left", "unreachable", "skipped"]


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


class GameStarted(_Event):
    """The cards were dealt."""

    kind: Literal["game_started"] = "game_started"
    first_storyteller: int


class RoundStarted(_Event):
    """A storyteller's turn began; we wait for its card and hint."""

    kind: Literal["round_started"] = "round_started"
    round_no: int
    storyteller: int
    deadline: float | None
    after: Round | None = None
    """The round scored just before, whose reveal is over now."""


class CardChosen(_Event):
    """The storyteller picked a card (private to the storyteller)."""

    kind: Literal["card_chosen"] = "card_chosen"
    round_no: int
    seat: int
    card: int


class HintGiven(_Event):
    """The hint was given; decoys are awaited."""

    kind: Literal["hint_given"] = "hint_given"
    round_no: int
    hint: str
    deadline: float | None


class DecoyPlayed(_Event):
    """A seat put a decoy on the table; `auto` when chosen for it."""

    kind: Literal["decoy_played"] = "decoy_played"
    round_no: int
    seat: int
    card: int
    auto: bool = False


class VotingOpened(_Event):
    """The shuffled table is shown; voting is open."""

    kind: Literal["voting_opened"] = "voting_opened"
    round_no: int
    table: list[int]
    deadline: float | None


class VoteCast(_Event):
    """A seat voted, or changed its vote."""

    kind: Literal["vote_cast"] = "vote_cast"
    round_no: int
    seat: int
    card: int
    changed: bool = False


class RoundScored(_Event):
    """Voting closed: owners and votes revealed, points applied, hands refilled."""

    kind: Literal["round_scored"] = "round_scored"
    round_no: int
    points: dict[int, int]
    finders: list[int]
    deadline: float


class RoundVoided(_Event):
    """The round was void: no card moved, no score changed."""

    kind: Literal["round_voided"] = "round_voided"
    round_no: int
    storyteller: int
    reason: VoidReason
    prompted: list[int] = Field(default_factory=list)
    """Seats whose private prompt of this round was still open (its buttons now go)."""


class SeatSpectating(_Event):
    """A storyteller missed two hints in a row and now sits out."""

    kind: Literal["seat_spectating"] = "seat_spectating"
    seat: int


class SeatReturned(_Event):
    """A spectating seat plays again from the next round."""

    kind: Literal["seat_returned"] = "seat_returned"
    seat: int


class SeatLeft(_Event):
    """A seat left the running game for good."""

    kind: Literal["seat_left"] = "seat_left"
    seat: int
    prompt_round: int | None = None
    """The round whose private prompt the seat still had open, if any."""


class SeatUnreachable(_Event):
    """A seat's private chat refused the bot; the group is told how to fix it."""

    kind: Literal["seat_unreachable"] = "seat_unreachable"
    seat: int


class DeckReshuffled(_Event):
    """The discard pile became the new draw pile."""

    kind: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


class GameFinished(_Event):
    """The last rotation completed; winners are named."""

    kind: Literal["game_finished"] = "game_finished"
    winners: list[int]
    standings: list[int]


class GameAbandoned(_Event):
    """The game ended without a winner."""

    kind: Literal["game_abandoned"] = "game_abandoned"
    reason: Literal["too_few_players", "stopped", "topic_gone"]
    standings: list[int]
    interrupted: str | None = None
    """The phase the game was in when it ended (its messages are closed)."""
    prompted: list[int] = Field(default_factory=list)
    """Seats whose private prompt of the round was still open."""


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
    | GameChosen
    | GameStarted
    | RoundStarted
    | CardChosen
    | HintGiven
    | DecoyPlayed
    | VotingOpened
    | VoteCast
    | RoundScored
    | RoundVoided
    | SeatSpectating
    | SeatReturned
    | SeatLeft
    | SeatUnreachable
    | DeckReshuffled
    | GameFinished
    | GameAbandoned,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
