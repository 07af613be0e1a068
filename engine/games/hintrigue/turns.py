"""Cards and turns: dealing, drawing, refilling, passing the turn, ending the game."""

from __future__ import annotations

from engine import table
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.decks import decks
from engine.games.hintrigue.events import DeckReshuffled, GameAbandoned, GameFinished, RoundStarted
from engine.games.hintrigue.model import (
    Phase,
    Round,
    Seat,
    State,
    own_seats,
    phase_of,
    round_of,
    state_of,
)
from engine.games.hintrigue.settings import settings_of
from engine.model import MIN_SEATS, RUNNING_PHASES, Room, SeatStatus
from engine.model import Phase as TablePhase


def game(ctx: Ctx) -> State:
    """The running game's state."""
    return state_of(ctx.room)


def current(ctx: Ctx) -> Round:
    """The current round; only asked in phases that have one."""
    rnd = game(ctx).round
    if rnd is None:
        raise RuleError(ErrorCode.WRONG_PHASE, "no round")
    return rnd


def own(ctx: Ctx, index: int) -> Seat:
    """What the game keeps of a seat (its hand, its figures)."""
    return game(ctx).seats[index]


def deal(ctx: Ctx) -> None:
    """Shuffle the whole deck into the draw pile and deal every seat a full hand."""
    room = ctx.room
    state = State(seats=[Seat() for _ in room.seats])
    room.play = state
    state.draw = list(range(len(decks()[settings_of(room).deck])))
    ctx.rng.shuffle(state.draw)
    state.discard = []
    for index in room.present_seats():
        refill(ctx, index)


def refill(ctx: Ctx, index: int) -> None:
    """Draw until the seat holds a full hand, reshuffling the discard pile when needed."""
    state = game(ctx)
    hand = state.seats[index].hand
    while len(hand) < settings_of(ctx.room).hand_size:
        if not state.draw:
            if not state.discard:
                return
            state.draw, state.discard = state.discard, []
            ctx.rng.shuffle(state.draw)
            ctx.emit(DeckReshuffled(cards=len(state.draw)))
        hand.append(state.draw.pop())


def next_storyteller(room: Room, current: int) -> tuple[int | None, int]:
    """Walk the seat order from `current`; return (next storyteller or None, rotations done).

    A rotation completes each time the walk reaches the first storyteller's position;
    spectating and left seats are stepped over, so passing that position counts too.
    """
    state = state_of(room)
    rotations = settings_of(room).rotations
    return table.next_turn(
        room.seats, current, state.first_storyteller, state.rotations_done, rotations
    )


def start_round(ctx: Ctx, storyteller: int) -> None:
    """Begin a storyteller's turn with the seats that are playing now."""
    room, state = ctx.room, game(ctx)
    number = state.round.no + 1 if state.round else 1
    scored = state.round if state.round is not None and state.round.points is not None else None
    state.round = Round(no=number, storyteller=storyteller, participants=room.active_seats())
    state.round.last = next_storyteller(room, storyteller)[0] is None
    state.phase, room.phase = Phase.HINT, TablePhase.PLAYING
    room.deadline = ctx.timer(settings_of(room).hint_s)
    ctx.emit(
        RoundStarted(round_no=number, storyteller=storyteller, deadline=room.deadline, after=scored)
    )


def pass_turn(ctx: Ctx) -> None:
    """After a scored or void round: start the next turn, or finish the game."""
    room, state = ctx.room, game(ctx)
    current = state.round.storyteller if state.round else state.first_storyteller
    following, done = next_storyteller(room, current)
    state.rotations_done = done
    if following is None:
        finish(ctx)
    else:
        start_round(ctx, following)


def standings(room: Room) -> list[int]:
    """Seats ordered by points, then finds, then votes stolen, then seat order."""
    own = own_seats(room)
    return table.standings(room.seats, lambda i: own[i].finds, lambda i: own[i].stolen)


def winners(room: Room) -> list[int]:
    """Every seat still in the game with the top total; ties stay co-winners."""
    return table.winners(room.seats, standings(room))


def finish(ctx: Ctx) -> None:
    """End the game after its last rotation and name the winners."""
    room = ctx.room
    game(ctx).phase, room.phase = Phase.FINISHED, TablePhase.FINISHED
    room.deadline = None
    room.end_reason = "finished"
    ctx.emit(GameFinished(winners=winners(room), standings=standings(room)))


def return_plays(ctx: Ctx) -> None:
    """Give every card played this round back to its owner (a left owner's goes to discard)."""
    room, state = ctx.room, game(ctx)
    if state.round is None:
        return
    for index, card in sorted(state.round.plays.items()):
        if room.seats[index].status is SeatStatus.LEFT:
            state.discard.append(card)
        else:
            state.seats[index].hand.append(card)
    state.round.plays = {}
    state.round.table = []
    state.round.chosen = None


def open_prompts(room: Room) -> list[int]:
    """Return the seats whose private prompt (with its card buttons) waits for them now."""
    rnd = round_of(room)
    if rnd is None:
        return []
    if phase_of(room) is Phase.HINT:
        return [rnd.storyteller]
    if phase_of(room) is Phase.DECOYS:
        return [
            i
            for i in rnd.participants
            if i != rnd.storyteller
            and room.seats[i].status is not SeatStatus.LEFT
            and i not in rnd.plays
        ]
    return []


def abandon(ctx: Ctx, reason: str) -> None:
    """End the game without a winner; a round not yet scored is dropped."""
    room, state = ctx.room, game(ctx)
    interrupted, prompted = state.phase.value, open_prompts(room)
    if state.phase is not Phase.REVEAL:
        return_plays(ctx)
    state.phase, room.phase = Phase.ABANDONED, TablePhase.ABANDONED
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
