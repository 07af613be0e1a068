"""The table's Telegram side, for every game: the service that runs commands, the handlers
(commands, presses, private chats), the lobby and shared lines, endings and callback data."""
