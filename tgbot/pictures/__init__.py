"""Pictures: what they show (`model`), how they are drawn (`draw`, `results`), and the
`file_id`s of those Telegram already has (`cache`). Drawn at delivery, in the worker, from the
data a rendered message carries; never inside the engine's rules."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from tgbot import i18n
from tgbot.pictures.model import Picture, ResultRow, ResultsPicture, Tally
from tgbot.pictures.results import draw_results

MAX_BYTES = 300_000  # SPEC 13: a picture is under 300 KB

__all__ = ["MAX_BYTES", "Picture", "ResultRow", "ResultsPicture", "Tally", "digest", "render"]


def draw(picture: Picture, language: str) -> Image.Image:
    """The picture as an image, its texts in `language`."""
    with i18n.use(language):
        return draw_results(picture)


def render(picture: Picture, language: str) -> bytes:
    """The picture as PNG bytes, its texts in `language`: reduced to 256 colours, which keeps
    flat colours, text and emoji sharp at a third of the bytes, and takes less time to encode
    than the full colours would."""
    image = draw(picture, language)
    return _png(image.quantize(256, method=Image.Quantize.FASTOCTREE))


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=3)  # a palette image: level 6 saves 15 % more
    return buffer.getvalue()


def digest(data: bytes) -> str:
    """The content digest a picture's `file_id` is kept under."""
    return hashlib.sha256(data).hexdigest()
