"""Guess What! in Telegram: the board and the reveal in the group, picks, clue and guesses in
private (SPEC 11.2)."""
