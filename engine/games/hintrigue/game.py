"""Hintrigue's registration at the table (SPEC sections 1–8)."""

from __future__ import annotations

from engine.context import Ctx
from engine.games.base import Game, Moment
from engine.games.hintrigue import rules
from engine.games.hintrigue.events import GameStarted
from engine.games.hintrigue.model import Settings, State, own_seats, phase_of, round_of, state_of
from engine.games.hintrigue.settings import (
    ALIASES,
    OWN_SETTINGS,
    WORDS,
    apply_changes,
    check_deck,
)
from engine.games.hintrigue.turns import deal, start_round, winners
from engine.games.hintrigue.upgrade import upgrade
from engine.games.hintrigue.views import waiting_for
from engine.model import Room


def start(ctx: Ctx) -> None:
    """Deal, pick the first storyteller at random and start the first round."""
    room = ctx.room
    check_deck(room)
    deal(ctx)
    state = state_of(room)
    state.first_storyteller = ctx.rng.below(len(room.seats))
    state.rotations_done = 0
    ctx.emit(GameStarted(first_storyteller=state.first_storyteller))
    start_round(ctx, state.first_storyteller)


def joinable(room: Room) -> bool:
    """Whether a player may still join: until the last turn starts."""
    rnd = round_of(room)
    return rnd is not None and not rnd.last


def moment(room: Room) -> Moment | None:
    """The round and phase a running game is in, and the seats it waits for."""
    rnd = round_of(room)
    phase = phase_of(room)
    if phase is None:
        return None
    return Moment(rnd.no if rnd else 0, phase.value, room.phase_at, waiting_for(room))


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's points, finds, votes stolen and best round of a finished game."""
    seat, own = room.seats[index], own_seats(room)[index]
    return {"points": seat.score, "finds": own.finds, "stolen": own.stolen, "best": own.best}


GAME = Game(
    name="hintrigue",
    title="Hintrigue",
    start=start,
    act=rules.act,
    join_late=rules.join_late,
    joinable=joinable,
    timer=rules.timer,
    figures=("games", "wins", "points", "finds", "stolen", "best"),
    seat_figures=seat_figures,
    winners=winners,
    moment=moment,
    timed_events=frozenset({"round_started", "hint_given", "voting_opened", "round_scored"}),
    reminded_phases=frozenset({"hint", "decoys", "voting"}),
    settings_model=Settings,
    state_model=State,
    setting_names=OWN_SETTINGS,
    change_settings=lambda settings, changes: apply_changes(
        settings if isinstance(settings, Settings) else Settings(), changes
    ),
    setting_aliases=ALIASES,
    words=WORDS,
    check_settings=check_deck,
    upgrade=upgrade,
)
