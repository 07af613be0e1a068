"""What a picture shows, as data: built from the room when its message is rendered, drawn into
pixels only at delivery (`tgbot.pictures.render`), in the message's language."""

from __future__ import annotations

from typing import Literal

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


Picture = ResultsPicture
