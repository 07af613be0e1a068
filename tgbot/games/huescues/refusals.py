"""What players are told when the rules refuse one of this game's own commands."""

from __future__ import annotations

from engine.games.huescues.errors import Refusal
from tgbot.i18n import N_, Texts

REFUSALS: Texts[Refusal] = Texts({
    Refusal.NOT_CUE_GIVER: N_("Only the cue giver does that."),
    Refusal.GIVER_DOES_NOT_GUESS: N_("You give the cues this round: the others place cones."),
    Refusal.NOT_A_CELL: N_("That is not a cell of the board. Type it like H15."),
    Refusal.COLOUR_NOT_ON_CARD: N_("That colour is not on your card."),
    Refusal.NO_COLOUR_CHOSEN: N_("Choose your colour first, then send the cue."),
    Refusal.CUE_EMPTY: N_("The cue is empty. Send one word."),
    Refusal.CUE_TOO_LONG: N_("The cue is too long: at most 60 characters."),
    Refusal.CUE_NOT_WORDS: N_(
        "“{detail}” is not a word: only letters or digits, joined by hyphens or apostrophes."
    ),
    Refusal.CUE_ONE_WORD: N_("The first cue is one word only."),
    Refusal.CUE_TWO_WORDS: N_("The second cue is one or two words."),
    Refusal.CUE_COLOUR_WORD: N_(
        "“{detail}” is a basic colour word: cues may not name one. Try something that has "
        "the colour."
    ),
    Refusal.CUE_COORDINATE: N_(
        "“{detail}” could name a place on the board (a row, a column or a cell): not allowed."
    ),
    Refusal.CUE_REPEATED: N_("“{detail}” was already a cue in this game. Find another one."),
    Refusal.NO_CELL_CHOSEN: N_("Choose a cell first, then confirm."),
    Refusal.CELL_HAS_FIRST_CONE: N_(
        "A first cone stands on that cell: your second cone goes on another one."
    ),
})
