"""A round's actions: picks, the redraw, the clue, guesses, and what happens when time runs out."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.guesswhat import board
from engine.games.guesswhat.context import Ctx
from engine.games.guesswhat.errors import Refusal
from engine.games.guesswhat.events import (
    BoardRedrawn,
    ClueGiven,
    GuessConfirmed,
    GuessPicked,
    IconPicked,
    RoundScored,
    RoundVoided,
    SeatLeft,
    SeatSpectating,
    SeatUnreachable,
    VoidReason,
)
from engine.games.guesswhat.model import COLUMNS, Phase
from engine.games.guesswhat.scoring import score_round
from engine.games.guesswhat.turns import (
    CARRIED_CLUE_S,
    abandon_if_too_few,
    end_of_reveal,
    pass_turn,
)
from engine.model import SeatStatus
from engine.text import shows_nothing

CLUE_MAX = 100
REDRAW_COUNT = 3
MISSES_BEFORE_SPECTATING = 2


def require_phase(ctx: Ctx, phase: Phase) -> None:
    """Refuse an action outside its phase."""
    if ctx.state.phase is not phase:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.state.phase.value}, not {phase.value}")


def _require_active(ctx: Ctx, index: int) -> None:
    require_phase(ctx, Phase.CLUE)
    if index != ctx.round.active:
        raise RuleError(ErrorCode.NOT_STORYTELLER)


def _column(ctx: Ctx, icon: int) -> int:
    column = ctx.state.column_of(icon)
    if column is None:
        raise RuleError(Refusal.ICON_NOT_ON_BOARD)
    return column


def pick_icon(ctx: Ctx, index: int, icon: int) -> None:
    """The active player picks its icon in the icon's column; it may change until the clue."""
    _require_active(ctx, index)
    column = _column(ctx, icon)
    ctx.round.picks[column] = icon
    ctx.emit(IconPicked(round_no=ctx.round.no, seat=index, column=column, icon=icon))


def redraw(ctx: Ctx, index: int, icons: tuple[int, ...]) -> None:
    """Replace three icons of the board, once per turn, before the clue; picks on them are
    cleared and the clue is due 30 seconds from now."""
    _require_active(ctx, index)
    rnd, state = ctx.round, ctx.state
    if rnd.redrawn:
        raise RuleError(Refusal.REDRAW_USED)
    if len(icons) != REDRAW_COUNT or len(set(icons)) != REDRAW_COUNT:
        raise RuleError(Refusal.REDRAW_COUNT)
    for icon in icons:
        _column(ctx, icon)
    positions = sorted(state.board.index(icon) for icon in icons)
    rnd.picks = [None if pick in icons else pick for pick in rnd.picks]
    board.replace(ctx, positions)
    rnd.redrawn = True
    state.deadline = ctx.timer(CARRIED_CLUE_S)
    ctx.emit(
        BoardRedrawn(
            round_no=rnd.no, positions=positions, board=list(state.board), deadline=state.deadline
        )
    )


def give_clue(ctx: Ctx, index: int, text: str) -> None:
    """Commit the three picks with a clue of 1–100 characters after stripping."""
    _require_active(ctx, index)
    clue = text.strip()
    if shows_nothing(clue):
        raise RuleError(Refusal.CLUE_EMPTY)
    if len(clue) > CLUE_MAX:
        raise RuleError(Refusal.CLUE_TOO_LONG, f"{len(clue)} > {CLUE_MAX}")
    rnd, state = ctx.round, ctx.state
    if None in rnd.picks:
        raise RuleError(Refusal.PICKS_INCOMPLETE)
    ctx.seat(index).missed = 0
    rnd.clue = clue
    state.phase = Phase.GUESS
    state.deadline = ctx.timer(state.settings.guess_s)
    ctx.emit(ClueGiven(round_no=rnd.no, clue=clue, deadline=state.deadline))
    close_if_complete(ctx)


def _require_guesser(ctx: Ctx, index: int) -> None:
    require_phase(ctx, Phase.GUESS)
    rnd = ctx.round
    if index == rnd.active:
        raise RuleError(ErrorCode.STORYTELLER_CANNOT_VOTE)
    if index not in rnd.participants:
        raise RuleError(ErrorCode.NOT_IN_ROUND)
    if index in rnd.dropped:
        raise RuleError(ErrorCode.STALE, "this seat does not guess this round")
    if index in rnd.confirmed:
        raise RuleError(ErrorCode.GUESS_FINAL)


def guess_icon(ctx: Ctx, index: int, icon: int) -> None:
    """A guesser picks its icon in the icon's column; it may change until it confirms."""
    _require_guesser(ctx, index)
    column = _column(ctx, icon)
    rnd = ctx.round
    rnd.guesses.setdefault(index, [None] * COLUMNS)[column] = icon
    ctx.emit(GuessPicked(round_no=rnd.no, seat=index, column=column, icon=icon))


