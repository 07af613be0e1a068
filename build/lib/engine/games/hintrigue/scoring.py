"""Points of one round: the whole points table of the rules in one pure function."""

from __future__ import annotations

from collections.abc import Mapping

FIND_POINTS = 3
CONSOLATION_POINTS = 2
STOLEN_VOTE_POINTS = 1


def score_round(
    storyteller: int, plays: Mapping[int, int], votes: Mapping[int, int]
) -> tuple[dict[int, int], list[int]]:
    """Return (points by seat, finders) for a round.

    Args:
        storyteller: the storyteller's seat.
        plays: seat → card it put on the table (the storyteller's included).
        votes: seat → card, for the votes that stand when voting closes.
    """
    target = plays[storyteller]
    owners = {card: seat for seat, card in plays.items()}
    points = dict.fromkeys(sorted(set(plays) | set(votes)), 0)
    finders = sorted(seat for seat, card in votes.items() if card == target)
    if 0 < len(finders) < len(votes):
        points[storyteller] += FIND_POINTS
        for seat in finders:
            points[seat] += FIND_POINTS
    else:
        for seat in votes:
            points[seat] += CONSOLATION_POINTS
    for card in votes.values():
        if card != target:
            points[owners[card]] += STOLEN_VOTE_POINTS
    return points, finders
