"""What players are told when the rules refuse one of Hunch!'s own commands."""

from __future__ import annotations

from engine.games.hunch.errors import Refusal
from tgbot.i18n import N_, Texts

REFUSALS: Texts[Refusal] = Texts({
    Refusal.NOT_YOUR_TURN: N_("It is not your turn: wait for yours."),
    Refusal.NOT_AWAITED: N_("Nothing is awaited from you in this phase."),
    Refusal.NO_SUCH_CARD: N_("You have no such card."),
    Refusal.NO_SUCH_WORD: N_("That word is not in the matrix."),
    Refusal.REPLACED_ALREADY: N_("You have already replaced a clue card this round."),
    Refusal.CLUE_EMPTY: N_("The clue is empty. Send one to 40 characters."),
    Refusal.CLUE_TOO_LONG: N_("The clue is too long: at most {detail} characters."),
    Refusal.CLUE_NAMES_MATRIX_WORD: N_(
        "Your clue may not name a word of the matrix, nor a word beginning with it: "
        "«{detail}». Try another."
    ),
    Refusal.BID_TOO_LOW: N_("A bid must be higher than {detail}."),
    Refusal.NOT_ENOUGH_COINS: N_("You have only {detail} coins."),
    Refusal.NO_SUCH_CLUE: N_("That clue is not on offer to you."),
    Refusal.OWN_CLUE: N_("You cannot keep your own clue."),
    Refusal.NO_SUCH_SECRET: N_("That secret is not in play."),
    Refusal.ANSWER_NEEDED: N_("A question clue needs your answer: yes or no."),
    Refusal.NOT_A_QUESTION: N_("Only a question clue takes a yes or no."),
    Refusal.ADVANCED_ONLY: N_("That choice is an advanced rule, off in this game."),
    Refusal.OWN_SECRET: N_("A hunch goes on another player's secret, not on yours."),
    Refusal.NO_HUNCH_LEFT: N_("Every hunch of this round is placed: take one back first."),
    Refusal.NOTHING_TO_TAKE_BACK: N_("You have no hunch on that secret."),
})
