"""Hues and Cues in Telegram: the board, the reveal and the points in the group; the card,
the cues and the cones in private (SPEC 11.3)."""
