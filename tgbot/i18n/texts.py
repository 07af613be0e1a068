"""Every user-facing text that is not built in one place, marked for the catalogs with `N_`.

Read as attributes (`texts.HELP`) or by key (`texts.ERRORS[code]`), each is translated into the
language being spoken at the moment it is read (`tgbot.i18n`), never at import.
"""

from __future__ import annotations

from engine.errors import ErrorCode
from tgbot.i18n import N_, Texts, _

ERRORS: Texts[ErrorCode] = Texts({
    ErrorCode.NO_GAME: N_("There is no game here. Start one with /newgame."),
    ErrorCode.GAME_EXISTS: N_("A game is already open in this group."),
    ErrorCode.NOT_IN_GAME: N_("You are not in this game."),
    ErrorCode.IN_OTHER_GAME: N_("You are already playing in {detail}. Leave that game first."),
    ErrorCode.ALREADY_JOINED: N_("You have already joined."),
    ErrorCode.ROOM_FULL: N_("This game is full."),
    ErrorCode.TOO_MANY_FOR_GAME: N_(
        "That game takes at most {detail} players, and more are in the lobby."
    ),
    ErrorCode.HAS_LEFT: N_("You left this game: you cannot play in it again."),
    ErrorCode.TOO_LATE_TO_JOIN: N_("Too late to join: the last turn has started."),
    ErrorCode.NOT_ALLOWED: N_("Only the game's host or a group admin can do that."),
    ErrorCode.NOT_ENOUGH_PLAYERS: N_("At least {detail} players are needed to start."),
    ErrorCode.PRIVATE_CHAT_MISSING: N_(
        "Not yet: {detail} must first open a private chat with me (the link is in the lobby), "
        "where their secret choices are made."
    ),
    ErrorCode.BAD_SETTING: N_("That setting is not valid: {detail}."),
    ErrorCode.WRONG_PHASE: N_("That is not possible right now."),
    ErrorCode.NOT_STORYTELLER: N_("Only the storyteller does that."),
    ErrorCode.NOT_IN_ROUND: N_("You are not playing this round; you play from the next one."),
    ErrorCode.STORYTELLER_CANNOT_VOTE: N_("The storyteller does not vote."),
    ErrorCode.NOT_SPECTATING: N_("You are already playing."),
    ErrorCode.STALE: N_("That is over already."),
    ErrorCode.OTHER_GAME: N_("This button belongs to an earlier game."),
    ErrorCode.TOO_EARLY: N_("Not yet."),
    ErrorCode.NO_JOIN_TIMER: N_("This lobby has no join timer: the host starts it."),
    ErrorCode.LOBBY_LONGEST: N_(
        "The lobby cannot wait longer: it starts at most {detail} after it opened."
    ),
    ErrorCode.JUST_STARTED: N_(
        "That began only a moment ago, so I did not skip it: send /skip again if you mean it."
    ),
    ErrorCode.UNKNOWN_GAME: N_("There is no game called {detail} here."),
    ErrorCode.GUESS_FINAL: N_("Your guess is confirmed: it cannot change any more."),
})

# Each language by name, as a sentence names it ("I write to you in {language}"); menus and
# keyboards show each by its own name (i18n.LANGUAGES), so that anybody finds theirs.
LANGUAGE_NAMES: Texts[str] = Texts(
    {
        "en": N_("English"),
        "it": N_("Italian"),
        "es": N_("Spanish"),
        "fr": N_("French"),
        "de": N_("German"),
        "pt": N_("Portuguese (Brazil)"),
        "ru": N_("Russian"),
    }
)

_TEXTS: dict[str, str] = {
    "STALE_BUTTON": N_("This button is from an older round or message."),
    "FORGED_BUTTON": N_("This button is not valid."),
    "BUSY": N_("Too many moves at once. Please press again."),
    "SENT_AGAIN": N_("⬇️ Sent again below."),
    "FAILED": N_("Sorry, something went wrong with that, and it was noted. The game goes on."),
    "DAMAGED": N_(
        "This game's data is damaged and it cannot go on. Start a new one with /newgame."
    ),
    "GROUP_ONLY": N_("This command works in a group chat."),
    "PRIVATE_ONLY": N_("Send this to me in a private chat."),
    "JOINED": N_("You joined the game."),
    "JOINED_LATE_IN": N_("You joined the game in <b>{group}</b>. You play from the next round."),
    "LEFT": N_("You left."),
    "BACK": N_("Welcome back! You play from the next round."),
    "SETTINGS_CHANGED": N_("Settings changed."),
    "STARTED": N_("The game starts!"),
    "AI_ADDED": N_("An AI player took a seat."),
    "AI_REMOVED": N_("An AI player left."),
    "NO_AI_PLAYERS": N_(
        "{game} has no AI players yet: it is played by people only. Remove the AI players to "
        "start it."
    ),
    "OPEN_PRIVATE": N_("Open a private chat with me first: press Start there."),
    "OPEN_PRIVATE_FIRST": N_(
        "First open a private chat with me and press Start there: that is where you make your "
        "secret choices."
    ),
    "OPEN_PRIVATE_LINK": N_("To play, open {link} and press Start: you join from there."),
    "INTRO": N_(
        "Hi! I run {games}: party games for {least} to {most} players, and AI players can fill "
        "the seats.\n"
        "Send /newgame to open a lobby (its Game button picks the game), /rules to learn the "
        "game, /help for commands."
    ),
    "HELP": N_(
        "<b>Commands</b>\n"
        "/newgame — open a lobby in this group (/newgame {others}: another game)\n"
        "/settings key=value … — change the lobby's settings (host or admin)\n"
        "/join — join the lobby, or the running game until its last turn\n"
        "/extend — a minute more before the lobby starts by itself\n"
        "/forcestart — start the lobby now (host or admin)\n"
        "🤖 Add AI in the lobby, or /settings ai=N — AI players take seats (host or admin)\n"
        "/score — the scores of the current or last game\n"
        "/stats — your lifetime figures (in reply to a message: its sender's)\n"
        "/top — this group's leaderboard of the last 90 days\n"
        "/notify — a private message when the next game opens here (/notify off: none)\n"
        "/leave — leave the lobby or the game\n"
        "/back — play again after sitting out\n"
        "/skip — skip the player we are waiting for (host or admin)\n"
        "/stop — end the game (host or admin)\n"
        "/rules — how to play\n"
        "/language — the group's language (host or admin); in private, yours"
    ),
    "PRIVATE_HELP": N_(
        "I run {games} in groups. Add me to a group and send /newgame there.\n"
        "Your secret choices ({secrets}, your guesses) are made here with me.\n"
        "/start re-sends whatever I am waiting for from you; /stats shows your lifetime figures; "
        "/language chooses the language I write to you in."
    ),
    "RULES": N_(
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
    ),
}


def __getattr__(name: str) -> str:
    """A text by name, in the language being spoken."""
    try:
        message = _TEXTS[name]
    except KeyError:
        raise AttributeError(f"no text named {name}") from None
    return _(message)
