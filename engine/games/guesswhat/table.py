"""Guess What!'s registration at the table (SPEC 11.2), through the pure games' shared
`engine.games.common.table.PureTable`."""

from __future__ import annotations

from engine.games.common.table import PureTable
from engine.games.guesswhat import commands as own
from engine.games.guesswhat.model import Phase as OwnPhase
from engine.games.guesswhat.model import Settings, State
from engine.games.guesswhat.rules import apply
from engine.games.guesswhat.rules import joinable as open_to_join
from engine.games.guesswhat.rules import start as start_game
from engine.games.guesswhat.settings import apply_changes
from engine.games.guesswhat.turns import winners as own_winners
from engine.model import Room

NAME = "guesswhat"
OWN_SETTINGS = frozenset({"rotations", "target", "connoisseurs", "clue_s", "guess_s", "reveal_s"})
"""The game's own settings; the table's shared ones (max_seats, timers) are copied in at the
start."""


def typed(state: State, user_id: int, text: str) -> own.GiveClue:
    """The game's command for text a player typed in private: a clue."""
    return own.GiveClue(user_id=user_id, text=text)


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's points, correct guesses and best turn of a finished game."""
    seat = state_of(room).seats[index]
    return {"points": seat.score, "correct": seat.correct, "best": seat.best}


TABLE = PureTable(
    title="Guess What!",
    state_model=State,
    settings_model=Settings,
    phases=OwnPhase,
    start_game=start_game,
    apply=apply,
    own_commands=(own.PickIcon, own.Redraw, own.GiveClue, own.GuessIcon, own.ConfirmGuess),
    timeout=own.Timeout,
    unreachable=own.MarkUnreachable,
    typed=typed,
    open_to_join=open_to_join,
    apply_changes=apply_changes,
    own_winners=own_winners,
)
settings_of = TABLE.settings_of
state_of = TABLE.state_of

GAME = TABLE.game(
    NAME,
    figures=("games", "wins", "points", "correct", "best"),
    seat_figures=seat_figures,
    setting_names=OWN_SETTINGS,
    setting_aliases={
        "target": "target",
        "connoisseurs": "connoisseurs",
        "clue": "clue_s",
        "clue_s": "clue_s",
        "guess": "guess_s",
        "guess_s": "guess_s",
    },
    switches=frozenset({"connoisseurs"}),
    # Its turns start and score like Hintrigue's; a redraw sets the clue's time anew.
    timed_events=frozenset({"round_started", "clue_given", "board_redrawn", "round_scored"}),
    reminded_phases=frozenset({"clue", "guess"}),
)
