"""Hintrigue's registration at the table (SPEC sections 1–8)."""

from __future__ import annotations

from engine.context import Ctx
from engine.events import GameStarted
from engine.games.base import Game, Moment
from engine.games.hintrigue import rules
from engine.games.hintrigue.turns import deal, start_round, winners
from engine.games.hintrigue.views import waiting_for
from engine.model import Room
from engine.settings import check_deck


def start(ctx: Ctx) -> None:
    """Deal, pick the first storyteller at random and start the first round."""
    room = ctx.room
    check_deck(room.settings)
    deal(ctx)
    room.first_storyteller = ctx.rng.below(len(room.seats))
    room.rotations_done = 0
    ctx.emit(GameStarted(first_storyteller=room.first_storyteller))
    start_round(ctx, room.first_storyteller)


def moment(room: Room) -> Moment | None:
    """The round and phase a running game is in, and the seats it waits for."""
    rnd = room.round
    return Moment(rnd.no if rnd else 0, room.phase.value, room.phase_at, waiting_for(room))


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's points, finds, votes stolen and best round of a finished game."""
    seat = room.seats[index]
    return {"points": seat.score, "finds": seat.finds, "stolen": seat.stolen, "best": seat.best}


GAME = Game(
    name="hintrigue",
    title="Hintrigue",
    start=start,
    act=rules.act,
    join_late=rules.join_late,
    joinable=lambda room: room.round is not None and not room.round.last,
    timer=rules.timer,
    figures=("games", "wins", "points", "finds", "stolen", "best"),
    seat_figures=seat_figures,
    winners=winners,
    moment=moment,
    timed_events=frozenset({"round_started", "hint_given", "voting_opened", "round_scored"}),
    reminded_phases=frozenset({"hint", "decoys", "voting"}),
)
