"""Wunchunk's AI benchmark (SPEC 11.5 "AI"): two-seat games on a board of six through the real
rules, the AI (`workers.ai.wunchunk.decide`) against a random player and against a one-ply
greedy player, each seat playing first in half the games (who plays first is drawn).

- the random player places a random number of stones (more likely many, as AbstractPlay's
  random move does) on random empty cells, in random colours; it passes only when it must;
- the one-ply greedy player places, stone by stone, the stone that does most now for the
  counts (own chunks, then crumbs, down; the opponent's up), stops when none helps, and
  passes when its pass ends a game it wins.

Prints `key=value` lines: games, wins, draws (shared wins) and the win rate against each,
and the AI's decision time (p50, p99, max, in ms) on this core. A draw is not a win.

Run: .venv/bin/python bench/wunchunk_ai.py [games per opponent] [level] [size]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.wunchunk import board as hexes  # noqa: E402
from engine.games.wunchunk.commands import (  # noqa: E402
    Command,
    EndTurn,
    Pass,
    PlaceStone,
    Timeout,
)
from engine.games.wunchunk.model import OVER_PHASES, Phase, Settings, State  # noqa: E402
from engine.games.wunchunk.rules import apply, start  # noqa: E402
from engine.games.wunchunk.turns import winners  # noqa: E402
from workers.ai import wunchunk as ai  # noqa: E402

Player = Callable[[State, int, random.Random], list[Command]]


def random_player(state: State, seat: int, rng: random.Random) -> list[Command]:
    rnd = state.round
    assert rnd is not None
    user = state.seats[seat].user_id
    if rnd.allotment == 0:
        return [Pass(user_id=user)]
    weighted = [k for k in range(1, rnd.allotment + 1) for _ in range(k + 1)]
    count = rng.choice(weighted)
    g = hexes.geometry(state.size)
    empty = [i for i, c in enumerate(state.board) if c == "."]
    cells = rng.sample(empty, min(count, len(empty)))
    stones = [(g.cells[i], rng.randrange(len(state.seats))) for i in cells]
    if rnd.balancing:  # stay within the balancing rule: keep own stones apart from its own
        position = ai.Position(state.size, state.colours(), len(state.seats))
        kept = []
        for cell, colour in stones:
            number = g.index[cell]
            before = position.chunks[seat]
            trial = position.copy()
            trial.place(number, colour)
            if trial.chunks[seat] <= rnd.chunks_before or trial.chunks[seat] <= before:
                position = trial
                kept.append((cell, colour))
        stones = kept
    commands: list[Command] = [PlaceStone(user_id=user, cell=c, colour=k) for c, k in stones]
    return [*commands, EndTurn(user_id=user)]


def greedy_player(state: State, seat: int, rng: random.Random) -> list[Command]:
    rnd = state.round
    assert rnd is not None
    user = state.seats[seat].user_id
    position = ai.Position(state.size, state.colours(), len(state.seats))
    active = list(range(len(state.seats)))
    if all(i in state.passed for i in state.in_play() if i != seat) and (
        ai.final_rank(position, seat, active) >= 1000.0
    ):
        return [Pass(user_id=user)]
    g = hexes.geometry(state.size)
    stones: list[tuple[int, int]] = []
    for _ in range(rnd.allotment):
        options = [
            (ai.greedy_gain(position, cell, colour, seat), rng.random(), cell, colour)
            for cell in position.empties()
            for colour in active
        ]
        if not options:
            break
        gain, _, cell, colour = max(options)
        if gain <= 0:
            break
        if rnd.balancing and colour == seat:
            trial = position.copy()
            trial.place(cell, colour)
            if trial.chunks[seat] > rnd.chunks_before:
                break
        position.place(cell, colour)
        stones.append((cell, colour))
    if not stones:
        return [Pass(user_id=user)]
    commands: list[Command] = [
        PlaceStone(user_id=user, cell=g.cells[c], colour=k) for c, k in stones
    ]
    return [*commands, EndTurn(user_id=user)]


def play(game: int, opponent: Player, level: int, size: int, times: list[float]) -> str:
    """One game; 'win', 'draw' or 'loss' for the AI."""
    rng = random.Random(game)
    ai_seat = game % 2
    players = [(1, "A"), (2, "B")]
    state, _ = start(players, Settings(size=size), seed=game * 7919 + 1, now=0.0)
    now = 0.0
    while state.phase not in OVER_PHASES:
        rnd = state.round
        assert rnd is not None
        if state.phase is Phase.REVEAL:
            state, _ = apply(
                state, Timeout(round_no=rnd.no, phase=state.phase), state.deadline or 0
            )
            continue
        seat = rnd.seat
        if seat == ai_seat:
            began = time.perf_counter()
            commands = ai.decide(state, seat, ai.state_seed(state, seat, "bench", game), level)
            times.append(time.perf_counter() - began)
        else:
            commands = opponent(state, seat, rng)
        for command in commands:
            state, _ = apply(state, command, now)  # never refused
        now += 1
    won = winners(state)
    if won == [ai_seat]:
        return "win"
    return "draw" if ai_seat in won else "loss"


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    level = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    times: list[float] = []
    print(f"wunchunk_games={games}")
    print(f"wunchunk_level={level}")
    print(f"wunchunk_size={size}")
    for name, opponent in (("random", random_player), ("greedy", greedy_player)):
        results = [play(game, opponent, level, size, times) for game in range(games)]
        wins, draws = results.count("win"), results.count("draw")
        print(f"ai_vs_{name}_wins={wins}")
        print(f"ai_vs_{name}_draws={draws}")
        print(f"ai_vs_{name}_win_rate={wins / games:.3f}")
    ms = sorted(t * 1000 for t in times)
    print(f"decisions={len(ms)}")
    print(f"decision_ms_p50={statistics.median(ms):.1f}")
    print(f"decision_ms_p99={ms[min(len(ms) - 1, int(len(ms) * 0.99))]:.1f}")
    print(f"decision_ms_max={ms[-1]:.1f}")


if __name__ == "__main__":
    main()
