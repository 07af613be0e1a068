"""A round's actions: the hint, the decoys, the vote, and what happens when time runs out."""

from __future__ import annotations

from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.errors import Refusal
from engine.games.hintrigue.events import (
    CardChosen,
    DecoyPlayed,
    HintGiven,
    RoundScored,
    RoundVoided,
    SeatSpectating,
    SeatUnreachable,
    VoidReason,
    VoteCast,
    VotingOpened,
)
from engine.games.hintrigue.model import Phase
from engine.games.hintrigue.scoring import score_round
from engine.games.hintrigue.settings import settings_of
from engine.games.hintrigue.turns import (
    abandon_if_too_few,
    current,
    game,
    open_prompts,
    own,
    pass_turn,
    refill,
    return_plays,
)
from engine.model import SeatStatus
from engine.text import shows_nothing

HINT_MAX = 200
MISSES_BEFORE_SPECTATING = 2


def _require_phase(ctx: Ctx, phase: Phase) -> None:
    now = game(ctx).phase
    if now is not phase:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {now.value}, not {phase.value}")


def _require_not_played(ctx: Ctx, index: int) -> None:
    """A card played this round is final: said in any later phase of the round, as its
    prompt's buttons stay once pressed."""
    if index in current(ctx).plays:
        raise RuleError(Refusal.ALREADY_PLAYED)


def _require_storyteller(ctx: Ctx, index: int) -> None:
    if index != current(ctx).storyteller:
        raise RuleError(ErrorCode.NOT_STORYTELLER)


def _require_in_hand(ctx: Ctx, index: int, card: int) -> None:
    if card not in own(ctx, index).hand:
        raise RuleError(Refusal.CARD_NOT_IN_HAND)


def choose_card(ctx: Ctx, index: int, card: int) -> None:
    """The storyteller picks its card; it may pick again until it gives the hint."""
    _require_not_played(ctx, index)
    _require_phase(ctx, Phase.HINT)
    _require_storyteller(ctx, index)
    _require_in_hand(ctx, index, card)
    current(ctx).chosen = card
    ctx.emit(CardChosen(round_no=current(ctx).no, seat=index, card=card))


def give_hint(ctx: Ctx, index: int, text: str) -> None:
    """Commit the chosen card with a hint of 1–200 characters after trimming."""
    _require_phase(ctx, Phase.HINT)
    _require_storyteller(ctx, index)
    hint = text.strip()
    if shows_nothing(hint):
        raise RuleError(Refusal.HINT_EMPTY)
    if len(hint) > HINT_MAX:
        raise RuleError(Refusal.HINT_TOO_LONG, f"{len(hint)} > {HINT_MAX}")
    rnd = current(ctx)
    if rnd.chosen is None:
        raise RuleError(Refusal.NO_CARD_CHOSEN)
    seat = own(ctx, index)
    seat.hand.remove(rnd.chosen)
    seat.missed_hints = 0
    rnd.plays[index] = rnd.chosen
    rnd.hint = hint
    game(ctx).phase = Phase.DECOYS
    ctx.room.deadline = ctx.timer(settings_of(ctx.room).decoy_s)
    ctx.emit(HintGiven(round_no=rnd.no, hint=hint, deadline=ctx.room.deadline))
    _open_voting_if_ready(ctx)


def decoy_seats(ctx: Ctx) -> list[int]:
    """Seats that owe a decoy: participants other than the storyteller, still in the game."""
    rnd = current(ctx)
    return [
        i
        for i in rnd.participants
        if i != rnd.storyteller and ctx.seat(i).status is not SeatStatus.LEFT
    ]


def play_decoy(ctx: Ctx, index: int, card: int, auto: bool = False) -> None:
    """Put a decoy on the table; a decoy once chosen is final."""
    _require_not_played(ctx, index)
    _require_phase(ctx, Phase.DECOYS)
    rnd = current(ctx)
    if index == rnd.storyteller:
        raise RuleError(Refusal.ALREADY_PLAYED, "the storyteller's card is on the table")
    if index not in rnd.participants:
        raise RuleError(ErrorCode.NOT_IN_ROUND)
    if index in rnd.plays:
        raise RuleError(Refusal.ALREADY_PLAYED)
    _require_in_hand(ctx, index, card)
    own(ctx, index).hand.remove(card)
    rnd.plays[index] = card
    if auto:
        rnd.auto.append(index)
    ctx.emit(DecoyPlayed(round_no=rnd.no, seat=index, card=card, auto=auto))
    _open_voting_if_ready(ctx)


def auto_decoy(ctx: Ctx, index: int) -> None:
    """Play a random card of the seat's hand as its decoy."""
    play_decoy(ctx, index, ctx.rng.choice(own(ctx, index).hand), auto=True)


def _open_voting_if_ready(ctx: Ctx) -> None:
    if game(ctx).phase is Phase.DECOYS and all(i in current(ctx).plays for i in decoy_seats(ctx)):
        open_voting(ctx)


