"""Wunchunk's AI seats (SPEC 11.5 "AI", SPEC 14): a seat's turn from the public board.

Candidate turns are built stone by stone: every stone that may come next (an empty cell, in
any seat's colour) is scored by what it does to the chunk and crumb counts, which a union of
groups tells in a few steps per stone, and by a position's worth:

- own chunks are worth having while the board is empty (each one is a stone more per turn)
  and cost more and more as it fills (the fewest chunks wins); the opponents' the other way;
- crumbs count a little against their colour (they break ties), and two groups of one colour
  a single empty cell apart count as almost one (one stone joins them).

Several turns are built (the best stone each time, or one of the best few, drawn by the
seeded generator), a pass among them; at the normal and strong levels each is answered by the
next seat's own best reply, built the same way from its point of view, and the turn whose
answered position is worth most is played. A pass that ends the game is taken when it wins.
Everything is seeded and offline, and counts its work rather than the clock, so a decision
asked twice is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.commands import Command, EndTurn, Pass, PlaceStone, Undo
from engine.games.wunchunk.model import EMPTY, Phase, State
from engine.model import Room, SeatStatus
from engine.rng import Rng
from workers.ai.mind import seed_for

LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class Style:
    """How hard a level thinks and what it values."""

    candidates: int
    """Turns built and compared (besides the pass)."""
    top: int
    """A candidate's stones are drawn among this many best (the first candidate takes the best)."""
    replies: bool
    """Whether each candidate is answered by the next seat's best reply before it is judged."""
    sample: int
    """At most this many empty cells away from every stone are tried per stone."""
    power: float = 0.3
    """What an own chunk is worth on an empty board (a stone more per turn)."""
    cost: float = 3.0
    """What an own chunk costs on a full board."""
    crumb: float = 0.35
    bridge: float = 0.5
    """How much of a chunk's cost a group saves when one empty cell joins it to another."""


STYLES = {
    1: Style(candidates=3, top=3, replies=False, sample=8),
    2: Style(candidates=8, top=3, replies=True, sample=10),
    3: Style(candidates=14, top=4, replies=True, sample=14),
}


class Position:
    """A board for thinking: colours by cell number, groups kept as a union (labels, sizes,
    members), chunk and crumb counts per colour, all updated stone by stone."""

    __slots__ = ("adj", "board", "chunks", "crumbs", "label", "members", "n", "seats", "total")

    def __init__(self, n: int, colours: Sequence[int], seats: int) -> None:
        geometry = hexes.geometry(n)
        self.n = n
        self.adj = geometry.adjacent
        self.seats = seats
        self.total = geometry.size
        self.board = list(colours)
        self.label = [-1] * len(self.board)
        self.members: dict[int, list[int]] = {}
        self.chunks = [0] * seats
        self.crumbs = [0] * seats
        for colour in range(seats):
            for group in hexes.groups_of(self.board, colour, n):
                gid = group[0]
                for cell in group:
                    self.label[cell] = gid
                self.members[gid] = group
                if len(group) >= 2:
                    self.chunks[colour] += 1
                else:
                    self.crumbs[colour] += 1

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.n, other.adj, other.seats, other.total = self.n, self.adj, self.seats, self.total
        other.board = list(self.board)
        other.label = list(self.label)
        other.members = {gid: list(cells) for gid, cells in self.members.items()}
        other.chunks = list(self.chunks)
        other.crumbs = list(self.crumbs)
        return other

    def touching(self, cell: int, colour: int) -> list[int]:
        """The distinct groups of `colour` next to `cell`."""
        found: list[int] = []
        board, label = self.board, self.label
        for other in self.adj[cell]:
            if board[other] == colour:
                gid = label[other]
                if gid not in found:
                    found.append(gid)
        return found

    def effect(self, cell: int, colour: int) -> tuple[int, int]:
        """(chunks, crumbs) that `colour` gains (or loses) by a stone on `cell`."""
        groups = self.touching(cell, colour)
        if not groups:
            return 0, 1
        members = self.members
        chunks = sum(1 for gid in groups if len(members[gid]) >= 2)
        crumbs = len(groups) - chunks
        return 1 - chunks, -crumbs

    def place(self, cell: int, colour: int) -> None:
        groups = self.touching(cell, colour)
        d_chunks, d_crumbs = self.effect(cell, colour)
        self.chunks[colour] += d_chunks
        self.crumbs[colour] += d_crumbs
        self.board[cell] = colour
        if not groups:
            self.label[cell] = cell
            self.members[cell] = [cell]
            return
        keep = max(groups, key=lambda gid: len(self.members[gid]))
        kept = self.members[keep]
        for gid in groups:
            if gid != keep:
                moved = self.members.pop(gid)
                for other in moved:
                    self.label[other] = keep
                kept.extend(moved)
        kept.append(cell)
        self.label[cell] = keep

    def empties(self) -> list[int]:
        return [i for i, colour in enumerate(self.board) if colour < 0]

    def bridges(self, colour: int) -> int:
        """Empty cells that touch two or more groups of `colour` (one stone joins them)."""
        count = 0
        for cell, here in enumerate(self.board):
            if here < 0 and len(self.touching(cell, colour)) >= 2:
                count += 1
        return count

    def score_list(self, colour: int) -> tuple[int, ...]:
        sizes = [len(cells) for gid, cells in self.members.items() if self.board[gid] == colour]
        return hexes.score_of_sizes(sizes)


