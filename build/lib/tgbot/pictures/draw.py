"""Drawing text with colour emoji, from the fonts that ship in `fonts/` (never the OS's).

Text is DejaVu Sans (Latin, Cyrillic, Greek, Hebrew, Arabic…); emoji are Noto Color Emoji, a
bitmap (CBDT) font that Pillow draws in colour only at its one size, 109 px, so each emoji is
drawn once at that size and scaled (cached per emoji and size). Layout is Pillow's basic engine
on purpose: it needs no libraqm/fribidi on the host, so every host draws the same pixels. A run
of right-to-left letters is put in visual order by reversing it (Arabic letters keep their
isolated forms: no shaping without libraqm);
emoji sequences (ZWJ, skin tones, flags) are drawn as their separate emoji. Any string is
drawn without failing: what neither font has shows as the text font's empty box.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
TEXT_FONT = FONTS / "DejaVuSans.ttf"
BOLD_FONT = FONTS / "DejaVuSans-Bold.ttf"
EMOJI_FONT = FONTS / "NotoColorEmoji.ttf"
EMOJI_SIZE = 109  # the only size of Noto Color Emoji's bitmaps
ELLIPSIS = "…"

# Joiners, variation selectors, skin-tone modifiers and tags: they modify the emoji before
# them, which the basic layout draws on its own.
_SKIPPED = {0x200D, 0xFE0E, 0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)}
_RTL = ("R", "AL")

Color = tuple[int, int, int]


@lru_cache(maxsize=32)
def text_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The text font at a size (pixels)."""
    path = BOLD_FONT if bold else TEXT_FONT
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def emoji_font() -> ImageFont.FreeTypeFont:
    """The colour emoji font at its bitmaps' size."""
    return ImageFont.truetype(str(EMOJI_FONT), EMOJI_SIZE, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def _glyph(char: str) -> bytes:
    """The text font's pixels of one character (the missing-glyph box for one it lacks)."""
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((4, 4), char, font=text_font(20), fill=255)
    return image.tobytes()


def _in_text_font(char: str) -> bool:
    return _glyph(char) != _glyph("\uffff")


@lru_cache(maxsize=4096)
def _in_emoji_font(char: str) -> bool:
    left, top, right, bottom = emoji_font().getbbox(char)
    return bottom > top


@lru_cache(maxsize=512)
def emoji_image(char: str, size: int) -> Image.Image:
    """One emoji in colour, `size` pixels high (RGBA)."""
    font = emoji_font()
    left, top, right, bottom = font.getbbox(char)
    big = Image.new("RGBA", (max(1, int(right - left)), max(1, int(bottom - top))), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((-int(left), -int(top)), char, font=font, embedded_color=True)
    width = max(1, round(big.width * size / big.height))
    return big.resize((width, size), Image.Resampling.LANCZOS)


def _clean(text: str) -> str:
    """Drop control and format characters (direction marks, zero-width…) but joiners; line
    breaks and tabs become spaces."""
    text = " ".join(text.split("\n")).replace("\t", " ").replace("\r", " ")
    return "".join(
        c for c in text
        if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co") or ord(c) == 0x200D
    )  # fmt: skip


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[bool, str], ...]:
    """The text split into runs: (True, one emoji) or (False, text), in visual order."""
    text = _clean(text)
    out: list[tuple[bool, str]] = []
    for index, char in enumerate(text):
        code = ord(char)
        if code in _SKIPPED:
            continue
        following = text[index + 1] if index + 1 < len(text) else ""
        is_emoji = not char.isascii() and _in_emoji_font(char) and (
            code >= 0x1F000 or following == "\ufe0f" or not _in_text_font(char)
        )
        if is_emoji:
            out.append((True, char))
        elif out and not out[-1][0]:
            out[-1] = (False, out[-1][1] + char)
        else:
            out.append((False, char))
    return tuple((emoji, _visual(part) if not emoji else part) for emoji, part in out)


def _visual(run: str) -> str:
    """Each stretch of right-to-left letters (with the spaces and neutrals between them, but
    no left-to-right letter or digit) reversed, so it reads right to left in a left-to-right
    line."""
    out: list[str] = []
    index = 0
    while index < len(run):
        if unicodedata.bidirectional(run[index]) not in _RTL:
            out.append(run[index])
            index += 1
            continue
        end = last = index
        while end < len(run) and unicodedata.bidirectional(run[end]) not in ("L", "EN", "AN"):
            if unicodedata.bidirectional(run[end]) in _RTL:
                last = end
            end += 1
        out.append(run[index : last + 1][::-1])
        index = last + 1
    return "".join(out)


@lru_cache(maxsize=8192)
def width(text: str, size: int, bold: bool = False) -> int:
    """How wide `text` is drawn at `size`."""
    font = text_font(size, bold)
    total = 0
    for emoji, part in runs(text):
        total += emoji_image(part, size).width if emoji else round(font.getlength(part))
    return total


def fit(text: str, size: int, room: int, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis to fit `room` pixels."""
    if width(text, size, bold) <= room:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if width(text[:middle].rstrip() + ELLIPSIS, size, bold) <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def draw_text(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: Color,
    bold: bool = False,
    room: int | None = None,
    anchor_right: bool = False,
) -> int:
    """Draw `text` with its top-left (or top-right) at `xy`, shortened to `room` pixels;
    return its width."""
    if room is not None:
        text = fit(text, size, room, bold)
    font = text_font(size, bold)
    x, y = xy
    if anchor_right:
        x -= width(text, size, bold)
    start = x
    draw = ImageDraw.Draw(image)
    ascent = font.getmetrics()[0]
    for emoji, part in runs(text):
        if emoji:
            picture = emoji_image(part, size)
            image.paste(picture, (x, y + max(0, ascent - size) + size // 8), picture)
            x += picture.width
        else:
            draw.text((x, y), part, font=font, fill=fill)
            x += round(font.getlength(part))
    return x - start
