"""Cards and turns: dealing, drawing, refilling, passing the turn, ending the game."""

from __future__ import annotations

from engine import table
from engine.context import Ctx
from engine.events import DeckReshuffled, GameAbandoned, GameFinished, RoundStarted
from engine.games.hintrigue.decks import decks
from engine.model import MIN_SEATS, RUNNING_PHASES, Phase, Room, Round, SeatStatus


def deal(ctx: Ctx) -> None:
    """Shuffle the whole deck into the draw pile and deal every seat a full hand."""
    room = ctx.room
    room.draw = list(range(len(decks()[room.settings.deck])))
    ctx.rng.shuffle(room.draw)
    room.discard = []
    for index in room.present_seats():
        refill(ctx, index)


def refill(ctx: Ctx, index: int) -> None:
    """Draw until the seat holds a full hand, reshuffling the discard pile when needed."""
    room = ctx.room
    hand = room.seats[index].hand
    while len(hand) < room.settings.hand_size:
        if not room.draw:
            if not room.discard:
                return
            room.draw, room.discard = room.discard, []
            ctx.rng.shuffle(room.draw)
            ctx.emit(DeckReshuffled(cards=len(room.draw)))
        hand.append(room.draw.pop())


def next_storyteller(room: Room, current: int) -> tuple[int | None, int]:
    """Walk the seat order from `current`; return (next storyteller or None, rotations done).

    A rotation completes each time the walk reaches the first storyteller's position;
    spectating and left seats are stepped over, so passing that position counts too.
    """
    return table.next_turn(
        room.seats, current, room.first_storyteller, room.rotations_done, room.settings.rotations
    )


def start_round(ctx: Ctx, storyteller: int) -> None:
    """Begin a storyteller's turn with the seats that are playing now."""
    room = ctx.room
    number = room.round.no + 1 if room.round else 1
    scored = room.round if room.round is not None and room.round.points is not None else None
    room.round = Round(no=number, storyteller=storyteller, participants=room.active_seats())
    room.round.last = next_storyteller(room, storyteller)[0] is None
    room.phase = Phase.HINT
    room.deadline = ctx.timer(room.settings.hint_s)
    ctx.emit(
        RoundStarted(round_no=number, storyteller=storyteller, deadline=room.deadline, after=scored)
    )


def pass_turn(ctx: Ctx) -> None:
    """After a scored or void round: start the next turn, or finish the game."""
    room = ctx.room
    current = room.round.storyteller if room.round else room.first_storyteller
    following, done = next_storyteller(room, current)
    room.rotations_done = done
    if following is None:
        finish(ctx)
    else:
        start_round(ctx, following)


def standings(room: Room) -> list[int]:
    """Seats ordered by points, then finds, then votes stolen, then seat order."""
    seats = room.seats
    return table.standings(seats, lambda i: seats[i].finds, lambda i: seats[i].stolen)


def winners(room: Room) -> list[int]:
    """Every seat still in the game with the top total; ties stay co-winners."""
    return table.winners(room.seats, standings(room))


def finish(ctx: Ctx) -> None:
    """End the game after its last rotation and name the winners."""
    room = ctx.room
    room.phase = Phase.FINISHED
    room.deadline = None
    room.end_reason = "finished"
    ctx.emit(GameFinished(winners=winners(room), standings=standings(room)))


def return_plays(ctx: Ctx) -> None:
    """Give every card played this round back to its owner (a left owner's goes to discard)."""
    room = ctx.room
    if room.round is None:
        return
    for index, card in sorted(room.round.plays.items()):
        if room.seats[index].status is SeatStatus.LEFT:
            room.discard.append(card)
        else:
            room.seats[index].hand.append(card)
    room.round.plays = {}
    room.round.table = []
    room.round.chosen = None


def abandon(ctx: Ctx, reason: str) -> None:
    """End the game without a winner; a round not yet scored is dropped."""
    room = ctx.room
    interrupted, prompted = room.phase.value, room.open_prompts()
    if room.phase is not Phase.REVEAL:
        return_plays(ctx)
    room.phase = Phase.ABANDONED
    room.deadline = None
    room.end_reason = reason
    ctx.emit(
        GameAbandoned(
            reason=reason if reason in ("stopped", "topic_gone") else "too_few_players",
            standings=standings(room),
            interrupted=interrupted,
            prompted=prompted,
        )
    )


def abandon_if_too_few(ctx: Ctx) -> bool:
    """Abandon a running game with fewer than three active seats, or with no active human
    seat (AI players alone do not play on); return True if it did."""
    room = ctx.room
    active = room.active_seats()
    humans = [i for i in active if not room.seats[i].ai]
    if room.phase in RUNNING_PHASES and (len(active) < MIN_SEATS or not humans):
        abandon(ctx, "too_few_players")
        return True
    return False
