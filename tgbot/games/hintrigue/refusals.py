"""What players are told when the rules refuse one of Hintrigue's own commands."""

from __future__ import annotations

from engine.games.hintrigue.errors import Refusal
from tgbot.i18n import N_, Texts

REFUSALS: Texts[Refusal] = Texts({
    Refusal.DECK_TOO_SMALL: N_("That deck is too small for these settings: {detail}."),
    Refusal.CARD_NOT_IN_HAND: N_("That card is not in your hand."),
    Refusal.NO_CARD_CHOSEN: N_("Choose your card first, then send the hint."),
    Refusal.HINT_EMPTY: N_("The hint is empty. Send some text."),
    Refusal.HINT_TOO_LONG: N_("The hint is too long: at most 200 characters."),
    Refusal.ALREADY_PLAYED: N_("You have already played your card this round."),
    Refusal.OWN_CARD: N_("You cannot vote for your own card."),
    Refusal.CARD_NOT_ON_TABLE: N_("That card is not on the table."),
    Refusal.SAME_VOTE: N_("You already voted for that card."),
})  # fmt: skip
