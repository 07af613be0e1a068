"""Points of one round: the whole points rule of Hues and Cues in one pure function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.games.huescues.board import distance

CONE_POINTS = {0: 3, 1: 2, 2: 1}
"""A cone's points by its distance from the chosen colour (further: none)."""
GIVER_CAP = 9


def cone_points(colour: int, cell: int) -> int:
    """A cone's points: 3 on the colour, 2 inside its frame, 1 just outside it."""
    return CONE_POINTS.get(distance(colour, cell), 0)


def score_round(
    giver: int,
    colour: int,
    cones: Sequence[Mapping[int, int]],
    guessers: Sequence[int],
    giver_scores: bool = True,
) -> tuple[dict[int, int], list[int]]:
    """Return (points by seat, seats with a cone on the colour, once per such cone).

    Args:
        giver: the cue giver's seat.
        colour: the chosen cell.
        cones: seat → cell, for the first cones and then the second ones (confirmed only).
        guessers: the seats that could guess when guessing closed.
        giver_scores: False in a tie-break round the cue giver is not tied in.

    Each cone scores 3, 2 or 1 at distance 0, 1 or 2. The cue giver scores 1 per cone at
    distance 0 or 1 (2 per such cone when exactly two seats guess), at most 9 a round.
    """
    points = dict.fromkeys(sorted({giver, *guessers, *(s for c in cones for s in c)}), 0)
    exact: list[int] = []
    close = 0
    for phase in cones:
        for seat, cell in phase.items():
            points[seat] += cone_points(colour, cell)
            if distance(colour, cell) == 0:
                exact.append(seat)
            if distance(colour, cell) <= 1:
                close += 1
    if giver_scores:
        each = 2 if len(guessers) == 2 else 1
        points[giver] += min(GIVER_CAP, close * each)
    return points, sorted(exact)
