"""What players are told when the rules refuse one of this game's own commands."""

from __future__ import annotations

from engine.games.wunchunk.errors import Refusal
from tgbot.i18n import N_, Texts

REFUSALS: Texts[Refusal] = Texts(
    {
        Refusal.NOT_YOUR_TURN: N_("It is not your turn: wait for yours."),
        Refusal.NO_SUCH_CELL: N_(
            "That is not a cell of this board. Type cells like g5 g6, and 2:f7 for a stone of "
            "player 2's colour."
        ),
        Refusal.NO_SUCH_COLOUR: N_("No player of this game has that colour."),
        Refusal.OCCUPIED: N_("{detail} is taken: a stone is there already, or one of this turn's."),
        Refusal.TOO_MANY_STONES: N_("Too many stones: this turn may place {detail} at most."),
        Refusal.BALANCING: N_(
            "Balancing rule: this turn may not end with more chunks of your colour than it began "
            "with ({detail}). Undo a stone and place it elsewhere."
        ),
        Refusal.NOTHING_TO_UNDO: N_("No stone of this turn to take back."),
    }
)
