"""Hintrigue decisions of an AI seat: pure, deterministic functions of what the seat may see
(its hand, the hint, the table, the room's language) and a seed.

- As storyteller, `choose_hint` picks a card and a hint of the vocabulary that fits it
  (better than it fits the deck's average card), never one naming an emoji of that card (in
  the room's language or English). It picks among the best few cards and the best few hints
  with the seeded generator: a hint that only its card fits is found by everyone, and then
  scores the storyteller nothing.
- Otherwise `choose_decoy` plays the card of its hand that fits the hint best, and
  `choose_vote` votes for the table card that fits best, never its own; both with a little
  seeded noise, so an AI is a player and not an oracle.

`decide(room, seat)` turns them into the engine commands that a seat owes now.

How well an AI understands a hint typed by a person depends on its language: the model is
English-centric. On 24 hand-written hints per language that were never tuned on, each card
put among five others (chance 1 in 6), the AI found the card for 15 in English, 14 in French
and German, 13 in Italian and Portuguese, 12 in Spanish, 10 in Russian (`bench/ai.py
--languages`); it misses allusions (films, fairy tales). Hints of the vocabulary, as AI
players give them, are understood alike in all seven languages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.commands import GiveHint
from engine.games.hintrigue.commands import ChooseCard, Command, PlayDecoy, Vote
from engine.games.hintrigue.decks import decks, scene
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.hintrigue.settings import settings_of
from engine.games.hintrigue.views import waiting_for
from engine.model import Room
from engine.rng import Rng
from workers.ai.mind import best, fit, jitter, pick_top, seed_for
from workers.ai.model import Vector, describe, embed
from workers.ai.vocab import allowed, concept_matrix, concepts, scene_words


@dataclass(frozen=True)
class Style:
    """How an AI plays: how far from the single best choice it may stray."""

    card_top_k: int = 3
    """The storyteller's card is one of the `card_top_k` cards the vocabulary suits best."""
    hint_top_k: int = 8
    """Its hint is one of the `hint_top_k` concepts that fit that card best."""
    decoy_noise: float = 0.02
    vote_noise: float = 0.1
    """Noise added to each card's fit (cosine similarity) before the best is taken. Tuned
    with `bench/ai.py`: AI voters find an AI storyteller's card about 3 times as often as
    chance, and the storyteller scores (some but not all find it) in about two rounds of
    three."""


DEFAULT_STYLE = Style()


@lru_cache(maxsize=8192)
def card_vector(deck: str, card: int, language: str = "en") -> Vector:
    """A card's meaning: its emoji's names in a language, embedded."""
    return embed(describe(scene(deck, card), language))


def card_fit(deck: str, card: int, hint: str, language: str) -> float:
    """How well a hint fits a card, as `workers.ai.mind.fit` says."""
    local = None if language == "en" else card_vector(deck, card, language)
    return fit(hint, card_vector(deck, card), local, language)


@lru_cache(maxsize=64)
def concept_bias(deck: str) -> Vector:
    """How well each concept fits the deck's cards on average. Some concepts sit close to
    everything in the model's space (`in the sky`); a hint is ranked by how much better it
    fits its card than it fits an average card."""
    cards = np.stack([card_vector(deck, card) for card in range(len(decks()[deck]))])
    bias = (cards @ concept_matrix().T).mean(axis=0).astype(np.float32)
    bias.setflags(write=False)
    return bias


@lru_cache(maxsize=8192)
def _hint_mask(deck: str, card: int, language: str) -> np.ndarray:
    return allowed(scene_words(scene(deck, card), language), language)


def choose_hint(
    hand: Sequence[int], deck: str, language: str, seed: int, style: Style = DEFAULT_STYLE
) -> tuple[int, str]:
    """The storyteller's card (from its hand) and its hint, in the room's language."""
    rng = Rng(seed)
    matrix = concept_matrix()
    bias = concept_bias(deck)
    options: list[tuple[float, int, Vector, np.ndarray]] = []
    for card in sorted(set(hand)):
        scores = matrix @ card_vector(deck, card) - bias
        mask = _hint_mask(deck, card, language)
        options.append((float(scores[mask].max()), card, scores, mask))
    options.sort(key=lambda option: (-option[0], option[1]))
    _, card, scores, mask = options[rng.below(min(style.card_top_k, len(options)))]
    concept = concepts()[pick_top(rng, scores, mask, style.hint_top_k)]
    return card, concept.texts[language]


def _noisy_best(
    cards: Sequence[int], deck: str, hint: str, language: str, seed: int, noise: float
) -> int:
    fits = np.array([card_fit(deck, c, hint, language) for c in cards], dtype=np.float32)
    return cards[best(fits + jitter(Rng(seed), len(cards), noise))]


def choose_decoy(
    hand: Sequence[int],
    deck: str,
    hint: str,
    language: str,
    seed: int,
    style: Style = DEFAULT_STYLE,
) -> int:
    """The card of the hand that fits the hint best (a little noise)."""
    return _noisy_best(sorted(set(hand)), deck, hint, language, seed, style.decoy_noise)


def choose_vote(
    table: Sequence[int],
    own: int | None,
    deck: str,
    hint: str,
    language: str,
    seed: int,
    style: Style = DEFAULT_STYLE,
) -> int:
    """The table card that fits the hint best (a little noise), never the seat's own."""
    cards = [c for c in table if c != own]
    return _noisy_best(cards, deck, hint, language, seed, style.vote_noise)


def room_seed(room: Room, seat: int, what: str, salt: object = 0) -> int:
    """The seed of one decision of one seat in this room's game and round."""
    rnd = round_of(room)
    number = rnd.no if rnd is not None else 0
    return seed_for(
        room.chat_id, room.topic, room.game_id, room.opened_at, number, seat, what, salt
    )


def decide(room: Room, seat: int, style: Style = DEFAULT_STYLE, salt: object = 0) -> list[Command]:
    """The commands the AI at `seat` owes the room now, in order (empty: it owes nothing).

    It reads only what the seat may see: its own hand and play, the hint, the table, the
    room's settings (deck, language) and the ids that make its seed.

    Every command names its game and round, so one that arrives after the room moved on is
    refused by the engine and changes nothing; asked twice, `decide` answers the same.
    """
    rnd = round_of(room)
    if rnd is None or seat not in waiting_for(room):
        return []
    me, hand = room.seats[seat], own_seats(room)[seat].hand
    deck = settings_of(room).deck
    ids = {"user_id": me.user_id, "game_id": room.game_id or None, "round_no": rnd.no}
    if phase_of(room) is Phase.HINT and hand:
        card, hint = choose_hint(
            hand, deck, room.settings.language, room_seed(room, seat, "hint", salt), style
        )
        return [ChooseCard(card=card, **ids), GiveHint(user_id=me.user_id, text=hint)]
    if phase_of(room) is Phase.DECOYS and hand and rnd.hint is not None:
        seed = room_seed(room, seat, "decoy", salt)
        card = choose_decoy(hand, deck, rnd.hint, room.settings.language, seed, style)
        return [PlayDecoy(card=card, **ids)]
    if phase_of(room) is Phase.VOTING and rnd.hint is not None:
        own = rnd.plays.get(seat)
        if not [c for c in rnd.table if c != own]:
            return []
        seed = room_seed(room, seat, "vote", salt)
        card = choose_vote(rnd.table, own, deck, rnd.hint, room.settings.language, seed, style)
        return [Vote(card=card, **ids)]
    return []
