"""A round's actions: the colour, the cues, the cones, and what happens when time runs out."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.huescues.board import CELLS
from engine.games.huescues.context import Ctx
from engine.games.huescues.cues import check_cue, fold
from engine.games.huescues.errors import Refusal
from engine.games.huescues.events import (
    CellChosen,
    ColourChosen,
    ConeConfirmed,
    CueGiven,
    FirstConesShown,
    GuessClosed,
    NoSecondReason,
    RoundScored,
    RoundVoided,
    SeatLeft,
    SeatSpectating,
    SeatUnreachable,
    SecondCueSkipped,
    VoidReason,
)
from engine.games.huescues.model import GUESS_PHASES, Phase
from engine.games.huescues.scoring import score_round
from engine.games.huescues.turns import abandon_if_too_few, after_round
from engine.model import SeatStatus

MISSES_BEFORE_SPECTATING = 2


def require_phase(ctx: Ctx, *phases: Phase) -> None:
    """Refuse an action outside its phases."""
    if ctx.state.phase not in phases:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.state.phase.value}")


def _require_giver(ctx: Ctx, index: int, *phases: Phase) -> None:
    require_phase(ctx, *phases)
    if index != ctx.round.giver:
        raise RuleError(Refusal.NOT_CUE_GIVER)


def _require_cell(cell: int) -> None:
    if not 0 <= cell < CELLS:
        raise RuleError(Refusal.NOT_A_CELL)


def choose_colour(ctx: Ctx, index: int, cell: int) -> None:
    """The cue giver chooses one of its card's colours (any cell with free choice); it may
    change it until its first cue."""
    _require_giver(ctx, index, Phase.CUE)
    _require_cell(cell)
    if not ctx.state.settings.free_choice and cell not in ctx.state.card_cells():
        raise RuleError(Refusal.COLOUR_NOT_ON_CARD)
    ctx.round.colour = cell
    ctx.emit(ColourChosen(round_no=ctx.round.no, seat=index, cell=cell))


def give_cue(ctx: Ctx, index: int, text: str) -> None:
    """The first cue (one word, after the colour) or the second (one or two words)."""
    _require_giver(ctx, index, Phase.CUE, Phase.SECOND_CUE)
    state, rnd = ctx.state, ctx.round
    second = state.phase is Phase.SECOND_CUE
    if rnd.colour is None:
        raise RuleError(Refusal.NO_COLOUR_CHOSEN)
    cue = check_cue(text, state.language, second, state.used_cues)
    rnd.cues.append(cue)
    state.used_cues.append(fold(cue))
    if second:
        state.phase = Phase.SECOND_GUESS
        state.deadline = ctx.timer(state.settings.second_guess_s)
    else:
        ctx.seat(index).missed = 0
        state.phase = Phase.GUESS
        state.deadline = ctx.timer(state.settings.guess_s)
    ctx.emit(CueGiven(round_no=rnd.no, cue=cue, second=second, deadline=state.deadline))
    close_if_complete(ctx)


def no_second_cue(ctx: Ctx, index: int) -> None:
    """The cue giver gives no second cue."""
    _require_giver(ctx, index, Phase.SECOND_CUE)
    skip_second(ctx, "declined")


def skip_second(ctx: Ctx, reason: NoSecondReason) -> None:
    """No second cue this round (neither a void nor a miss): the round is scored."""
    ctx.round.second_skipped = True
    ctx.emit(SecondCueSkipped(round_no=ctx.round.no, reason=reason))
    score(ctx)


def _require_guesser(ctx: Ctx, index: int) -> None:
    require_phase(ctx, *GUESS_PHASES)
    rnd = ctx.round
    if index == rnd.giver:
        raise RuleError(Refusal.GIVER_DOES_NOT_GUESS)
    if index not in rnd.participants:
        raise RuleError(ErrorCode.NOT_IN_ROUND)
    if index in rnd.dropped:
        raise RuleError(ErrorCode.STALE, "this seat does not guess this round")
    if index in rnd.phase_cones(ctx.state.phase is Phase.SECOND_GUESS):
        raise RuleError(ErrorCode.GUESS_FINAL)


def choose_cell(ctx: Ctx, index: int, cell: int) -> None:
    """A guesser puts its cone on a cell, not yet final; a second cone never goes on a cell
    holding a first cone."""
    _require_guesser(ctx, index)
    _require_cell(cell)
    rnd = ctx.round
    second = ctx.state.phase is Phase.SECOND_GUESS
    if second and cell in rnd.cones.values():
        raise RuleError(Refusal.CELL_HAS_FIRST_CONE)
    rnd.choices[index] = cell
    ctx.emit(CellChosen(round_no=rnd.no, seat=index, cell=cell, second=second))


def confirm_cone(ctx: Ctx, index: int) -> None:
    """A guesser confirms its cone on the cell it chose: it is final."""
    _require_guesser(ctx, index)
    rnd = ctx.round
    cell = rnd.choices.get(index)
    if cell is None:
        raise RuleError(Refusal.NO_CELL_CHOSEN)
    second = ctx.state.phase is Phase.SECOND_GUESS
    del rnd.choices[index]
    rnd.phase_cones(second)[index] = cell
    ctx.emit(ConeConfirmed(round_no=rnd.no, seat=index, second=second))
    close_if_complete(ctx)


def close_if_complete(ctx: Ctx) -> None:
    """Close a guess once every guesser has confirmed its cone."""
    if ctx.state.phase in GUESS_PHASES and not ctx.state.waiting_for():
        close_guessing(ctx)


def close_guessing(ctx: Ctx) -> None:
    """A cell chosen but not confirmed is placed as the seat's cone (confirming is there to
    prevent mistakes, not to drop choices). After the first guess its cones are shown and the
    cue giver may give a second cue; after the second, the round is scored."""
    state, rnd = ctx.state, ctx.round
    second = state.phase is Phase.SECOND_GUESS
    waiting = state.waiting_for()
    unconfirmed = [i for i in waiting if i in rnd.choices]
    placed = rnd.phase_cones(second)
    for index in unconfirmed:
        placed[index] = rnd.choices[index]
    rnd.choices = {}
    if waiting:
        missing = [i for i in waiting if i not in unconfirmed]
        ctx.emit(GuessClosed(round_no=rnd.no, second=second, unconfirmed=unconfirmed,
                             missing=missing))  # fmt: skip
    if second:
        score(ctx)
        return
    state.phase = Phase.SECOND_CUE
    state.deadline = ctx.timer(state.settings.second_cue_s)
    ctx.emit(FirstConesShown(round_no=rnd.no, cones=dict(rnd.cones), deadline=state.deadline))
    if state.seats[rnd.giver].status is SeatStatus.LEFT:
        skip_second(ctx, "giver_left")
    elif not state.guessers():
        skip_second(ctx, "no_guessers")


def _guessing_seats(ctx: Ctx) -> list[int]:
    """The seats that guess this round, for the points: its participants but the cue giver,
    still in the game (a seat whose private chat failed guesses no more, but counts)."""
    rnd, seats = ctx.round, ctx.state.seats
    return [i for i in rnd.participants
            if i != rnd.giver and seats[i].status is not SeatStatus.LEFT]  # fmt: skip


def score(ctx: Ctx) -> None:
    """Score the round by the cones' distances from the colour; the reveal's timer starts."""
    state, rnd = ctx.state, ctx.round
    assert rnd.colour is not None
    points, exact = score_round(
        rnd.giver, rnd.colour, [rnd.cones, rnd.second_cones], _guessing_seats(ctx),
        rnd.giver_scores,
    )  # fmt: skip
    for index, gained in points.items():
        seat = state.seats[index]
        seat.score += gained
        seat.best = max(seat.best, gained)
    for index in exact:
        state.seats[index].exact += 1
    rnd.points, rnd.exact = points, exact
    state.phase = Phase.REVEAL
    state.deadline = ctx.presentation(state.settings.reveal_s)
    ctx.emit(
        RoundScored(
            round_no=rnd.no,
            colour=rnd.colour,
            cones=dict(rnd.cones),
            second_cones=dict(rnd.second_cones),
            points=points,
            exact=exact,
            deadline=state.deadline,
        )
    )


def void_round(ctx: Ctx, reason: VoidReason) -> None:
    """The round ends without a first cue: no score changes; it uses up the cue giver's turn
    and, unless it left, counts as a miss."""
    rnd = ctx.round
    seat = ctx.seat(rnd.giver)
    ctx.emit(RoundVoided(round_no=rnd.no, giver=rnd.giver, reason=reason))
    if reason != "giver_left":
        seat.missed += 1  # a miss, for the two-misses rule
        if seat.missed >= MISSES_BEFORE_SPECTATING and seat.status is SeatStatus.PLAYING:
            seat.status = SeatStatus.SPECTATING
            ctx.emit(SeatSpectating(seat=rnd.giver))
    if abandon_if_too_few(ctx):
        return
    after_round(ctx)


def time_out(ctx: Ctx, skipped: bool = False) -> None:
    """Apply the current phase's timeout rule once (`skipped`: by /skip)."""
    phase = ctx.state.phase
    if phase is Phase.CUE:
        void_round(ctx, "skipped" if skipped else "missed_cue")
    elif phase in GUESS_PHASES:
        close_guessing(ctx)
    elif phase is Phase.SECOND_CUE:
        skip_second(ctx, "skipped" if skipped else "timeout")
    elif phase is Phase.REVEAL:
        after_round(ctx)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE)


