"""How Hintrigue's cards look in messages and buttons, and the answers to pressing them."""

from __future__ import annotations

from engine.games.hintrigue.decks import scene
from engine.games.hintrigue.settings import settings_of
from engine.model import Room
from tgbot.i18n import N_, Texts

ANSWERS = Texts({
    "CARD_CHOSEN": N_("Chosen: {card}. Now send your hint as a message."),
    "DECOY_ACCEPTED": N_(
        "Decoy played: {card}. Vote on the table in the group once every card is in."
    ),
    "VOTE_ACCEPTED": N_("Vote recorded: {card}"),
    "VOTE_CHANGED": N_("Vote changed to {card}"),
    "JOINED_IN": N_("You joined the game in <b>{group}</b>. Your cards come here when it starts."),
})  # fmt: skip
"""What a press of a card (or a join by the lobby's link) is answered with, by name."""


def card(room: Room, number: int) -> str:
    """A card as it looks everywhere: its scene."""
    return scene(settings_of(room).deck, number)
