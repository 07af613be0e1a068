"""Pictures: what they show (`model`: each game's kinds of picture, with their drawing, in its
own folder), the drawing kit (`tgbot.pictures.draw`: fonts, emoji, text), and the PNG they
become. Drawn at delivery, in the worker, from the data a rendered message carries; never
inside the engine's rules."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from tgbot import i18n
from tgbot.pictures.model import Picture

MAX_BYTES = 300_000  # SPEC 13: a picture is under 300 KB

__all__ = ["MAX_BYTES", "Picture", "digest", "identity", "image_of", "render"]


def image_of(picture: Picture, language: str) -> Image.Image:
    """The picture as an image, its texts in `language` (each kind draws itself)."""
    with i18n.use(language):
        return picture.draw()


def render(picture: Picture, language: str) -> bytes:
    """The picture as PNG bytes, its texts in `language`.

    Most pictures are reduced to 256 colours, which keeps flat colours, text and emoji sharp at
    a third of the bytes, and takes less time to encode than the full colours would. Hues and
    Cues' pictures keep their full colours: the board has 480 that must stay exact."""
    image = image_of(picture, language)
    if picture.full_colour:
        return _png(image, compress_level=3)
    return _png(image.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=3)



def _png(image: Image.Image, compress_level: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=compress_level)
    return buffer.getvalue()


def digest(data: bytes) -> str:
    """The content digest a picture's `file_id` is kept under."""
    return hashlib.sha256(data).hexdigest()


def identity(picture: Picture, language: str) -> str:
    """What tells a picture apart without drawing it: its data and its language."""
    data = f"{language}\n{picture.kind}\n{picture.model_dump_json()}"
    return hashlib.sha256(data.encode()).hexdigest()
