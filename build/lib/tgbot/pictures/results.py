"""Hintrigue's results picture: the standings, and per seat whom its decoys fooled and who
fooled it over the game. Drawn in the current language (`tgbot.i18n`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from tgbot.i18n import _, ngettext
from tgbot.pictures.draw import Color, draw_text
from tgbot.pictures.model import ResultRow, ResultsPicture, Tally

WIDTH = 960
PAD = 28
HEAD = 96
ROW = 150
GAP = 12
BACKGROUND: Color = (243, 240, 232)
CARD: Color = (255, 255, 255)
WINNER: Color = (255, 243, 196)
INK: Color = (34, 34, 40)
SOFT: Color = (98, 98, 110)
GOLD: Color = (214, 160, 20)
BADGE: Color = (70, 90, 150)
LEFT: Color = (150, 150, 150)


def tallies(items: list[Tally]) -> str:
    """"Ann ×2, Bob" ("—" for nobody)."""
    if not items:
        return "—"
    return ", ".join(t.name if t.times == 1 else f"{t.name} ×{t.times}" for t in items)


def draw_results(picture: ResultsPicture) -> Image.Image:
    """The results picture as an image (RGB)."""
    rows = picture.rows
    height = HEAD + len(rows) * (ROW + GAP) + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    title = _("🏆 Standings") if picture.finished else _("Standings (the game ended early)")
    draw_text(image, (PAD, PAD), title, 40, INK, bold=True, room=WIDTH - 2 * PAD)
    y = HEAD
    for row in rows:
        _row(image, row, y)
        y += ROW + GAP
    return image


def _row(image: Image.Image, row: ResultRow, top: int) -> None:
    draw = ImageDraw.Draw(image)
    left, right = PAD, WIDTH - PAD
    fill = WINNER if row.winner else CARD
    draw.rounded_rectangle((left, top, right, top + ROW), radius=16, fill=fill,
                           outline=GOLD if row.winner else None, width=3)  # fmt: skip
    badge = GOLD if row.winner else BADGE
    draw.ellipse((left + 16, top + 16, left + 68, top + 68), fill=badge)
    number = str(row.rank)
    draw_text(image, (left + 42 - 9 * len(number), top + 26), number, 28, (255, 255, 255),
              bold=True)  # fmt: skip
    points = ngettext("{n} point", "{n} points", row.points).format(n=row.points)
    points_width = draw_text(image, (right - 20, top + 22), points, 32, INK, bold=True,
                             anchor_right=True)  # fmt: skip
    name = row.name + {"left": _(" (left)"), "spectating": _(" (sitting out)")}.get(row.status, "")
    name_room = right - 20 - points_width - 24 - (left + 88)
    draw_text(image, (left + 88, top + 20), name, 32, LEFT if row.status == "left" else INK,
              bold=True, room=name_room)  # fmt: skip
    figures = " · ".join(
        [
            ngettext("{n} find", "{n} finds", row.finds).format(n=row.finds),
            ngettext("{n} vote stolen", "{n} votes stolen", row.stolen).format(n=row.stolen),
        ]
    )
    text_room = right - 20 - (left + 88)
    draw_text(image, (left + 88, top + 62), figures, 22, SOFT, room=text_room)
    fooled = _("Fooled: {names}").format(names=tallies(row.fooled))
    draw_text(image, (left + 88, top + 90), fooled, 22, INK, room=text_room)
    fooled_by = _("Was fooled by: {names}").format(names=tallies(row.fooled_by))
    draw_text(image, (left + 88, top + 116), fooled_by, 22, INK, room=text_room)