def confirm_guess(ctx: Ctx, index: int) -> None:
    """A guesser confirms one icon in each column; a confirmed guess is final."""
    _require_guesser(ctx, index)
    rnd = ctx.round
    guess = rnd.guesses.get(index)
    if guess is None or None in guess:
        raise RuleError(Refusal.PICKS_INCOMPLETE)
    rnd.confirmed.append(index)
    ctx.emit(GuessConfirmed(round_no=rnd.no, seat=index))
    close_if_complete(ctx)


def close_if_complete(ctx: Ctx) -> None:
    """Close guessing once every guesser has confirmed."""
    if ctx.state.phase is Phase.GUESS and not ctx.state.waiting_for():
        close_guessing(ctx)


def close_guessing(ctx: Ctx) -> None:
    """Drop the unconfirmed guesses, score the round and start the reveal's timer."""
    state, rnd = ctx.state, ctx.round
    guessers = state.guessers()
    rnd.guesses = {i: rnd.guesses[i] for i in sorted(rnd.confirmed) if i in rnd.guesses}
    answer = [icon for icon in rnd.picks if icon is not None]
    confirmed = {i: [icon for icon in g if icon is not None] for i, g in rnd.guesses.items()}
    points, correct = score_round(
        rnd.active, answer, confirmed, guessers, state.settings.connoisseurs
    )
    for index, gained in points.items():
        state.seats[index].score += gained
        state.seats[index].best = max(state.seats[index].best, gained)
    for index in correct:
        state.seats[index].correct += 1
    rnd.points, rnd.correct = points, correct
    state.phase = Phase.REVEAL
    state.deadline = ctx.presentation(state.settings.reveal_s)
    ctx.emit(
        RoundScored(
            round_no=rnd.no,
            answer=answer,
            guesses=confirmed,
            correct=correct,
            points=points,
            deadline=state.deadline,
        )
    )


def void_round(ctx: Ctx, reason: VoidReason) -> None:
    """The turn ends without a clue: it is used up, the board stays for the next one."""
    rnd = ctx.round
    seat = ctx.seat(rnd.active)
    ctx.emit(RoundVoided(round_no=rnd.no, active=rnd.active, reason=reason))
    if reason != "active_left":
        seat.missed += 1  # a miss, for the two-misses rule
        if seat.missed >= MISSES_BEFORE_SPECTATING and seat.status is SeatStatus.PLAYING:
            seat.status = SeatStatus.SPECTATING
            ctx.emit(SeatSpectating(seat=rnd.active))
    if abandon_if_too_few(ctx):
        return
    # A missed clue leaves the next player 30 s (the seed's rule): the board has been in view
    # for the whole clue time. A turn cut short by leaving or a refused private chat has not.
    carried = reason in ("missed_clue", "skipped")
    seconds = CARRIED_CLUE_S if carried else ctx.state.settings.clue_s
    pass_turn(ctx, new_board=False, seconds=seconds)


def time_out(ctx: Ctx, reason: VoidReason = "missed_clue") -> None:
    """Apply the current phase's timeout rule once."""
    phase = ctx.state.phase
    if phase is Phase.CLUE:
        void_round(ctx, reason)
    elif phase is Phase.GUESS:
        close_guessing(ctx)
    elif phase is Phase.REVEAL:
        end_of_reveal(ctx)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE)


def unreachable(ctx: Ctx, index: int) -> None:
    """A seat's private chat refused the bot: treat it at once as missing its action."""
    state, rnd = ctx.state, ctx.round
    if state.phase is Phase.CLUE and index == rnd.active:
        ctx.emit(SeatUnreachable(seat=index))
        void_round(ctx, "unreachable")
    elif state.phase is Phase.GUESS and index in state.waiting_for():
        ctx.emit(SeatUnreachable(seat=index))
        rnd.dropped.append(index)
        rnd.guesses.pop(index, None)
        close_if_complete(ctx)
    else:
        raise RuleError(ErrorCode.STALE, "nothing awaited from this seat")


def leave(ctx: Ctx, index: int) -> None:
    """A seat leaves for good: a turn of its own before the clue is void (not a miss); its
    guess, if any, is dropped; an active player leaving after its clue still scores."""
    state, rnd = ctx.state, ctx.state.round
    prompt = rnd.no if rnd is not None and index in state.waiting_for() else None
    ctx.seat(index).status = SeatStatus.LEFT
    ctx.emit(SeatLeft(seat=index, prompt_round=prompt))
    if abandon_if_too_few(ctx) or rnd is None:
        return
    if state.phase is Phase.CLUE and index == rnd.active:
        void_round(ctx, "active_left")
    elif state.phase is Phase.GUESS:
        rnd.guesses.pop(index, None)
        if index in rnd.confirmed:
            rnd.confirmed.remove(index)
        close_if_complete(ctx)
