"""Builders for Guess What! games in tests: a game in a phase, reached through the rules."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.guesswhat.commands import (
    Command,
    ConfirmGuess,
    GiveClue,
    GuessIcon,
    PickIcon,
    Timeout,
)
from engine.games.guesswhat.model import Phase, Settings, State
from engine.games.guesswhat.rules import apply, start
from tests.play_builders import Builder, PlayedGame
from tests.play_builders import user as user  # the user ids the tests of this game know

Rows = tuple[int, int, int]


@dataclass
class Game(PlayedGame):
    """A game being played in a test: apply commands, keep the clock and the last events."""

    rules = staticmethod(apply)
    timeout = Timeout

    state: State

    def active(self) -> int:
        return self.round.active

    def column(self, column: int) -> list[int]:
        """The three icons of a column (0 = A)."""
        return self.state.board[column * 3 : column * 3 + 3]

    def pick(self, rows: Rows = (0, 0, 0)) -> Game:
        """The active player picks the icon of row `rows[c]` in each column c."""
        for column, row in enumerate(rows):
            self.do(PickIcon(user_id=self.uid(self.active()), icon=self.column(column)[row]))
        return self

    def clue(self, text: str = "a day at the seaside", rows: Rows = (0, 0, 0)) -> Game:
        """The active player picks and gives its clue."""
        return self.pick(rows).do_clue(text)

    def do_clue(self, text: str) -> Game:
        self.do(GiveClue(user_id=self.uid(self.active()), text=text))
        return self

    def guess(self, seat: int, rows: Rows, confirm: bool = True) -> Game:
        """A guesser picks row `rows[c]` in each column c, and confirms unless told not to."""
        for column, row in enumerate(rows):
            self.do(GuessIcon(user_id=self.uid(seat), icon=self.column(column)[row]))
        if confirm:
            self.do(ConfirmGuess(user_id=self.uid(seat)))
        return self


@dataclass
class GameBuilder(Builder):
    """`a_game().with_players(4).in_guess()`: a game in a phase, reached through the rules."""

    def in_clue(self) -> Game:
        players = self.seated()
        settings = Settings(**{"max_seats": 10, **self.settings})
        game = Game(state=None)  # type: ignore[arg-type]
        game.state, game.events = start(players, settings, seed=self.seed, now=game.now)
        assert game.state.phase is Phase.CLUE
        return game

    def in_guess(self) -> Game:
        return self.in_clue().clue()


def a_game() -> GameBuilder:
    """Start building a game."""
    return GameBuilder()


def icon_locations(state: State) -> list[int]:
    """Every icon the game holds, wherever it is; each must appear exactly once."""
    return list(state.board) + list(state.draw) + list(state.discard)


def next_move(state: State, now: float) -> tuple[Command, float]:
    """The next command of a game where everybody acts at once, and its time.

    The active player picks the first row; every other guesser finds it, the others pick the
    second row, so rounds score in different ways; the reveal ends when its timer fires.
    """
    rnd = state.round
    assert rnd is not None
    board = state.board
    if state.phase is Phase.CLUE:
        uid = state.seats[rnd.active].user_id
        for column, pick in enumerate(rnd.picks):
            if pick is None:
                return PickIcon(user_id=uid, icon=board[column * 3]), now
        return GiveClue(user_id=uid, text="a lighthouse at dawn"), now
    if state.phase is Phase.GUESS:
        seat = state.waiting_for()[0]
        uid = state.seats[seat].user_id
        guess = rnd.guesses.get(seat, [None, None, None])
        row = 0 if seat % 2 else 1
        for column, icon in enumerate(guess):
            if icon is None:
                return GuessIcon(user_id=uid, icon=board[column * 3 + row]), now
        return ConfirmGuess(user_id=uid), now
    assert state.deadline is not None
    return Timeout(round_no=rnd.no, phase=state.phase), state.deadline
