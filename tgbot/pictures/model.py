"""What a picture shows, as data: built from the room when its message is rendered, drawn into
pixels only at delivery (`tgbot.pictures.render`), in the message's language. Each game
defines its kinds of picture (a subclass with its `kind`) beside their drawing, and its
`Screens.pictures` lists them, so that an outbox entry's picture is parsed by its kind."""

from __future__ import annotations

from typing import ClassVar

from PIL import Image
from pydantic import BaseModel, ConfigDict


class Picture(BaseModel):
    """A picture a message carries: its kind, and what it shows."""

    model_config = ConfigDict(frozen=True)

    kind: str
    full_colour: ClassVar[bool] = False
    """Kept in full colour (else reduced to 256 colours, sharper and smaller for flat art)."""

    def draw(self) -> Image.Image:
        """The picture as an image, its texts in the language spoken."""
        raise NotImplementedError(type(self).__name__)