def unreachable(ctx: Ctx, index: int) -> None:
    """A seat's private chat refused the bot: treat it at once as missing its action."""
    state, rnd = ctx.state, ctx.round
    if state.phase is Phase.CUE and index == rnd.giver:
        ctx.emit(SeatUnreachable(seat=index))
        void_round(ctx, "unreachable")
    elif state.phase is Phase.SECOND_CUE and index == rnd.giver:
        ctx.emit(SeatUnreachable(seat=index))
        skip_second(ctx, "unreachable")
    elif state.phase in GUESS_PHASES and index in state.waiting_for():
        ctx.emit(SeatUnreachable(seat=index))
        rnd.dropped.append(index)
        rnd.choices.pop(index, None)
        close_if_complete(ctx)
    else:
        raise RuleError(ErrorCode.STALE, "nothing awaited from this seat")


def leave(ctx: Ctx, index: int) -> None:
    """A seat leaves for good. The cue giver leaving before its first cue voids the round (not
    a miss), before its second cue skips it; after its cue the round goes on and it still
    scores. A guesser's cones of a round not yet scored are taken off the board."""
    state, rnd = ctx.state, ctx.state.round
    prompt = rnd.no if rnd is not None and index in state.waiting_for() else None
    ctx.seat(index).status = SeatStatus.LEFT
    ctx.emit(SeatLeft(seat=index, prompt_round=prompt))
    if abandon_if_too_few(ctx) or rnd is None:
        return
    if index == rnd.giver:
        if state.phase is Phase.CUE:
            void_round(ctx, "giver_left")
        elif state.phase is Phase.SECOND_CUE:
            skip_second(ctx, "giver_left")
        return
    if state.phase is not Phase.REVEAL:
        rnd.choices.pop(index, None)
        rnd.cones.pop(index, None)
        rnd.second_cones.pop(index, None)
    close_if_complete(ctx)
