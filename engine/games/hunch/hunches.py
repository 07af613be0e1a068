"""The hunch phase (SPEC 11.4): each seat places as many hunches as the round's number (and
any it bought), each on a different secret of another seat still in play, naming a matrix
word; then every hunch is revealed and scored."""

from __future__ import annotations

from engine.errors import ErrorCode, RuleError
from engine.games.hunch.context import Ctx
from engine.games.hunch.errors import Refusal
from engine.games.hunch.events import HunchesRevealed, HunchPhaseStarted, HunchPlaced, Reveal
from engine.games.hunch.model import REMOVED, Hunch, Phase, RevealLine, State
from engine.games.hunch.turns import (
    abandon_if_too_few,
    acted,
    in_turn_from,
    matrix_words,
    missed,
    next_step,
)
from engine.model import SeatStatus


def start(ctx: Ctx) -> None:
    """Hunches are placed in private, every seat in play at once."""
    state = ctx.state
    state.phase = Phase.HUNCH
    state.in_phase = [i for i in state.in_play() if state.allowance(i) > 0]
    next_step(ctx, state.settings.hunch_s)
    allowed = [state.allowance(i) if i in state.in_phase else 0 for i in range(len(state.seats))]
    ctx.emit(HunchPhaseStarted(round_no=ctx.round.no, game_round=state.game_round,
                               hunches=allowed, deadline=state.deadline))  # fmt: skip
    if not state.waiting_for():
        reveal(ctx, timed_out=False)


def _require(ctx: Ctx, index: int) -> None:
    state = ctx.state
    if state.phase is not Phase.HUNCH:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {state.phase.value}")
    if index not in state.in_phase:
        raise RuleError(Refusal.NOT_AWAITED)


def _target(state: State, index: int, owner: int, slot: int) -> None:
    if owner == index:
        raise RuleError(Refusal.OWN_SECRET)
    if not 0 <= owner < len(state.seats) or state.seats[owner].status is SeatStatus.LEFT:
        raise RuleError(Refusal.NO_SUCH_SECRET, f"{owner}:{slot}")
    if slot not in state.seats[owner].in_play():
        raise RuleError(Refusal.NO_SUCH_SECRET, f"{owner}:{slot}")


def place(ctx: Ctx, index: int, owner: int, slot: int, word: int) -> None:
    """Place a hunch on another seat's secret (or change the word of one placed there)."""
    _require(ctx, index)
    state = ctx.state
    _target(state, index, owner, slot)
    if word not in matrix_words(state):
        raise RuleError(Refusal.NO_SUCH_WORD, str(word))
    seat = state.seats[index]
    placed = [h for h in seat.hunches if (h.owner, h.secret) == (owner, slot)]
    if placed:
        placed[0].word = word
    elif len(seat.hunches) >= state.allowance(index):
        raise RuleError(Refusal.NO_HUNCH_LEFT, str(state.allowance(index)))
    else:
        seat.hunches.append(Hunch(owner=owner, secret=slot, word=word))
    acted(ctx, index)
    ctx.emit(HunchPlaced(seat=index, owner=owner, secret=slot, word=word))
    if not state.waiting_for():
        reveal(ctx, timed_out=False)


def take_back(ctx: Ctx, index: int, owner: int, slot: int) -> None:
    """Take back one's hunch from a secret."""
    _require(ctx, index)
    seat = ctx.state.seats[index]
    kept = [h for h in seat.hunches if (h.owner, h.secret) != (owner, slot)]
    if len(kept) == len(seat.hunches):
        raise RuleError(Refusal.NOTHING_TO_TAKE_BACK, f"{owner}:{slot}")
    seat.hunches = kept
    acted(ctx, index)
    ctx.emit(HunchPlaced(seat=index, owner=owner, secret=slot, word=None))


