"""Wunchunk in Telegram: the board in the group, each turn built in private (SPEC 11.5)."""
