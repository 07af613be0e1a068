"""Hues and Cues' registration at the table (SPEC 11.3), through the pure games' shared
`engine.games.common.table.PureTable`."""

from __future__ import annotations

from typing import Any

from engine.errors import RuleError
from engine.games.common.table import PureTable, room_language
from engine.games.huescues import commands as own
from engine.games.huescues.board import parse as parse_cell
from engine.games.huescues.errors import Refusal
from engine.games.huescues.model import GUESS_PHASES, Settings, State
from engine.games.huescues.model import Phase as OwnPhase
from engine.games.huescues.rules import apply
from engine.games.huescues.rules import joinable as own_joinable
from engine.games.huescues.rules import start as start_game
from engine.games.huescues.settings import apply_changes
from engine.games.huescues.turns import winners as own_winners
from engine.model import Room

NAME = "huescues"
OWN_SETTINGS = frozenset(
    {"turns", "free_choice", "cue_s", "guess_s", "second_cue_s", "second_guess_s", "reveal_s"}
)
"""The game's own settings; the table's shared ones (max_seats, timers) are copied in at the
start."""


def typed(state: State, user_id: int, text: str) -> Any:
    """The game's command for text a player typed in private: a cell for a guesser during a
    guess (`H15`, `15h`…; a cell typed by another seat at another moment is refused as such)
    and for a cue giver with free choice before its cue; else a cue (a cell's name is never a
    cue)."""
    index = state.seat_of(user_id)
    rnd = state.round
    cell = parse_cell(text)
    if index is None or rnd is None:
        return own.GiveCue(user_id=user_id, text=text)
    if index != rnd.giver and (state.phase in GUESS_PHASES or cell is not None):
        if cell is None:
            raise RuleError(Refusal.NOT_A_CELL, text)
        return own.ChooseCell(user_id=user_id, cell=cell)  # refused outside a guess
    if state.phase is OwnPhase.CUE and state.settings.free_choice and cell is not None:
        return own.ChooseColour(user_id=user_id, cell=cell)
    return own.GiveCue(user_id=user_id, text=text)


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's points, exact hits and best round of a finished game."""
    seat = state_of(room).seats[index]
    return {"points": seat.score, "exact": seat.exact, "best": seat.best}


TABLE = PureTable(
    title="Hues and Cues",
    state_model=State,
    settings_model=Settings,
    phases=OwnPhase,
    start_game=start_game,
    apply=apply,
    own_commands=(own.ChooseColour, own.GiveCue, own.NoSecondCue, own.ChooseCell, own.ConfirmCone),
    timeout=own.Timeout,
    unreachable=own.MarkUnreachable,
    typed=typed,
    open_to_join=own_joinable,
    apply_changes=apply_changes,
    own_winners=own_winners,
    start_extra=room_language,
)
settings_of = TABLE.settings_of
state_of = TABLE.state_of

GAME = TABLE.game(
    NAME,
    figures=("games", "wins", "points", "exact", "best"),
    seat_figures=seat_figures,
    setting_names=OWN_SETTINGS,
    setting_aliases={
        "turns": "turns",
        "free_choice": "free_choice",
        "free": "free_choice",
        "cue": "cue_s",
        "cue_s": "cue_s",
        "guess": "guess_s",
        "guess_s": "guess_s",
        "second_cue": "second_cue_s",
        "second_cue_s": "second_cue_s",
        "cue2": "second_cue_s",
        "second_guess": "second_guess_s",
        "second_guess_s": "second_guess_s",
        "guess2": "second_guess_s",
    },
    switches=frozenset({"free_choice"}),
    timed_events=frozenset({"round_started", "cue_given", "first_cones_shown", "round_scored"}),
    reminded_phases=frozenset({"cue", "guess", "second_cue", "second_guess"}),
)
