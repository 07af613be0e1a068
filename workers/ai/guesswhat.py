"""Guess What! decisions of an AI seat: pure, deterministic functions of the board, the clue,
the room's language and a seed.

- As the active player, `choose_clue` picks one icon per column and a clue of the vocabulary
  that points at those three rather than at their neighbours (the clue whose weakest column
  is clearest, among the best few, by the seeded generator), never one naming an icon of the
  board (in the room's language or English).
- As a guesser, `choose_guess` takes in each column the icon that fits the clue best, with a
  little seeded noise; `decide` then confirms it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from engine.games.guesswhat import icon
from engine.games.guesswhat.commands import Command, ConfirmGuess, GiveClue, GuessIcon, PickIcon
from engine.games.guesswhat.model import COLUMNS, ROWS, Phase, State
from engine.model import Room
from engine.rng import Rng
from workers.ai.mind import best, fit, jitter, pick_top, seed_for
from workers.ai.model import Vector, embed, emoji_name
from workers.ai.vocab import allowed, concept_matrix, concepts, name_words, words


@dataclass(frozen=True)
class Style:
    """How an AI plays Guess What!."""

    clue_top_k: int = 3
    """The clue is one of the `clue_top_k` concepts that single out three icons best."""
    guess_noise: float = 0.08
    """Noise added to each icon's fit before a guesser takes the best of its column: AI
    guessers find an AI clue's three icons about 85 % of the time (`bench/ai.py`)."""


DEFAULT_STYLE = Style()


@lru_cache(maxsize=2048)
def icon_vector(number: int, language: str = "en") -> Vector:
    """An icon's meaning: its name (the game's English name, else its emoji name in the
    language), embedded."""
    if language == "en":
        return embed(icon(number).name)
    return embed(emoji_name(icon(number).emoji, language))


@lru_cache(maxsize=4096)
def _icon_words(number: int, language: str) -> frozenset[str]:
    return name_words(icon(number).emoji, language) | frozenset(words(icon(number).name))


def columns(board: Sequence[int]) -> list[list[int]]:
    """The board's icons by column (A, B, C)."""
    return [list(board[c * ROWS : (c + 1) * ROWS]) for c in range(COLUMNS)]


def choose_clue(
    board: Sequence[int], language: str, seed: int, style: Style = DEFAULT_STYLE
) -> tuple[list[int], str]:
    """The active player's icons (one per column) and its clue, in the room's language."""
    rng = Rng(seed)
    forbidden = frozenset().union(*(_icon_words(i, language) for i in board))
    mask = allowed(forbidden, language)
    fits = concept_matrix() @ np.stack([icon_vector(i) for i in board]).T
    by_column = fits.reshape(len(fits), COLUMNS, ROWS)
    ordered = np.sort(by_column, axis=2)
    clarity = (ordered[:, :, -1] - ordered[:, :, -2]).min(axis=1)
    concept = pick_top(rng, clarity, mask, style.clue_top_k)
    picks = [
        column[int(np.argmax(by_column[concept, c]))] for c, column in enumerate(columns(board))
    ]
    return picks, concepts()[concept].texts[language]


def choose_guess(
    board: Sequence[int], clue: str, language: str, seed: int, style: Style = DEFAULT_STYLE
) -> list[int]:
    """A guesser's icon in each column: the one that fits the clue best (a little noise)."""
    rng = Rng(seed)
    guess = []
    for column in columns(board):
        scores = [
            fit(
                clue,
                icon_vector(i),
                None if language == "en" else icon_vector(i, language),
                language,
            )
            for i in column
        ]
        guess.append(column[best(np.asarray(scores) + jitter(rng, len(column), style.guess_noise))])
    return guess


def state_seed(state: State, seat: int, *identity: object) -> int:
    """The seed of a seat's decision in this turn: `identity` names the game (e.g. its chat,
    topic and game id), so the same turn asked twice decides the same."""
    return seed_for(*identity, state.round.no if state.round is not None else 0, seat)


def decide(
    state: State, seat: int, language: str, seed: int, style: Style = DEFAULT_STYLE
) -> list[Command]:
    """The commands the AI at `seat` owes the game now, in order (empty: it owes nothing).

    `seed` identifies the decision (`state_seed`). The commands name their round, so one that
    arrives after the game moved on is refused and changes nothing.
    """
    rnd = state.round
    if rnd is None or seat not in state.waiting_for():
        return []
    user = state.seats[seat].user_id
    if state.phase is Phase.CLUE:
        picks, clue = choose_clue(state.board, language, seed, style)
        commands: list[Command] = [PickIcon(user_id=user, icon=i, round_no=rnd.no) for i in picks]
        return [*commands, GiveClue(user_id=user, text=clue)]
    if state.phase is Phase.GUESS and rnd.clue is not None:
        guess = choose_guess(state.board, rnd.clue, language, seed, style)
        commands = [GuessIcon(user_id=user, icon=i, round_no=rnd.no) for i in guess]
        return [*commands, ConfirmGuess(user_id=user, round_no=rnd.no)]
    return []


def in_room(room: Room, seat: int) -> list[Any]:
    """What the AI at `seat` does now in the room's game (its mind as the workers call it)."""
    state = room.play
    if not isinstance(state, State):
        return []
    seed = state_seed(state, seat, room.chat_id, room.topic, room.game_id)
    return list(decide(state, seat, room.settings.language, seed))
