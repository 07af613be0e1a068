"""Local play: `python -m tgbot dev`, its Redis, its clean-up, and the quick timers."""
