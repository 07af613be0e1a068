"""Builders for Hues and Cues games in tests: a game in a phase, reached through the rules."""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.huescues.commands import (
    ChooseCell,
    ChooseColour,
    Command,
    ConfirmCone,
    GiveCue,
    NoSecondCue,
    Timeout,
)
from engine.games.huescues.model import Phase, Settings, State
from engine.games.huescues.rules import apply, start
from tests.play_builders import Builder, PlayedGame
from tests.play_builders import user as user  # the user ids the tests of this game know

WORDS = (
    "pig", "lavender", "turquoise", "sky", "lemon", "forest", "ocean", "candyfloss", "brick",
    "sand", "coral", "mint", "plum", "rust", "olive", "ink", "salmon", "honey", "cherry",
    "moss", "denim", "peach", "slate", "amber", "jade", "lilac", "cocoa", "cream", "tomato",
    "banana", "pumpkin", "cobalt", "ruby", "emerald", "sapphire", "ivory", "charcoal",
)  # fmt: skip


@dataclass
class Game(PlayedGame):
    """A game being played in a test: apply commands, keep the clock and the last events."""

    rules = staticmethod(apply)
    timeout = Timeout

    state: State
    said: int = 0

    def giver(self) -> int:
        return self.round.giver

    def word(self) -> str:
        """A cue word not used before in this game."""
        self.said += 1
        return WORDS[(self.said - 1) % len(WORDS)] + ("" if self.said <= len(WORDS) else "x")

    def colour(self, cell: int | None = None) -> Game:
        """The cue giver chooses `cell` (default: its card's first colour, or with free choice
        a cell that depends on the round)."""
        cards = self.state.card_cells() or [self.round.no * 37 % 480]
        chosen = cards[0] if cell is None else cell
        self.do(ChooseColour(user_id=self.uid(self.giver()), cell=chosen))
        return self

    def cue(self, text: str | None = None, cell: int | None = None) -> Game:
        """The cue giver chooses its colour (unless chosen) and gives the first cue."""
        if self.round.colour is None or cell is not None:
            self.colour(cell)
        return self.say(text or self.word())

    def say(self, text: str) -> Game:
        self.do(GiveCue(user_id=self.uid(self.giver()), text=text))
        return self

    def no_second(self) -> Game:
        self.do(NoSecondCue(user_id=self.uid(self.giver())))
        return self

    def cone(self, seat: int, cell: int, confirm: bool = True) -> Game:
        """A guesser chooses a cell, and confirms unless told not to."""
        self.do(ChooseCell(user_id=self.uid(seat), cell=cell))
        if confirm:
            self.do(ConfirmCone(user_id=self.uid(seat)))
        return self

    def cones(self, cells: dict[int, int]) -> Game:
        for seat, cell in cells.items():
            self.cone(seat, cell)
        return self


@dataclass
class GameBuilder(Builder):
    """`a_game().with_players(4).in_guess()`: a game in a phase, reached through the rules."""

    language: str = "en"

    def in_language(self, language: str) -> GameBuilder:
        self.language = language
        return self

    def with_settings(self, **changes: int | bool) -> GameBuilder:
        self.settings.update(changes)
        return self

    def in_cue(self) -> Game:
        players = self.seated()
        settings = Settings(**{"max_seats": 10, **self.settings})
        game = Game(state=None)  # type: ignore[arg-type]
        game.state, game.events = start(
            players, settings, seed=self.seed, now=game.now, language=self.language
        )
        assert game.state.phase is Phase.CUE
        return game

    def in_guess(self, cell: int | None = None) -> Game:
        return self.in_cue().cue(cell=cell)


def a_game() -> GameBuilder:
    """Start building a game."""
    return GameBuilder()


def next_move(state: State, now: float) -> tuple[Command, float]:
    """The next command of a game where everybody acts at once, and its time.

    The cue giver chooses its card's first colour; guessers at even seats put their first cone
    on it and the others one row below it (or above on the last row); second cones go one
    column aside; the reveal ends when its timer fires.
    """
    rnd = state.round
    assert rnd is not None
    if state.phase is Phase.CUE:
        uid = state.seats[rnd.giver].user_id
        if rnd.colour is None:
            cells = state.card_cells() or [rnd.no * 7 % 480]
            return ChooseColour(user_id=uid, cell=cells[0]), now
        return GiveCue(user_id=uid, text=f"cue{rnd.no}x"), now
    if state.phase is Phase.SECOND_CUE:
        uid = state.seats[rnd.giver].user_id
        if rnd.no % 3 == 0:
            return NoSecondCue(user_id=uid), now
        return GiveCue(user_id=uid, text=f"second{rnd.no} cue"), now
    if state.phase in (Phase.GUESS, Phase.SECOND_GUESS):
        seat = state.waiting_for()[0]
        uid = state.seats[seat].user_id
        if seat not in rnd.choices:
            assert rnd.colour is not None
            return ChooseCell(user_id=uid, cell=cone_for(state, seat)), now
        return ConfirmCone(user_id=uid), now
    assert state.deadline is not None
    return Timeout(round_no=rnd.no, phase=state.phase), state.deadline


def cone_for(state: State, seat: int) -> int:
    """Where `next_move` puts a seat's cone now (never on a first cone's cell when second)."""
    rnd = state.round
    assert rnd is not None and rnd.colour is not None
    row, column = divmod(rnd.colour, 30)
    if state.phase is Phase.GUESS:
        if seat % 2 == 0:
            return rnd.colour
        return (row + 1 if row < 15 else row - 1) * 30 + column
    taken = set(rnd.cones.values())
    for cell in range(480):
        candidate = (rnd.colour + 1 + cell + seat) % 480
        if candidate not in taken:
            return candidate
    raise AssertionError("no free cell")
