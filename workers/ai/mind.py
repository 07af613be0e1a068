"""What the AI decisions of every game share: seeds, noise, and the fit of a text."""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt

from engine.rng import Rng
from workers.ai.gloss import gloss
from workers.ai.model import Vector, embed
from workers.ai.vocab import concept_matrix, lookup


def seed_for(*parts: object) -> int:
    """A 64-bit seed from what identifies one decision (room, game, round, seat, what):
    the same decision asked twice gets the same seed, on every machine."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def jitter(rng: Rng, count: int, scale: float) -> Vector:
    """`count` draws in [-scale, scale] from the seeded generator."""
    return np.array(
        [(rng.next64() / 2**64 * 2 - 1) * scale for _ in range(count)], dtype=np.float32
    )


def fit(text: str, english: Vector, local: Vector | None = None, language: str = "en") -> float:
    """How well a hint or clue fits something described by its names (cosine similarity of
    unit vectors): `english` embeds its English names, `local` its names in the room's
    `language` (None: the room speaks English).

    The model is English-centric, so a text is read in English where it can be: a phrase of
    the vocabulary, in any of its languages, means its English concept; a text in another
    language whose words the gloss dictionary knows is read as its English gloss. Any other
    text is compared with both descriptions and the closer counts (a hint often shares words
    with the names in its own language). docs/benchmarks.md says how well each language works."""
    concept = lookup(text)
    if concept is not None:
        return float(concept_matrix()[concept.number] @ english)
    english_gloss = gloss(text, language)
    if english_gloss is not None:
        return float(embed(english_gloss) @ english)
    meaning = embed(text.strip())
    score = float(meaning @ english)
    return score if local is None else max(score, float(meaning @ local))


def pick_top(rng: Rng, scores: Vector, allowed: np.ndarray, top_k: int) -> int:
    """The index of one of the `top_k` best allowed scores, chosen by the seeded generator
    (ties broken by index, so the choice never depends on sort stability)."""
    candidates = np.flatnonzero(allowed)
    order = candidates[np.lexsort((candidates, -scores[candidates]))]
    return int(order[rng.below(min(top_k, len(order)))])


def best(scores: npt.ArrayLike) -> int:
    """The index of the highest score (the first, on a tie)."""
    return int(np.argmax(np.asarray(scores)))
