"""The AI players' minds: pure decisions for Hintrigue, Guess What! and Hues and Cues seats,
each game's in its own module, with what they share (the meaning model, the vocabulary, the
glosses); `workers.games` registers them, and warms them up.

What a seat's job calls (each loads the model on first use, once per process, offline):

- `hintrigue.decide(room, seat)`: the engine commands the AI at `seat` owes now (the card and
  hint as storyteller, its decoy, its vote), empty when it owes nothing.
- `guesswhat.decide(state, seat, language, seed)`: the same for Guess What! (picks and clue,
  or guess and confirmation); `guesswhat.state_seed(state, seat, chat, topic, game_id)` makes
  the seed, since a Guess What! state does not know its room.
- `huescues`: Hues and Cues' cues and cones, from a table of colour words compared in CIELAB
  (no model: numpy only).
- `hunch.decide(view, seed)`: a Hunch! seat's secrets, clues, bids, placements, bargain
  choice and hunches, from its `seat_view` alone, with two tables of word knowledge
  (`hunch_clues.tsv`, `hunch_words.tsv`; no model); `hunch.in_room(room, seat)` as the
  workers call it.
"""
