"""Points of one round: the whole points rule of Guess What! in one pure function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def score_round(
    active: int,
    answer: Sequence[int],
    guesses: Mapping[int, Sequence[int]],
    guessers: Sequence[int],
    connoisseurs: bool,
) -> tuple[dict[int, int], list[int]]:
    """Return (points by seat, correct guessers) for a round.

    Args:
        active: the active player's seat.
        answer: its icons in columns A, B, C.
        guesses: seat → icons in A, B, C, for the confirmed guesses only.
        guessers: every seat that could guess when guessing closed (confirmed or not).
        connoisseurs: the active player scores nothing when every guesser was correct.
    """
    correct = sorted(seat for seat, guess in guesses.items() if list(guess) == list(answer))
    points = dict.fromkeys(sorted({active, *guessers, *guesses}), 0)
    for seat in correct:
        points[seat] += 1
    everyone = bool(guessers) and set(guessers) <= set(correct)
    if not (connoisseurs and everyone):
        points[active] += len(correct)
    return points, correct
