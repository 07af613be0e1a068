"""The AI players' mind: pure decisions for Hintrigue, Guess What! and Hues and Cues seats.

What a seat's job calls (each loads the model on first use, once per process, offline):

- `hintrigue.decide(room, seat)`: the engine commands the AI at `seat` owes now (the card and
  hint as storyteller, its decoy, its vote), empty when it owes nothing.
- `guesswhat.decide(state, seat, language, seed)`: the same for Guess What! (picks and clue,
  or guess and confirmation); `guesswhat.state_seed(state, seat, chat, topic, game_id)` makes
  the seed, since a Guess What! state does not know its room.
- `huescues`: Hues and Cues' cues and cones, from a table of colour words compared in CIELAB
  (no model: numpy only).
- `warm_up()`: load the model and the vocabulary ahead of the first decision.
"""

from __future__ import annotations

from engine.games.hintrigue.decks import decks
from workers.ai import huescues
from workers.ai.gloss import dictionary
from workers.ai.hintrigue import concept_bias
from workers.ai.model import load
from workers.ai.vocab import LANGUAGES, concept_matrix


def warm_up() -> None:
    """Load the model, embed the vocabulary, build the gloss dictionaries and compare the
    colour table with the board (about a second; a worker may call it when it starts, or
    leave it to the first decision)."""
    load()
    concept_matrix()
    for language in LANGUAGES[1:]:
        dictionary(language)
    for deck in decks():
        concept_bias(deck)
    huescues.variants()
