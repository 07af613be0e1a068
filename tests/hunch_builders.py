"""Builders for Hunch! games in tests: a game reached through the rules, phases played by
every seat at once, and random commands (legal or not) for playthroughs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.games import registry
from engine.games.hunch import commands as hc
from engine.games.hunch import deck
from engine.games.hunch.commands import (
    Bid,
    BuyHunch,
    ChooseSecret,
    Command,
    KeepClue,
    MarkEasy,
    PassBid,
    PlaceClue,
    PlaceHunch,
    ReplaceClueCard,
    TakeBackHunch,
    TakeCoins,
    Timeout,
    WriteClue,
)
from engine.games.hunch.model import Phase, Settings, State
from engine.games.hunch.rules import apply, start
from engine.games.hunch.table import GAME as HUNCH
from engine.games.hunch.turns import matrix_words
from engine.model import SeatStatus
from tests.play_builders import Builder, PlayedGame
from tests.play_builders import user as user  # the user ids the tests of this game know
from tests.playthrough import random_user, table_command

TABLE = registry.GAMES
"""The bot's games, Hunch! among them."""
assert TABLE["hunch"] is HUNCH

SAFE_CLUES = ("zq", "qx vv", "wkw", "jjy zz")
"""Clues that name no matrix word in any language."""


@dataclass
class Game(PlayedGame):
    """A game being played in a test: apply commands, keep the clock and the last events."""

    rules = staticmethod(apply)
    timeout = Timeout

    state: State

    def seat(self, index: int) -> Any:
        return self.state.seats[index]

    def on_turn(self) -> int:
        seat = self.round.seat
        assert seat is not None, self.state.phase
        return int(seat)

    def secret_word(self, owner: int, slot: int = 0) -> int:
        word = self.state.seats[owner].secrets[slot].word_id
        assert word is not None
        return word

    def wrong_word(self, owner: int, slot: int = 0) -> int:
        """A matrix word that is not that secret."""
        right = self.secret_word(owner, slot)
        return next(w for w in sorted(matrix_words(self.state)) if w != right)

    # Secrets

    def choose(self, seat: int, card: int, word: int) -> Game:
        self.do(ChooseSecret(user_id=self.uid(seat), card=card, word=word))
        return self

    def choose_all(self, word: int = 0) -> Game:
        """Every seat still choosing takes word `word` of each of its cards."""
        for seat in list(self.state.waiting_for()):
            for card in range(len(self.state.seats[seat].secrets)):
                if self.state.phase is Phase.SECRETS:
                    self.choose(seat, card, word)
        return self

    # Clues

    def write(self, seat: int, card: int, text: str) -> Game:
        self.do(WriteClue(user_id=self.uid(seat), card=card, text=text))
        return self

    def write_all(self, question: bool = False) -> Game:
        """Every seat writes a harmless clue on each of its cards."""
        for seat in list(self.state.waiting_for()):
            for card in range(len(self.state.seats[seat].hand)):
                if self.state.phase is Phase.CLUES:
                    self.write(seat, card, SAFE_CLUES[(seat + card) % len(SAFE_CLUES)])
        return self

    # Trading

    def bid(self, amount: int, seat: int | None = None) -> Game:
        who = self.on_turn() if seat is None else seat
        self.do(Bid(user_id=self.uid(who), amount=amount))
        return self

    def pass_bid(self, seat: int | None = None) -> Game:
        who = self.on_turn() if seat is None else seat
        self.do(PassBid(user_id=self.uid(who)))
        return self

    def pass_all(self) -> Game:
        """Every bidder passes until the auctions are over."""
        while self.state.phase is Phase.AUCTION:
            self.pass_bid()
        return self

    def offered(self, seller: int) -> list[int]:
        """The seller's clues on offer."""
        return [c.id for c in self.state.clues if c.writer == seller and c.owner is None]

    def place(self, clue: int, secret: int = 0, answer: bool | None = None) -> Game:
        self.do(PlaceClue(user_id=self.uid(self.on_turn()), clue=clue, secret=secret,
                          answer=answer))  # fmt: skip
        return self

    def take_coins(self) -> Game:
        self.do(TakeCoins(user_id=self.uid(self.on_turn())))
        return self

    def keep(self, clue: int, secret: int = 0, answer: bool | None = None) -> Game:
        self.do(KeepClue(user_id=self.uid(self.on_turn()), clue=clue, secret=secret,
                         answer=answer))  # fmt: skip
        return self

    def coins_all(self) -> Game:
        """Every seat takes 2 coins in the bargain round."""
        while self.state.phase is Phase.BARGAIN:
            self.take_coins()
        return self

    def to_hunches(self) -> Game:
        """Nobody buys; every seat takes the coins: the hunch phase."""
        return self.pass_all().coins_all()

    # Hunches

    def hunch(self, seat: int, owner: int, slot: int, word: int) -> Game:
        self.do(PlaceHunch(user_id=self.uid(seat), owner=owner, secret=slot, word=word))
        return self

    def reveal_now(self) -> Game:
        """The hunch phase's time runs out."""
        return self.time_out()


