"""Builders for Guess What! games in tests: a game in a phase, reached through the rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.games.guesswhat.commands import (
    Command,
    ConfirmGuess,
    GiveClue,
    GuessIcon,
    PickIcon,
    Timeout,
)
from engine.games.guesswhat.events import Event
from engine.games.guesswhat.model import Phase, Round, Settings, State
from engine.games.guesswhat.rules import apply, start

BASE_USER = 500
Rows = tuple[int, int, int]


def user(seat: int) -> int:
    """The user id of the player seated at `seat` by the builders."""
    return BASE_USER + seat


@dataclass
class Game:
    """A game being played in a test: apply commands, keep the clock and the last events."""

    state: State
    now: float = 1_000.0
    events: list[Event] = field(default_factory=list)

    def do(self, command: Command) -> list[Event]:
        """Apply a command that must be accepted."""
        self.state, self.events = apply(self.state, command, self.now)
        return self.events

    def later(self, seconds: float) -> Game:
        """Move the clock."""
        self.now += seconds
        return self

    @property
    def round(self) -> Round:
        assert self.state.round is not None
        return self.state.round

    def uid(self, seat: int) -> int:
        return self.state.seats[seat].user_id

    def active(self) -> int:
        return self.round.active

    def guessers(self) -> list[int]:
        return self.state.guessers()

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

    def time_out(self) -> Game:
        assert self.state.deadline is not None
        self.now = self.state.deadline
        self.do(Timeout(round_no=self.round.no, phase=self.state.phase))
        return self


@dataclass
class GameBuilder:
    """`a_game().with_players(4).in_guess()`: a game in a phase, reached through the rules."""

    players: int = 4
    seed: int = 7
    settings: dict[str, int | bool] = field(default_factory=dict)

    def with_players(self, count: int) -> GameBuilder:
        self.players = count
        return self

    def with_seed(self, seed: int) -> GameBuilder:
        self.seed = seed
        return self

    def with_settings(self, **changes: int | bool) -> GameBuilder:
        self.settings.update(changes)
        return self

    def in_clue(self) -> Game:
        players = [(user(i), f"P{i}") for i in range(self.players)]
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
