"""What a picture shows, as data: built from the room when its message is rendered, drawn into
pixels only at delivery (`tgbot.pictures.render`), in the message's language."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Tally(BaseModel):
    """Another player and how many times (votes) it concerns."""

    model_config = ConfigDict(frozen=True)

    name: str
    times: int


class ResultRow(BaseModel):
    """One seat of the results: rank, name, figures, and whom its decoys fooled and who
    fooled it over the whole game."""

    model_config = ConfigDict(frozen=True)

    rank: int
    name: str
    """As the player set it (not escaped: a picture shows it as it is)."""
    points: int
    finds: int = 0
    stolen: int = 0
    status: Literal["playing", "spectating", "left"] = "playing"
    winner: bool = False
    fooled: list[Tally] = Field(default_factory=list)
    fooled_by: list[Tally] = Field(default_factory=list)


class ResultsPicture(BaseModel):
    """Hintrigue's results picture on the final message."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["results"] = "results"
    finished: bool = True
    """False: the game ended early, without a winner."""
    rows: list[ResultRow]


class Cone(BaseModel):
    """A player's cone on Hues and Cues' board."""

    model_config = ConfigDict(frozen=True)

    cell: int
    seat: int
    """The seat number printed on the disc (1-based seat order)."""
    second: bool = False
    """Placed after the second cue (drawn distinguishably)."""


class HuesBoardPicture(BaseModel):
    """Hues and Cues' whole board, with the cones placed and the chosen colour's frame."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["hues_board"] = "hues_board"
    cones: list[Cone] = []
    frame: int | None = None
    """The chosen colour: its 3x3 frame is drawn (clipped at the board's edges)."""


class HuesCloseupPicture(BaseModel):
    """A labelled 5x5 close-up of Hues and Cues' board around one cell."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["hues_closeup"] = "hues_closeup"
    cell: int
    """The chosen cell, highlighted."""
    cones: list[Cone] = []
    """Cones already visible there (the first cones, in the second guess)."""


class HuesCardPicture(BaseModel):
    """A Hues and Cues card: its four colours, numbered 1-4, each with its cell name."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["hues_card"] = "hues_card"
    cells: list[int]


class GuessBoardPicture(BaseModel):
    """Guess What!'s board: columns A, B and C of three icons."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["guess_board"] = "guess_board"
    icons: list[str]
    """The nine icons (one emoji each), column by column: A's three, then B's, then C's."""


class GuessLine(BaseModel):
    """One confirmed guess of a Guess What! turn."""

    model_config = ConfigDict(frozen=True)

    name: str
    """As the player set it (not escaped: a picture shows it as it is)."""
    icons: list[str]
    """The three icons guessed, by column."""


class GuessRevealPicture(BaseModel):
    """Guess What!'s reveal: the board with the active player's three icons marked, and each
    guess with a mark per icon."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["guess_reveal"] = "guess_reveal"
    icons: list[str]
    """The board's nine icons, column by column."""
    answer: list[str]
    """The active player's three icons, by column."""
    active: str
    clue: str
    guesses: list[GuessLine] = []


Picture = Annotated[
    ResultsPicture
    | HuesBoardPicture
    | HuesCloseupPicture
    | HuesCardPicture
    | GuessBoardPicture
    | GuessRevealPicture,
    Field(discriminator="kind"),
]
"""Any picture, told apart by its `kind`."""
