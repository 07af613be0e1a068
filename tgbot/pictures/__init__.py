"""Pictures: what they show (`model`), how they are drawn (`draw`, `results`), and the
`file_id`s of those Telegram already has (`cache`). Drawn at delivery, in the worker, from the
data a rendered message carries; never inside the engine's rules."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

from tgbot import i18n
from tgbot.games.guesswhat import pictures as guesswhat
from tgbot.games.hintrigue.pictures import draw_results
from tgbot.games.huescues import pictures as huescues
from tgbot.pictures.model import (
    Cone,
    GuessBoardPicture,
    GuessLine,
    GuessRevealPicture,
    HuesBoardPicture,
    HuesCardPicture,
    HuesCloseupPicture,
    Picture,
    ResultRow,
    ResultsPicture,
    Tally,
)

MAX_BYTES = 300_000  # SPEC 13: a picture is under 300 KB

__all__ = [
    "MAX_BYTES", "Cone", "GuessBoardPicture", "GuessLine", "GuessRevealPicture",
    "HuesBoardPicture", "HuesCardPicture", "HuesCloseupPicture", "Picture", "ResultRow",
    "ResultsPicture", "Tally", "digest", "identity", "render",
]  # fmt: skip


def draw(picture: Picture, language: str) -> Image.Image:
    """The picture as an image, its texts in `language`."""
    with i18n.use(language):
        match picture:
            case ResultsPicture():
                return draw_results(picture)
            case HuesBoardPicture():
                return huescues.draw_board(picture)
            case HuesCloseupPicture():
                return huescues.draw_closeup(picture)
            case HuesCardPicture():
                return huescues.draw_card(picture)
            case GuessBoardPicture():
                return guesswhat.draw_board(picture)
            case GuessRevealPicture():
                return guesswhat.draw_reveal(picture)
    raise TypeError(f"no drawing for {picture!r}")


def render(picture: Picture, language: str) -> bytes:
    """The picture as PNG bytes, its texts in `language`.

    Most pictures are reduced to 256 colours, which keeps flat colours, text and emoji sharp at
    a third of the bytes, and takes less time to encode than the full colours would. Hues and
    Cues' pictures keep their full colours: the board has 480 that must stay exact."""
    image = draw(picture, language)
    if picture.kind in FULL_COLOUR:
        return _png(image, compress_level=3)
    return _png(image.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=3)


FULL_COLOUR = frozenset({"hues_board", "hues_closeup", "hues_card"})


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