def open_voting(ctx: Ctx) -> None:
    """Shuffle the table with the seeded generator and open the vote."""
    rnd = current(ctx)
    rnd.table = [rnd.plays[i] for i in sorted(rnd.plays)]
    ctx.rng.shuffle(rnd.table)
    game(ctx).phase = Phase.VOTING
    ctx.room.deadline = ctx.timer(settings_of(ctx.room).vote_s)
    ctx.emit(VotingOpened(round_no=rnd.no, table=list(rnd.table), deadline=ctx.room.deadline))
    close_voting_if_complete(ctx)


def voters(ctx: Ctx) -> list[int]:
    """Seats eligible to vote: the decoy seats (the storyteller never votes)."""
    return decoy_seats(ctx)


def vote(ctx: Ctx, index: int, card: int) -> None:
    """Vote for a table card other than one's own; a vote may change while voting is open."""
    _require_phase(ctx, Phase.VOTING)
    rnd = current(ctx)
    if index == rnd.storyteller:
        raise RuleError(ErrorCode.STORYTELLER_CANNOT_VOTE)
    if index not in rnd.participants:
        raise RuleError(ErrorCode.NOT_IN_ROUND)
    if card not in rnd.table:
        raise RuleError(Refusal.CARD_NOT_ON_TABLE)
    if rnd.plays.get(index) == card:
        raise RuleError(Refusal.OWN_CARD)
    previous = rnd.votes.get(index)
    if previous == card:
        raise RuleError(Refusal.SAME_VOTE)
    rnd.votes[index] = card
    ctx.emit(VoteCast(round_no=rnd.no, seat=index, card=card, changed=previous is not None))
    close_voting_if_complete(ctx)


def close_voting_if_complete(ctx: Ctx) -> None:
    """Close the vote once every eligible voter has voted."""
    if all(i in current(ctx).votes for i in voters(ctx)):
        close_voting(ctx)


def close_voting(ctx: Ctx) -> None:
    """Score the round, discard the table, refill hands and start the presentation timer."""
    room, rnd, state = ctx.room, current(ctx), game(ctx)
    points, finders = score_round(rnd.storyteller, rnd.plays, rnd.votes)
    target = rnd.plays[rnd.storyteller]
    for index, gained in points.items():
        room.seats[index].score += gained
        state.seats[index].best = max(state.seats[index].best, gained)
    for index in finders:
        state.seats[index].finds += 1
    for voter, card in rnd.votes.items():
        if card != target:
            owner = rnd.owner_of(card)
            assert owner is not None
            state.seats[owner].stolen += 1
            fooled = state.seats[owner].fooled
            fooled[voter] = fooled.get(voter, 0) + 1
    rnd.points = points
    state.discard.extend(rnd.table)
    for index in room.present_seats():
        refill(ctx, index)
    state.phase = Phase.REVEAL
    room.deadline = ctx.presentation(settings_of(room).reveal_s)
    ctx.emit(RoundScored(round_no=rnd.no, points=points, finders=finders, deadline=room.deadline))


def miss_hint(ctx: Ctx, reason: VoidReason) -> None:
    """The storyteller missed its hint: void the round, count the miss, pass the turn."""
    rnd = current(ctx)
    seat = ctx.seat(rnd.storyteller)
    own(ctx, rnd.storyteller).missed_hints += 1
    void_round(ctx, reason)
    missed = own(ctx, rnd.storyteller).missed_hints
    if missed >= MISSES_BEFORE_SPECTATING and seat.status is SeatStatus.PLAYING:
        seat.status = SeatStatus.SPECTATING
        ctx.emit(SeatSpectating(seat=rnd.storyteller))
    if not abandon_if_too_few(ctx):
        pass_turn(ctx)


def void_round(ctx: Ctx, reason: VoidReason) -> None:
    """Void the round: every card already chosen goes back to its owner."""
    prompted = open_prompts(ctx.room)
    return_plays(ctx)
    ctx.emit(
        RoundVoided(
            round_no=current(ctx).no,
            storyteller=current(ctx).storyteller,
            reason=reason,
            prompted=prompted,
        )
    )


def time_out(ctx: Ctx, reason: VoidReason = "missed_hint") -> None:
    """Apply the current phase's timeout rule once."""
    phase = game(ctx).phase
    if phase is Phase.HINT:
        miss_hint(ctx, reason)
    elif phase is Phase.DECOYS:
        for index in decoy_seats(ctx):
            if index not in current(ctx).plays:
                auto_decoy(ctx, index)
    elif phase is Phase.VOTING:
        close_voting(ctx)
    elif phase is Phase.REVEAL:
        pass_turn(ctx)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE)


def unreachable(ctx: Ctx, index: int) -> None:
    """A seat's private chat refused the bot: treat it at once as missing its action."""
    rnd, phase = current(ctx), game(ctx).phase
    if phase is Phase.HINT and index == rnd.storyteller:
        ctx.emit(SeatUnreachable(seat=index))
        miss_hint(ctx, "unreachable")
    elif phase is Phase.DECOYS and index in decoy_seats(ctx) and index not in rnd.plays:
        ctx.emit(SeatUnreachable(seat=index))
        auto_decoy(ctx, index)
    else:
        raise RuleError(ErrorCode.STALE, "nothing awaited from this seat")
