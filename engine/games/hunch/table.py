"""Hunch!'s registration at the table (SPEC 11.4), through the pure games' shared
`engine.games.common.table.PureTable`; `engine.games.registry` hosts it after Wunchunk."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from engine.errors import ErrorCode, RuleError
from engine.games.base import Game
from engine.games.common.table import PureTable, room_language
from engine.games.hunch import commands as own
from engine.games.hunch.model import MAX_SEATS, MIN_SEATS, Phase, Settings, State
from engine.games.hunch.rules import apply
from engine.games.hunch.rules import joinable as own_joinable
from engine.games.hunch.rules import start as start_game
from engine.games.hunch.settings import apply_changes
from engine.games.hunch.turns import winners as own_winners
from engine.model import Room

NAME = "hunch"
OWN_SETTINGS = frozenset(
    {"advanced", "secrets_s", "clue_s", "bid_s", "choice_s", "hunch_s", "reveal_s"}
)
"""The game's own settings; the table's shared ones (max_seats, timers) are copied in at the
start."""


CARD_PREFIX = re.compile(r"\s*([1-9])\s*:\s+(\S.*)", re.S)
"""A typed clue that names its card: "1: red" (a space after the colon, so "2:00 am" is a
clue)."""


def typed(state: State, user_id: int, text: str) -> Any:
    """The game's command for text a player typed in private: in the clue phase, the clue of
    the card it names ("1: red"), else of its first clue card without one (else its last
    card's, rewritten)."""
    index = state.seat_of(user_id)
    if index is None or state.phase is not Phase.CLUES:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    texts = state.seats[index].texts
    named = CARD_PREFIX.fullmatch(text)
    if named is not None and int(named[1]) <= len(texts):
        return own.WriteClue(user_id=user_id, card=int(named[1]) - 1, text=named[2])
    card = texts.index(None) if None in texts else max(len(texts) - 1, 0)
    return own.WriteClue(user_id=user_id, card=card, text=text)


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's VP, secrets it guessed and own secrets guessed, in a finished game."""
    seat = state_of(room).seats[index]
    return {"vp": seat.vp, "guessed": seat.guessed, "exposed": seat.exposed}


TABLE = PureTable(
    title="Hunch!",
    state_model=State,
    settings_model=Settings,
    phases=Phase,
    start_game=start_game,
    apply=apply,
    own_commands=own.OWN_ACTIONS,
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

_GAME = TABLE.game(
    NAME,
    figures=("games", "wins", "vp", "guessed", "exposed"),
    seat_figures=seat_figures,
    setting_names=OWN_SETTINGS,
    setting_aliases={
        "advanced": "advanced",
        "secrets": "secrets_s",
        "secrets_s": "secrets_s",
        "clue": "clue_s",
        "clues": "clue_s",
        "clue_s": "clue_s",
        "bid": "bid_s",
        "bid_s": "bid_s",
        "choice": "choice_s",
        "choice_s": "choice_s",
        "hunch": "hunch_s",
        "hunches": "hunch_s",
        "hunch_s": "hunch_s",
        "reveal": "reveal_s",
        "reveal_s": "reveal_s",
    },
    switches=frozenset({"advanced"}),
    timed_events=frozenset(
        {
            "game_started",
            "hunch_clue_phase_started",
            "hunch_bidder_up",
            "hunch_auction_won",
            "hunch_bargain_turn",
            "hunch_hunch_phase_started",
            "hunch_hunches_revealed",
        }
    ),
    reminded_phases=frozenset({"secrets", "clues", "hunch"}),
)
GAME: Game = replace(_GAME, min_seats=MIN_SEATS, max_seats=MAX_SEATS)
"""Hunch! at the table: 3–6 seats, its own settings and figures."""
