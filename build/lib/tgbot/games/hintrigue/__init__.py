"""Hintrigue in Telegram: the storyteller's card and hint and the decoys in private, the vote
on the table in the group (SPEC 1–8)."""
