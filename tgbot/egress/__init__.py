"""Egress: what the bot sends, in order per chat, within Telegram's limits: outgoing messages,
their delivery under a lease, and the upload cache of pictures Telegram already has."""
