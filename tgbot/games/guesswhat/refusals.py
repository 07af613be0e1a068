"""What players are told when the rules refuse one of this game's own commands."""

from __future__ import annotations

from engine.games.guesswhat.errors import Refusal
from tgbot.i18n import N_, Texts

REFUSALS: Texts[Refusal] = Texts({
    Refusal.ICON_NOT_ON_BOARD: N_("That icon is not on the board."),
    Refusal.PICKS_INCOMPLETE: N_("Pick one icon in each column first."),
    Refusal.CLUE_EMPTY: N_("The clue is empty. Send a word, an expression, a title or a name."),
    Refusal.CLUE_TOO_LONG: N_("The clue is too long: at most 100 characters."),
    Refusal.REDRAW_USED: N_("You have already replaced icons this turn."),
    Refusal.REDRAW_COUNT: N_("Choose three different icons of the board to replace."),
})
