"""Lifetime figures and leaderboards: what a game adds when it ends, and how it is read back.

A game adds its figures in the commit that ends it (`engine/store/commit.lua`), so they are added
exactly once however often its last command is handled. Only a game that finished (not one
abandoned or stopped) with at least two human players counts, and only for the human seats still
in it at the end (AI players never count).

What is kept, and for how long:

- a player's figures: one hash per player (`keys.user_stats`), a field per game and figure
  (`hintrigue:games`, `hintrigue:best` …), kept for good (a few hundred bytes per player);
- a group's totals (`keys.group_stats`, shown by /score), kept for good;
- a group's games of the last 90 days, for /top: one sorted set per group and game
  (`keys.leaderboard`), a member per game (`<game id>:<version>|<user>:<won>:<points>,…`, and
  `:<fewest>` after each for a game that keeps one) scored
  by its end time; members older than 90 days are trimmed by the next game's commit, and the
  key expires 91 days after the group's last game;
- the names those games' players had (`keys.player_names`, one hash per group), for the same
  91 days.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.games.base import Game
from engine.model import Phase, Room, SeatStatus
from engine.store import keys

DAY = 24 * 3600
TOP_WINDOW = 90 * DAY
TOP_TTL = TOP_WINDOW + DAY
MIN_HUMANS = 2
TOP_LINES = 10

BEST = frozenset({"best"})  # kept as the largest value seen, not added up
FEWEST = frozenset({"fewest"})  # kept as the smallest value seen, not added up


def counted_seats(room: Room) -> list[int]:
    """The seats whose figures a game that just ended adds (none when it does not count)."""
    if room.phase is not Phase.FINISHED:
        return []
    seats = [
        i for i, seat in enumerate(room.seats) if seat.status is not SeatStatus.LEFT and not seat.ai
    ]
    return seats if len(seats) >= MIN_HUMANS else []


def increments(room: Room, rules: Game, now: float) -> list[tuple[str, str]]:
    """What the commit ending a game adds: (key, operations as JSON) for each key it touches.

    The operations (`engine/store/commit.lua`): `incr` {field: n}, `max` {field: n}, `min`
    {field: n} (only when a figure is kept as the smallest), `hset` {field: value}, `zadd`
    [score, member], `trim` (drop sorted-set members scored below it), `expire` seconds.
    """
    seats = counted_seats(room)
    if not seats:
        return []
    game = rules.name
    won = set(rules.winners(room))
    ops: list[tuple[str, dict[str, Any]]] = []
    total: dict[str, int] = {"games": 1}
    for i in seats:
        seat = room.seats[i]
        figures = {"games": 1, "wins": int(i in won), **rules.seat_figures(room, i)}
        added = {name: n for name, n in figures.items() if name not in BEST | FEWEST}
        for name, n in added.items():
            if name not in ("games", "wins"):
                total[name] = total.get(name, 0) + n
        kept: dict[str, Any] = {
            "incr": {f"{game}:{name}": n for name, n in added.items()},
            "max": {f"{game}:{name}": figures[name] for name in BEST if name in figures},
        }
        fewest = {f"{game}:{name}": figures[name] for name in FEWEST if name in figures}
        if fewest:
            kept["min"] = fewest
        ops.append((keys.user_stats(seat.user_id), kept))
    played = [room.seats[i] for i in seats]
    results = ",".join(_result(room, rules, i, i in won) for i in seats)
    ops += [
        (keys.group_stats(room.chat_id), {"incr": total}),
        (
            keys.leaderboard(room.chat_id, game),
            {
                "zadd": [int(now), f"{room.game_id}:{room.version}|{results}"],
                "trim": int(now - TOP_WINDOW),
                "expire": TOP_TTL,
            },
        ),
        (
            keys.player_names(room.chat_id),
            {"hset": {str(s.user_id): s.name for s in played}, "expire": TOP_TTL},
        ),
    ]
    return [(key, json.dumps(op, ensure_ascii=False)) for key, op in ops]


def _result(room: Room, rules: Game, index: int, won: bool) -> str:
    """One seat's entry in a leaderboard member: `<user>:<won>:<points>`, and `:<fewest>` for a
    game that keeps a fewest figure (Wunchunk's chunks at the end)."""
    seat = room.seats[index]
    entry = f"{seat.user_id}:{int(won)}:{seat.score}"
    if FEWEST & set(rules.figures):
        fewest = rules.seat_figures(room, index)
        entry += "".join(f":{fewest[name]}" for name in sorted(FEWEST) if name in fewest)
    return entry


def player_figures(raw: dict[str, int], first_game: str) -> dict[str, dict[str, int]]:
    """A player's figures by game, from their stats hash (fields `<game>:<figure>`; fields
    without a game are the figures kept before figures were per game: `first_game`'s)."""
    games: dict[str, dict[str, int]] = {}
    for field, value in raw.items():
        game, _, name = field.rpartition(":")
        figures = games.setdefault(game or first_game, {})
        if name in BEST:
            figures[name] = max(figures.get(name, 0), value)
        elif name in FEWEST:
            figures[name] = min(figures.get(name, value), value)
        else:
            figures[name] = figures.get(name, 0) + value
    return {game: figures for game, figures in games.items() if figures.get("games")}


@dataclass(frozen=True)
class Line:
    """One player's line of a leaderboard."""

    user_id: int
    name: str
    wins: int
    points: int
    games: int
    fewest: int | None = None
    """The smallest fewest figure among its games (a game that keeps one; else None)."""


def leaderboard(members: list[str], names: dict[str, str]) -> list[Line]:
    """The leaderboard of a group's games (sorted-set members, see `increments`): by wins,
    then points, then fewer games, then name; at most `TOP_LINES` lines."""
    totals: dict[int, list[int]] = {}
    fewest: dict[int, int] = {}
    for member in members:
        _, _, results = member.partition("|")
        for result in results.split(","):
            try:
                user, won, points, *kept = (int(part) for part in result.split(":"))
            except ValueError:
                continue  # not a result this version wrote: skipped, not fatal
            figures = totals.setdefault(user, [0, 0, 0])
            figures[0] += won
            figures[1] += points
            figures[2] += 1
            if kept:
                fewest[user] = min(fewest.get(user, kept[0]), kept[0])
    lines = [
        Line(user, names.get(str(user), str(user)), wins, points, games, fewest.get(user))
        for user, (wins, points, games) in totals.items()
    ]
    lines.sort(key=lambda line: (-line.wins, -line.points, line.games, line.name, line.user_id))
    return lines[:TOP_LINES]
