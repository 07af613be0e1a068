"""Builders for Wunchunk games in tests: a game reached through the rules, turns played by
cell names, a board set by hand, and a random next move for playthroughs."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.games.registry import GAMES
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.commands import (
    Command,
    EndTurn,
    Pass,
    PlaceStone,
    PlaceStones,
    Timeout,
    Undo,
)
from engine.games.wunchunk.context import Ctx
from engine.games.wunchunk.model import EMPTY, Phase, Settings, State
from engine.games.wunchunk.rules import apply, start
from engine.games.wunchunk.turns import rescore, start_turn
from engine.rng import Rng
from tests.play_builders import Builder, PlayedGame
from tests.play_builders import user as user  # the user ids the tests of this game know

TABLE = GAMES
"""The bot's games, Wunchunk among them."""


@dataclass
class Game(PlayedGame):
    """A game being played in a test: apply commands, keep the clock and the last events."""

    rules = staticmethod(apply)
    timeout = Timeout

    state: State

    @property
    def n(self) -> int:
        return self.state.size

    def on_turn(self) -> int:
        return self.round.seat

    def cell(self, name: str) -> hexes.Cell:
        cell = hexes.parse_cell(name, self.n)
        assert cell is not None, name
        return cell

    def place(self, *names: str, colour: int | None = None, seat: int | None = None) -> Game:
        """The seat on turn (or `seat`) adds stones on these cells (its colour by default)."""
        who = self.on_turn() if seat is None else seat
        for name in names:
            chosen = who if colour is None else colour
            self.do(PlaceStone(user_id=self.uid(who), cell=self.cell(name), colour=chosen))
        return self

    def end(self) -> Game:
        self.do(EndTurn(user_id=self.uid(self.on_turn())))
        return self

    def play(self, *names: str, colour: int | None = None) -> Game:
        """The seat on turn places these stones and ends its turn."""
        return self.place(*names, colour=colour).end()

    def pass_turn(self) -> Game:
        self.do(Pass(user_id=self.uid(self.on_turn())))
        return self

    def undo(self, name: str | None = None, everything: bool = False) -> Game:
        cell = self.cell(name) if name is not None else None
        self.do(Undo(user_id=self.uid(self.on_turn()), cell=cell, all=everything))
        return self

    def stones(self) -> dict[str, int]:
        """The board's stones by cell name."""
        return {hexes.cell_name(c, self.n): k for c, k in self.state.stones().items()}

    def with_board(self, stones: Mapping[str, int], fill: int | None = None) -> Game:
        """Set the board by hand (cell name → colour; every other cell empty, or of `fill`)
        and start the current seat's turn again with the allotment of that board."""
        g = hexes.geometry(self.n)
        cells = [EMPTY if fill is None else str(fill)] * g.size
        for name, colour in stones.items():
            cells[g.index[self.cell(name)]] = EMPTY if colour < 0 else str(colour)
        state = self.state.clone()
        state.board = "".join(cells)
        rescore(state)
        self.state = _restart(state, self.now)
        return self


def _restart(state: State, now: float) -> State:
    assert state.round is not None
    ctx = Ctx(state=state, now=now, rng=Rng(state.rng))
    start_turn(ctx, state.round.seat, number=state.round.no)
    return ctx.state


@dataclass
class GameBuilder(Builder):
    """`a_game().with_players(3).first(1).started()`: a game at its first turn."""

    players: int = 2
    first_seat: int | None = 0

    def first(self, seat: int | None) -> GameBuilder:
        """The seat that plays first (a seed that draws it is looked for); None: any."""
        self.first_seat = seat
        return self

    def with_settings(self, **changes: int | bool) -> GameBuilder:
        self.settings.update(changes)
        return self

    def started(self) -> Game:
        players = self.seated()
        settings = Settings(**{"max_seats": 4, **self.settings})
        game = Game(state=None)  # type: ignore[arg-type]
        for seed in range(self.seed, self.seed + 200):
            game.state, game.events = start(players, settings, seed=seed, now=game.now)
            if self.first_seat is None or game.state.first == self.first_seat:
                break
        assert game.state.phase is Phase.TURN
        assert self.first_seat is None or game.state.first == self.first_seat
        return game


def a_game() -> GameBuilder:
    """Start building a game (two seats, seat 0 first)."""
    return GameBuilder()


def random_turn(state: State, rng: random.Random) -> list[Command]:
    """A random turn for the seat on turn: some stones (up to its allotment, any colours,
    sometimes one too many or on a taken cell), then End turn or Pass; the reveal's timer
    when the play is over."""
    rnd = state.round
    assert rnd is not None
    if state.phase is Phase.REVEAL:
        return [Timeout(round_no=rnd.no, phase=state.phase)]
    uid = state.seats[rnd.seat].user_id
    g = hexes.geometry(state.size)
    empty = [i for i, c in enumerate(state.board) if c == EMPTY]
    count = min(len(empty), rng.choice([rnd.allotment] * 3 + [rng.randint(0, rnd.allotment + 1)]))
    chosen = rng.sample(empty, count)
    colours = len(state.seats)
    stones = [
        (g.cells[i], rng.choice([rnd.seat, rnd.seat, rng.randrange(colours)])) for i in chosen
    ]
    commands: list[Command] = []
    if stones and rng.random() < 0.3:
        commands.append(PlaceStones(user_id=uid, stones=tuple(stones)))
    else:
        commands += [PlaceStone(user_id=uid, cell=c, colour=k) for c, k in stones]
    if rng.random() < 0.1 and stones:
        commands.append(Undo(user_id=uid))
    roll = rng.random()
    if roll < 0.03:
        commands.append(Timeout(round_no=rnd.no, phase=state.phase))
    elif roll < 0.08:
        commands.append(Pass(user_id=uid))
    else:
        commands.append(EndTurn(user_id=uid))
    return commands


__all__ = ["TABLE", "Game", "a_game", "random_turn", "user"]