def miss(ctx: Ctx, index: int) -> None:
    """A seat out of reach places no more hunches (those placed stand)."""
    state = ctx.state
    if not state.seats[index].hunches:
        missed(ctx, index)
    state.in_phase = [i for i in state.in_phase if i != index]
    if abandon_if_too_few(ctx):
        return
    if not state.waiting_for():
        reveal(ctx, timed_out=False)


def drop_seat(state: State, index: int) -> None:
    """A seat left: its hunches and the hunches on its secrets are dropped."""
    state.in_phase = [i for i in state.in_phase if i != index]
    state.seats[index].hunches = []
    for seat in state.seats:
        seat.hunches = [h for h in seat.hunches if h.owner != index]


def reveal(ctx: Ctx, timed_out: bool) -> None:
    """Reveal every hunch, secret by secret, owners in seat order from the starting player:
    a correct hunch gives its guesser +1 VP; a guessed secret gives its owner +1, and +1 more
    when two or more guessed it ("this is very easy": +1 more to the owner and to each
    correct guesser). A guessed secret leaves with its clues and its card."""
    state = ctx.state
    nobody = [i for i in state.in_phase if not state.seats[i].hunches]
    if timed_out:
        for index in nobody:
            missed(ctx, index)
        if abandon_if_too_few(ctx):
            return
    points = [0] * len(state.seats)
    reveals: list[Reveal] = []
    lines: list[RevealLine] = []
    for owner in in_turn_from(state, state.starting):
        for slot, secret in enumerate(state.seats[owner].secrets):
            if secret.status != "hidden":
                continue
            line = _reveal_secret(state, owner, slot, points)
            if line is not None:
                lines.append(line)
                reveals.append(Reveal(**line.model_dump(exclude={"clues"})))
    for index, seat in enumerate(state.seats):
        seat.vp += points[index]
        seat.score = seat.vp
        seat.hunches, seat.extra = [], 0
        for secret in seat.secrets:
            secret.easy = False
    state.revealed = lines
    state.in_phase = []
    state.phase = Phase.REVEAL
    next_step(ctx, state.settings.reveal_s, timed=False)
    assert state.deadline is not None
    ctx.emit(HunchesRevealed(game_round=state.game_round, reveals=reveals, points=points,
                             vp=[s.vp for s in state.seats], missed=nobody if timed_out else [],
                             deadline=state.deadline))  # fmt: skip


def _reveal_secret(state: State, owner: int, slot: int, points: list[int]) -> RevealLine | None:
    """Score one secret's hunches; a guessed secret leaves the game."""
    secret = state.seats[owner].secrets[slot]
    target = secret.word_id
    hunches = [(guesser, h.word, h.word == target)
               for guesser in in_turn_from(state, owner)
               for h in state.seats[guesser].hunches
               if (h.owner, h.secret) == (owner, slot)]  # fmt: skip
    if not hunches and not secret.easy:
        return None
    clues = [c.model_copy() for c in state.clues if (c.owner, c.secret) == (owner, slot)]
    right = [guesser for guesser, _, correct in hunches if correct]
    bonus = 1 if secret.easy else 0
    for guesser in right:
        points[guesser] += 1 + bonus
        state.seats[guesser].guessed += 1
    if right:
        points[owner] += 1 + (1 if len(right) >= 2 else 0) + bonus
        _leave_game(state, owner, slot)
    return RevealLine(owner=owner, secret=slot, hunches=hunches,
                      word=target if right else None, easy=secret.easy, clues=clues)  # fmt: skip


def _leave_game(state: State, owner: int, slot: int) -> None:
    """A guessed secret leaves the game with its clues and its target card."""
    secret = state.seats[owner].secrets[slot]
    secret.status = "guessed"
    state.seats[owner].exposed += 1
    state.guessed_total += 1
    state.matrix = [REMOVED if card == secret.card else card for card in state.matrix]
    gone = [c for c in state.clues if (c.owner, c.secret) == (owner, slot)]
    state.clue_discard.extend(c.card for c in gone)
    state.clues = [c for c in state.clues if (c.owner, c.secret) != (owner, slot)]
