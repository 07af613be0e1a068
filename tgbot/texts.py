"""Every user-facing string, in one catalog marked for translation (gettext); English first."""

from __future__ import annotations

import gettext
from pathlib import Path

from engine.errors import ErrorCode

_translation = gettext.translation(
    "hintrigue", localedir=Path(__file__).parent / "locale", fallback=True
)
_ = _translation.gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """Plural-aware lookup."""
    return _translation.ngettext(singular, plural, n)


ERRORS: dict[ErrorCode, str] = {
    ErrorCode.NO_GAME: _("There is no game here. Start one with /newgame."),
    ErrorCode.GAME_EXISTS: _("A game is already open in this group."),
    ErrorCode.NOT_IN_GAME: _("You are not in this game."),
    ErrorCode.IN_OTHER_GAME: _("You are already playing in {detail}. Leave that game first."),
    ErrorCode.ALREADY_JOINED: _("You have already joined."),
    ErrorCode.ROOM_FULL: _("This game is full."),
    ErrorCode.HAS_LEFT: _("You left this game: you cannot play in it again."),
    ErrorCode.TOO_LATE_TO_JOIN: _("Too late to join: the last turn has started."),
    ErrorCode.NOT_ALLOWED: _("Only the game's host or a group admin can do that."),
    ErrorCode.NOT_ENOUGH_PLAYERS: _("At least 3 players are needed to start."),
    ErrorCode.PRIVATE_CHAT_MISSING: _(
        "Not yet: {detail} must first open a private chat with me (the link is in the lobby), "
        "so that I can deal them cards."
    ),
    ErrorCode.BAD_SETTING: _("That setting is not valid: {detail}."),
    ErrorCode.DECK_TOO_SMALL: _("That deck is too small for these settings: {detail}."),
    ErrorCode.WRONG_PHASE: _("That is not possible right now."),
    ErrorCode.NOT_STORYTELLER: _("Only the storyteller does that."),
    ErrorCode.NOT_IN_ROUND: _("You are not playing this round; you play from the next one."),
    ErrorCode.CARD_NOT_IN_HAND: _("That card is not in your hand."),
    ErrorCode.NO_CARD_CHOSEN: _("Choose your card first, then send the hint."),
    ErrorCode.HINT_EMPTY: _("The hint is empty. Send some text."),
    ErrorCode.HINT_TOO_LONG: _("The hint is too long: at most 200 characters."),
    ErrorCode.ALREADY_PLAYED: _("You have already played your card this round."),
    ErrorCode.STORYTELLER_CANNOT_VOTE: _("The storyteller does not vote."),
    ErrorCode.OWN_CARD: _("You cannot vote for your own card."),
    ErrorCode.CARD_NOT_ON_TABLE: _("That card is not on the table."),
    ErrorCode.SAME_VOTE: _("You already voted for that card."),
    ErrorCode.NOT_SPECTATING: _("You are already playing."),
    ErrorCode.STALE: _("That is over already."),
    ErrorCode.OTHER_GAME: _("This button belongs to an earlier game."),
    ErrorCode.TOO_EARLY: _("Not yet."),
}

STALE_BUTTON = _("This button is from an older round or message.")
FORGED_BUTTON = _("This button is not valid.")
BUSY = _("Too many moves at once. Please press again.")
SENT_AGAIN = _("⬇️ Sent again below.")
FAILED = _("Sorry, something went wrong with that, and it was noted. The game goes on.")
DAMAGED = _("This game's data is damaged and it cannot go on. Start a new one with /newgame.")
GROUP_ONLY = _("This command works in a group chat.")
PRIVATE_ONLY = _("Send this to me in a private chat.")

VOTE_ACCEPTED = _("Vote recorded: {card}")
VOTE_CHANGED = _("Vote changed to {card}")
CARD_CHOSEN = _("Chosen: {card}. Now send your hint as a message.")
DECOY_ACCEPTED = _("Decoy played: {card}")
JOINED = _("You joined the game.")
JOINED_IN = _("You joined the game in <b>{group}</b>. Your cards come here when it starts.")
JOINED_LATE_IN = _("You joined the game in <b>{group}</b>. You play from the next round.")
LEFT = _("You left.")
BACK = _("Welcome back! You play from the next round.")
SETTINGS_CHANGED = _("Settings changed.")
STARTED = _("The game starts!")
OPEN_PRIVATE = _("Open a private chat with me first: press Start there.")
OPEN_PRIVATE_FIRST = _(
    "First open a private chat with me and press Start there: that is where your cards come."
)
OPEN_PRIVATE_LINK = _("To play, open {link} and press Start: you join from there.")

INTRO = _(
    "Hi! I run <b>Hintrigue</b>, a storytelling and bluffing card game for groups of 3 to 10 "
    "players.\n"
    "Send /newgame to open a lobby, /rules to learn the game, /help for commands."
)

HELP = _(
    "<b>Commands</b>\n"
    "/newgame — open a lobby in this group\n"
    "/settings key=value … — change the lobby's settings (host or admin)\n"
    "/join — join the lobby, or the running game until its last turn\n"
    "/score — the scores of the current or last game\n"
    "/leave — leave the lobby or the game\n"
    "/back — play again after sitting out\n"
    "/skip — skip the player we are waiting for (host or admin)\n"
    "/stop — end the game (host or admin)\n"
    "/rules — how to play\n\n"
    "Settings: seats=3–10 rotations=1–5 hand=4–8 timers=on|off hint=15–900 decoy=15–900 "
    "vote=15–900 reveal=2–60 deck=default|short"
)

PRIVATE_HELP = _(
    "I run <b>Hintrigue</b> games in groups. Add me to a group and send /newgame there.\n"
    "Your secret choices (your card and hint, your decoys) are made here with me.\n"
    "/start re-sends whatever I am waiting for from you."
)

RULES = _(
    "<b>How to play Hintrigue</b>\n"
    "Each card is a little scene of emoji. On your turn as the <b>storyteller</b> you pick a "
    "card from your hand (in our private chat) and give a hint: a word, a line, a feeling.\n"
    "Everybody else picks a <b>decoy</b> from their own hand that might fit the hint.\n"
    "The cards are shuffled onto the table and everybody but the storyteller votes for the "
    "storyteller's card (never your own).\n\n"
    "<b>Points</b>\n"
    "• Some, but not all, find it: the storyteller and each finder get 3.\n"
    "• Nobody or everybody finds it: each voter gets 2, the storyteller 0.\n"
    "• Each vote your decoy steals: +1.\n\n"
    "The turn passes around the table for the chosen number of rotations. "
    "The highest total wins; ties share the win."
)
