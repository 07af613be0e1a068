"""The board app (SPEC 16): a Telegram Mini App served by the web process."""
