"""Each game's Telegram side (its messages, buttons, pictures and texts) in a folder of its own,
put in the bot's line-up in `tgbot.games.registry`."""