def fill(position: Position) -> float:
    """How full the board is, 0–1."""
    return 1 - sum(1 for c in position.board if c < 0) / position.total


def chunk_weight(style: Style, filled: float) -> float:
    """What one own chunk is worth now: power while the board is empty, cost as it fills."""
    return style.power * (1 - filled) - style.cost * filled


def worth(position: Position, me: int, style: Style, active: Sequence[int]) -> float:
    """A position's worth for seat `me`: its own colour's counts against the opponents'."""
    filled = fill(position)
    weight = chunk_weight(style, filled)
    crumb = style.crumb * (0.3 + filled)
    bridge_weight = style.bridge * filled

    def of(colour: int) -> float:
        chunks = position.chunks[colour]
        soft = chunks - bridge_weight * min(position.bridges(colour), max(chunks - 1, 0))
        return weight * soft - crumb * position.crumbs[colour]

    mine = of(me)
    others = [of(colour) for colour in active if colour != me]
    if not others:
        return mine
    # the strongest opponent matters most (its worth to itself is what I must beat)
    return mine - 0.5 * (max(others) + sum(others) / len(others))


def final_rank(position: Position, me: int, active: Sequence[int]) -> float:
    """A finished game's worth: a win is worth most, a shared win less, a loss least."""
    mine = position.score_list(me)
    others = [position.score_list(c) for c in active if c != me]
    if not others:
        return 1000.0
    best_other = min(others)
    if mine < best_other:
        return 1000.0
    if mine == best_other:
        return 500.0
    return -1000.0 - sum(1 for other in others if other < mine)


@dataclass
class Turn:
    stones: list[tuple[int, int]]
    """(cell number, colour) in the order placed."""
    after: Position


def build_turn(
    position: Position,
    seat: int,
    allotment: int,
    style: Style,
    active: Sequence[int],
    rng: Rng | None,
    limit: int | None,
    plan: Sequence[int] = (),
) -> Turn:
    """A turn built stone by stone: first the own stones of a `plan` (a path joining two own
    groups), then each stone the best for `seat`'s worth (or, with `rng`, one of the
    `style.top` best), stopping when no stone adds worth. `limit`: at most this many of the
    seat's own chunks at the end (the balancing rule)."""
    work = position.copy()
    stones: list[tuple[int, int]] = []
    colours = list(range(position.seats))
    for cell in plan[:allotment]:
        work.place(cell, seat)
        stones.append((cell, seat))
    if limit is not None and work.chunks[seat] > limit:
        work, stones = position.copy(), []
    for _ in range(allotment - len(stones)):
        empties = work.empties()
        if not empties:
            break
        board, adj = work.board, work.adj
        near = [c for c in empties if any(board[o] >= 0 for o in adj[c])]
        far = [c for c in empties if not any(board[o] >= 0 for o in adj[c])]
        if len(far) > style.sample:
            step = len(far) // style.sample
            offset = rng.below(step) if rng is not None else 0
            far = far[offset::step][: style.sample]
        values = _stone_values(work, seat, style, active)
        options: list[tuple[float, int, int]] = []
        for cell in near + far:
            for colour in colours:
                if colour not in active and colour != seat:
                    continue
                d_chunks, d_crumbs = work.effect(cell, colour)
                if colour == seat and limit is not None and work.chunks[seat] + d_chunks > limit:
                    continue  # the balancing rule
                chunk_value, crumb_value = values[colour]
                gain = chunk_value * d_chunks + crumb_value * d_crumbs
                if d_chunks == 0 and d_crumbs == 0:
                    gain = -0.01  # a group only grows: nothing gained, a cell used
                options.append((gain, cell, colour))
        options.sort(key=lambda o: (-o[0], o[1], o[2]))
        if not options:
            break
        pick = 0
        if rng is not None and style.top > 1:
            pick = rng.below(min(style.top, len(options)))
        gain, cell, colour = options[pick]
        if gain <= 0 and options[0][0] <= 0 and stones:
            break  # a first stone is always placed: a pass gives the turn away
        if gain <= 0:
            gain, cell, colour = options[0]
        work.place(cell, colour)
        stones.append((cell, colour))
    return Turn(stones, work)