@dataclass
class GameBuilder(Builder):
    """`a_game().with_players(3).starting(0).started()`: a game choosing its secrets."""

    players: int = 4
    first: int | None = 0
    language: str = "en"

    def starting(self, seat: int | None) -> GameBuilder:
        """The starting player (a seed that draws it is looked for); None: any."""
        self.first = seat
        return self

    def in_language(self, language: str) -> GameBuilder:
        self.language = language
        return self

    def started(self) -> Game:
        players = self.seated()
        settings = Settings(**{"max_seats": 6, **self.settings})
        game = Game(state=None)  # type: ignore[arg-type]
        for seed in range(self.seed, self.seed + 200):
            game.state, game.events = start(players, settings, seed=seed, now=game.now,
                                            language=self.language)  # fmt: skip
            if self.first is None or game.state.starting == self.first:
                break
        assert self.first is None or game.state.starting == self.first
        return game

    def in_clues(self) -> Game:
        return self.started().choose_all()

    def in_auctions(self) -> Game:
        return self.in_clues().write_all()

    def in_hunches(self) -> Game:
        return self.in_auctions().to_hunches()


def a_game() -> GameBuilder:
    """Start building a game (four seats, seat 0 the starting player)."""
    return GameBuilder()


TEXTS = ("zq", "rose", "Roses!", "", "   ", "x" * 41, "a nice one", "ÉTOILE", "ёлки", "Hunde")


def random_command(state: State, rnd: random.Random, now: float) -> tuple[Command, float]:
    """A command a player or a timer might send now, legal or not; and when it arrives."""
    rnd_step = state.round.no if state.round is not None else 1
    uid = random_user(state, rnd)
    number = rnd_step - (rnd.random() < 0.05)
    roll = rnd.random()
    table = table_command(state, rnd, now, hc, uid, number, roll)
    if table is not None:
        command, at = table
        if isinstance(command, hc.Leave | hc.StopGame) and rnd.random() < 0.7:
            return PassBid(user_id=uid), now  # fewer ends by leaving: longer games
        return command, at
    index = state.seat_of(uid)
    return own_command(state, rnd, uid, index), now


def own_command(state: State, rnd: random.Random, uid: int, index: int | None) -> Command:
    """One of the game's own commands, mostly fitting the phase, sometimes not."""
    phase = state.phase if rnd.random() < 0.9 else rnd.choice(list(Phase))
    seats = len(state.seats)
    if phase is Phase.SECRETS:
        return ChooseSecret(user_id=uid, card=rnd.randrange(-1, 4), word=rnd.randrange(-1, 4))
    if phase is Phase.CLUES:
        if rnd.random() < 0.1:
            return ReplaceClueCard(user_id=uid, card=rnd.randrange(-1, 3))
        text = rnd.choice(TEXTS) if rnd.random() < 0.4 else rnd.choice(SAFE_CLUES)
        return WriteClue(user_id=uid, card=rnd.randrange(0, 3), text=text)
    ids = [c.id for c in state.clues] + [999]
    if phase is Phase.AUCTION:
        high = state.auction.high() if state.auction is not None else None
        base = high[1] if high is not None else 0
        if rnd.random() < 0.45:
            return PassBid(user_id=uid)
        return Bid(user_id=uid, amount=base + rnd.choice([0, 1, 1, 2, 5, 9]))
    if phase is Phase.PLACE:
        return PlaceClue(user_id=uid, clue=rnd.choice(ids), secret=rnd.randrange(-1, 3),
                         answer=rnd.choice([None, True, False]))  # fmt: skip
    if phase is Phase.BARGAIN:
        roll = rnd.random()
        if roll < 0.4:
            return TakeCoins(user_id=uid)
        if roll < 0.7:
            return KeepClue(user_id=uid, clue=rnd.choice(ids), secret=rnd.randrange(0, 3),
                            answer=rnd.choice([None, True, False]))  # fmt: skip
        if roll < 0.85:
            return BuyHunch(user_id=uid)
        return MarkEasy(user_id=uid, secret=rnd.randrange(-1, 3))
    owner = rnd.randrange(-1, seats + 1)
    slot = rnd.randrange(0, 3)
    if rnd.random() < 0.1:
        return TakeBackHunch(user_id=uid, owner=owner, secret=slot)
    words = sorted(matrix_words(state)) or [0]
    word = rnd.choice(words)
    if 0 <= owner < seats and slot < len(state.seats[owner].secrets) and rnd.random() < 0.35:
        word = state.seats[owner].secrets[slot].word_id or word  # a good hunch
    return PlaceHunch(user_id=uid, owner=owner, secret=slot, word=word)


