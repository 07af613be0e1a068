"""Hunch!'s Telegram side (SPEC 11.4): its messages, buttons, pictures and texts."""