def _stone_values(
    work: Position, seat: int, style: Style, active: Sequence[int]
) -> dict[int, tuple[float, float]]:
    """What one more chunk and one more crumb of each colour is worth to `seat` now (the
    counts' part of `worth`; the strongest opponent weighs most)."""
    filled = fill(work)
    weight = chunk_weight(style, filled)
    crumb = style.crumb * (0.3 + filled)
    others = [c for c in active if c != seat]
    values = {seat: (weight, -crumb)}
    if others:
        strongest = max(others, key=lambda c: weight * work.chunks[c] - crumb * work.crumbs[c])
        for colour in others:
            share = 0.5 / len(others) + (0.5 if colour == strongest else 0.0)
            values[colour] = (-share * weight, share * crumb)
    for colour in range(work.seats):
        values.setdefault(colour, (0.0, 0.0))
    return values


def merge_paths(position: Position, colour: int, budget: int) -> list[list[int]]:
    """For each group of `colour`, the shortest run of empty cells (at most `budget`) whose
    stones would join it to another group of that colour; the shortest first."""
    board, adj, label = position.board, position.adj, position.label
    found: dict[tuple[int, ...], list[int]] = {}
    for gid, cells in position.members.items():
        if board[gid] != colour:
            continue
        back: dict[int, int] = {}
        frontier = []
        for cell in cells:
            for other in adj[cell]:
                if board[other] < 0 and other not in back:
                    back[other] = -1
                    frontier.append(other)
        depth = 1
        reached: int | None = None
        while frontier and depth <= budget and reached is None:
            following: list[int] = []
            for cell in frontier:
                if any(board[o] == colour and label[o] != gid for o in adj[cell]):
                    reached = cell
                    break
                for other in adj[cell]:
                    if board[other] < 0 and other not in back:
                        back[other] = cell
                        following.append(other)
            frontier = following
            depth += 1
        if reached is None:
            continue
        path = [reached]
        while back[path[-1]] != -1:
            path.append(back[path[-1]])
        found.setdefault(tuple(sorted(path)), path)
    return sorted(found.values(), key=lambda path: (len(path), path))


def greedy_gain(work: Position, cell: int, colour: int, seat: int) -> float:
    """A one-ply greedy player's gain: own chunks and crumbs down, the others' up, now."""
    d_chunks, d_crumbs = work.effect(cell, colour)
    sign = -1 if colour == seat else 1
    return sign * (d_chunks + 0.1 * d_crumbs)


def _ends_by_passing(state: State, seat: int) -> bool:
    """Whether this seat's pass ends the game (every other seat in play passed)."""
    return all(i in state.passed for i in state.in_play() if i != seat)