def finishing_move(state: State) -> tuple[Command, float]:
    """Drive a game to its end: each step's timer fires (a manager skips when timers are
    off)."""
    assert state.round is not None
    if state.deadline is None:
        return hc.Skip(user_id=state.host, is_admin=True), 0.0
    return Timeout(round_no=state.round.no, phase=state.phase), state.deadline


def next_move(state: State, now: float) -> tuple[Command, float]:
    """The next command of a game played by sensible seats, and its time.

    Secrets are the cards' first words but for odd seats (the second); clues are harmless;
    bidders raise by one while they have more than two coins; a buyer or keeper answers
    yes; every other seat keeps a leftover clue, the rest take coins; hunches go to the secrets
    in seat order, right for even guessers and wrong for odd ones. A reveal ends at its timer.
    """
    step = state.round
    assert step is not None
    waiting = state.waiting_for()
    if state.phase is Phase.REVEAL or not waiting:
        assert state.deadline is not None
        return Timeout(round_no=step.no, phase=state.phase), state.deadline
    seat = waiting[0]
    uid = state.seats[seat].user_id
    if state.phase is Phase.SECRETS:
        card = [s.word for s in state.seats[seat].secrets].index(None)
        return ChooseSecret(user_id=uid, card=card, word=seat % 2), now
    if state.phase is Phase.CLUES:
        card = state.seats[seat].texts.index(None)
        return WriteClue(user_id=uid, card=card, text=SAFE_CLUES[card]), now
    if state.phase is Phase.AUCTION:
        high = state.auction.high() if state.auction is not None else None
        amount = (high[1] if high is not None else 0) + 1
        if state.seats[seat].coins > 2 and amount <= state.seats[seat].coins:
            return Bid(user_id=uid, amount=amount), now
        return PassBid(user_id=uid), now
    secrets = state.seats[seat].in_play()
    if state.phase is Phase.PLACE:
        assert state.auction is not None
        clue = next(c for c in state.clues
                    if c.writer == state.auction.seller and c.owner is None)  # fmt: skip
        return PlaceClue(user_id=uid, clue=clue.id, secret=secrets[0],
                         answer=True if deck.is_question(clue.card) else None), now  # fmt: skip
    if state.phase is Phase.BARGAIN:
        left = [c for c in state.clues if c.owner is None and c.writer != seat]
        if left and secrets and seat % 2 == 0:
            return KeepClue(user_id=uid, clue=left[0].id, secret=secrets[0],
                            answer=True if deck.is_question(left[0].card) else None), now
        return TakeCoins(user_id=uid), now
    taken = {(h.owner, h.secret) for h in state.seats[seat].hunches}
    owner, slot = next((o, k) for o in range(len(state.seats)) if o != seat
                       and state.seats[o].status is not SeatStatus.LEFT
                       for k in state.seats[o].in_play() if (o, k) not in taken)  # fmt: skip
    right = state.seats[owner].secrets[slot].word_id
    assert right is not None
    word = right if seat % 2 == 0 else min(w for w in matrix_words(state) if w != right)
    return PlaceHunch(user_id=uid, owner=owner, secret=slot, word=word), now


__all__ = ["TABLE", "Game", "a_game", "finishing_move", "next_move", "random_command", "user"]
