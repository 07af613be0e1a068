"""Hintrigue's results picture: the standings, and per seat whom its decoys fooled and who
fooled it over the game. Drawn in the current language (`tgbot.i18n`), and sized to be read on
a phone: shown 390 px wide, its smallest text is still 11 px high (SPEC 13)."""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict, Field

from engine.games.hintrigue.model import own_seats
from engine.games.hintrigue.views import group_view
from engine.model import Phase as TablePhase
from engine.model import Room
from tgbot.i18n import _, ngettext
from tgbot.pictures.draw import Color, draw_text
from tgbot.pictures.model import Picture
from tgbot.table.render.group import plain_names, ranks


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


class ResultsPicture(Picture):
    """Hintrigue's results picture on the final message."""

    kind: Literal["results"] = "results"
    finished: bool = True
    """False: the game ended early, without a winner."""
    rows: list[ResultRow]

    def draw(self) -> Image.Image:
        """The picture, in the language spoken."""
        return draw_results(self)


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


def results_picture(room: Room) -> ResultsPicture:
    """What the final's results picture shows: the standings, and per seat whom its decoys
    fooled and who fooled it over the game."""
    view = group_view(room)
    who = plain_names(room)
    winners = set(view.winners) if room.phase is TablePhase.FINISHED else set()
    rows = []
    own = own_seats(room)
    for rank, index in zip(ranks(room, view.standings), view.standings, strict=True):
        seat, mine = room.seats[index], own[index]
        fooled_by = [
            Tally(name=who[other], times=s.fooled[index])
            for other, s in enumerate(own)
            if index in s.fooled
        ]
        rows.append(
            ResultRow(
                rank=rank,
                name=who[index],
                points=seat.score,
                finds=mine.finds,
                stolen=mine.stolen,
                status=seat.status.value,
                winner=index in winners,
                fooled=[Tally(name=who[v], times=t) for v, t in sorted(mine.fooled.items())],
                fooled_by=fooled_by,
            )
        )
    return ResultsPicture(finished=room.phase is TablePhase.FINISHED, rows=rows)
