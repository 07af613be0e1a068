"""Hintrigue's results picture: the standings, and per seat whom its decoys fooled and who
fooled it over the game. Drawn in the current language (`tgbot.i18n`), and sized to be read on
a phone: shown 390 px wide, its smallest text is still 11 px high (SPEC 13)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from tgbot.i18n import _, ngettext
from tgbot.pictures.draw import Color, draw_text
from tgbot.pictures.model import ResultRow, ResultsPicture, Tally

WIDTH = 720
PAD = 24
HEAD = 92
ROW = 184
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
    draw_text(image, (left + 42 - 9 * len(number), top + 24), number, 30, (255, 255, 255),
              bold=True)  # fmt: skip
    points = ngettext("{n} point", "{n} points", row.points).format(n=row.points)
    points_width = draw_text(image, (right - 16, top + 18), points, 34, INK, bold=True,
                             anchor_right=True)  # fmt: skip
    name = row.name + {"left": _(" (left)"), "spectating": _(" (sitting out)")}.get(row.status, "")
    name_room = right - 16 - points_width - 20 - (left + 84)
    draw_text(image, (left + 84, top + 18), name, 34, LEFT if row.status == "left" else INK,
              bold=True, room=name_room)  # fmt: skip
    figures = " · ".join(
        [
            ngettext("{n} find", "{n} finds", row.finds).format(n=row.finds),
            ngettext("{n} vote stolen", "{n} votes stolen", row.stolen).format(n=row.stolen),
        ]
    )
    text_room = right - 16 - (left + 84)
    draw_text(image, (left + 84, top + 64), figures, 30, SOFT, room=text_room)
    fooled = _("Fooled: {names}").format(names=tallies(row.fooled))
    draw_text(image, (left + 84, top + 102), fooled, 30, INK, room=text_room)
    fooled_by = _("Was fooled by: {names}").format(names=tallies(row.fooled_by))
    draw_text(image, (left + 84, top + 140), fooled_by, 30, INK, room=text_room)