def choose(state: State, seat: int, seed: int, level: int = 2) -> list[tuple[int, int]] | None:
    """The stones (cell number, colour) the AI at `seat` plays now, or None to pass."""
    rnd = state.round
    assert rnd is not None
    style = STYLES.get(level, STYLES[2])
    rng = Rng(seed)
    position = Position(state.size, state.colours(), len(state.seats))
    active = [i for i, s in enumerate(state.seats) if s.status is not SeatStatus.LEFT]
    limit = rnd.chunks_before if rnd.balancing else None
    if rnd.allotment == 0:
        return None
    if _ends_by_passing(state, seat) and final_rank(position, seat, active) >= 1000.0:
        return None  # passing ends the game, and it wins
    allotment = rnd.allotment
    if len(active) > 2:  # more colours to try per stone: fewer candidates keep the time
        style = replace(style, candidates=max(3, style.candidates // 2))
    turns = [build_turn(position, seat, allotment, style, active, None, limit)]
    for path in merge_paths(position, seat, allotment)[: style.candidates // 2]:
        turns.append(build_turn(position, seat, allotment, style, active, None, limit, path))
    for _ in range(style.candidates - 1):
        turns.append(build_turn(position, seat, allotment, style, active, rng, limit))
    replier = _next_seat(state, seat)
    best_value: float | None = None
    best_stones: list[tuple[int, int]] | None = None
    seen: set[tuple[tuple[int, int], ...]] = set()
    for turn in turns:
        key = tuple(turn.stones)
        if key in seen:
            continue
        seen.add(key)
        value = _judge(turn, state, seat, replier, style, active, position)
        if best_value is None or value > best_value:
            best_value, best_stones = value, turn.stones
    return best_stones or None


def _judge(
    turn: Turn,
    state: State,
    seat: int,
    replier: int | None,
    style: Style,
    active: Sequence[int],
    position: Position,
) -> float:
    after = turn.after
    if all(c >= 0 for c in after.board):
        return final_rank(after, seat, active)
    if (
        not turn.stones
        and replier is not None
        and _pass_then_pass_ends(state, seat, replier)
        and final_rank(after, replier, active) >= 1000.0
    ):  # the next seat may end the game by passing, and will: it wins
        return final_rank(after, seat, active)
    if not style.replies or replier is None:
        return worth(after, seat, style, active)
    allot = min(after.chunks[replier], sum(1 for c in after.board if c < 0))
    reply = build_turn(after, replier, allot, style, active, None, None)
    answered = reply.after
    if all(c >= 0 for c in answered.board):
        return final_rank(answered, seat, active)
    return worth(answered, seat, style, active)


def _pass_then_pass_ends(state: State, seat: int, replier: int) -> bool:
    return all(i in state.passed for i in state.in_play() if i not in (seat, replier))


def _next_seat(state: State, seat: int) -> int | None:
    count = len(state.seats)
    for step in range(1, count):
        index = (seat + step) % count
        if state.seats[index].status is SeatStatus.PLAYING:
            return index
    return None


def state_seed(state: State, seat: int, *identity: object) -> int:
    """The seed of a seat's decision on this turn: `identity` names the game (its chat, topic
    and game id), so the same turn asked twice decides the same."""
    number = state.round.no if state.round is not None else 0
    return seed_for(*identity, number, state.phase.value, seat)


def decide(state: State, seat: int, seed: int, level: int | None = None) -> list[Command]:
    """The commands the AI at `seat` owes the game now, in order (empty: it owes nothing):
    its stones one by one, then End turn; or Pass. It reads only the public board (and its
    own turn, which it builds now). `level`: the game's `ai_level` unless given."""
    rnd = state.round
    if rnd is None or state.phase is not Phase.TURN or rnd.seat != seat:
        return []
    user = state.seats[seat].user_id
    chosen = choose(state, seat, seed, level if level is not None else state.settings.ai_level)
    if not chosen:
        return [Pass(user_id=user, round_no=rnd.no)]
    cells = hexes.geometry(state.size).cells
    commands: list[Command] = []
    if rnd.pending:  # a turn half built before (by a person, or a job that stopped)
        commands.append(Undo(user_id=user, round_no=rnd.no, all=True))
    commands += [
        PlaceStone(user_id=user, cell=cells[cell], colour=colour, round_no=rnd.no)
        for cell, colour in chosen
    ]
    commands.append(EndTurn(user_id=user, round_no=rnd.no))
    return commands


def in_room(room: Room, seat: int) -> list[Any]:
    """What the AI at `seat` does now in the room's game (its mind as the workers call it)."""
    state = room.play
    if not isinstance(state, State):
        return []
    seed = state_seed(state, seat, room.chat_id, room.topic, room.game_id)
    return list(decide(state, seat, seed))


__all__ = ["EMPTY", "LEVELS", "Position", "choose", "decide", "in_room", "state_seed"]
