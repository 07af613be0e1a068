"""Builders that put a room in a given phase by playing real commands through the engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.commands import GiveHint, Join, OpenLobby, StartGame, Timeout
from engine.events import AnyEvent
from engine.games.hintrigue.commands import ChooseCard, Command, PlayDecoy, Vote
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of, state_of
from engine.games.hintrigue.settings import OWN_SETTINGS, settings_of
from engine.games.hintrigue.settings import apply_changes as own_changes
from engine.model import Room
from engine.settings import apply_changes
from tests.table import apply

CHAT = -1001
BASE_USER = 100


def user(seat: int) -> int:
    """The user id of the player seated at `seat` by the builders."""
    return BASE_USER + seat


@dataclass
class Game:
    """A room being played in a test: apply commands, keep the clock and the last events."""

    room: Room
    now: float = 1_000.0
    events: list[AnyEvent] = field(default_factory=list)

    def do(self, command: Command) -> list[AnyEvent]:
        """Apply a command that must be accepted."""
        self.room, self.events = apply(self.room, command, self.now)
        return self.events

    def later(self, seconds: float) -> Game:
        """Move the clock."""
        self.now += seconds
        return self

    @property
    def round(self):  # type: ignore[no-untyped-def]
        assert round_of(self.room) is not None
        return round_of(self.room)

    def uid(self, seat: int) -> int:
        """The user id of the player at `seat`."""
        return self.room.seats[seat].user_id

    def storyteller(self) -> int:
        return self.round.storyteller

    def others(self) -> list[int]:
        return [i for i in self.round.participants if i != self.storyteller()]

    def hand(self, seat: int) -> list[int]:
        return own_seats(self.room)[seat].hand

    def give_hint(self, text: str = "a quiet morning") -> Game:
        teller = self.storyteller()
        self.do(ChooseCard(user_id=self.uid(teller), card=self.hand(teller)[0]))
        self.do(GiveHint(user_id=self.uid(teller), text=text))
        return self

    def play_decoys(self) -> Game:
        for seat in self.others():
            if seat not in self.round.plays:
                self.do(PlayDecoy(user_id=self.uid(seat), card=self.hand(seat)[0]))
        return self

    def card_of(self, seat: int) -> int:
        return self.round.plays[seat]

    def vote(self, seat: int, for_seat: int) -> Game:
        self.do(Vote(user_id=self.uid(seat), card=self.card_of(for_seat)))
        return self

    def time_out(self) -> Game:
        assert self.room.deadline is not None
        self.now = self.room.deadline
        self.do(Timeout(round_no=self.round.no, phase=phase_of(self.room)))
        return self


@dataclass
class RoomBuilder:
    """`a_room().with_players(4).in_voting()`: a room in a phase, reached through the rules."""

    players: int = 4
    seed: int = 7
    settings: dict[str, int | bool | str] = field(default_factory=dict)

    def with_players(self, count: int) -> RoomBuilder:
        self.players = count
        return self

    def with_seed(self, seed: int) -> RoomBuilder:
        self.seed = seed
        return self

    def with_settings(self, **changes: int | bool | str) -> RoomBuilder:
        self.settings.update(changes)
        return self

    def in_lobby(self) -> Game:
        game = Game(room=None)  # type: ignore[arg-type]
        game.room, _ = apply(
            None, OpenLobby(chat_id=CHAT, user_id=user(0), name="P0", seed=self.seed), game.now
        )
        own = {k: v for k, v in self.settings.items() if k in OWN_SETTINGS}
        shared = {k: v for k, v in self.settings.items() if k not in OWN_SETTINGS}
        if shared:
            game.room.settings = apply_changes(game.room.settings, shared)
        if own:
            game.room.game_settings = own_changes(settings_of(game.room), own)
        for seat in range(1, self.players):
            game.do(Join(user_id=user(seat), name=f"P{seat}"))
        return game

    def in_hint(self) -> Game:
        game = self.in_lobby()
        game.do(StartGame(user_id=user(0)))
        assert phase_of(game.room) is Phase.HINT
        return game

    def in_decoys(self) -> Game:
        return self.in_hint().give_hint()

    def in_voting(self) -> Game:
        return self.in_decoys().play_decoys()


def a_room() -> RoomBuilder:
    """Start building a room."""
    return RoomBuilder()


def card_locations(room: Room) -> list[int]:
    """Every card the room holds, wherever it is; each must appear exactly once."""
    cards = list(state_of(room).draw) + list(state_of(room).discard)
    for seat in own_seats(room):
        cards.extend(seat.hand)
    if round_of(room) is not None and phase_of(room) in (Phase.HINT, Phase.DECOYS, Phase.VOTING):
        cards.extend(round_of(room).plays.values())
    return cards


def next_move(room: Room, now: float) -> tuple[Command, float]:
    """The next command of a game where everybody acts at once, and its time.

    Every other voter finds the storyteller's card, so rounds score in different ways; the
    reveal ends when its timer fires.
    """
    rnd = round_of(room)
    assert rnd is not None
    teller = rnd.storyteller
    if phase_of(room) is Phase.HINT:
        uid = room.seats[teller].user_id
        if rnd.chosen is None:
            return ChooseCard(user_id=uid, card=own_seats(room)[teller].hand[0]), now
        return GiveHint(user_id=uid, text="a lighthouse at dawn"), now
    if phase_of(room) is Phase.DECOYS:
        seat = next(i for i in rnd.participants if i != teller and i not in rnd.plays)
        return PlayDecoy(user_id=room.seats[seat].user_id, card=own_seats(room)[seat].hand[0]), now
    if phase_of(room) is Phase.VOTING:
        seat = next(i for i in rnd.participants if i != teller and i not in rnd.votes)
        card = rnd.plays[teller] if seat % 2 else next(c for c in rnd.table if c != rnd.plays[seat])
        return Vote(user_id=room.seats[seat].user_id, card=card), now
    assert room.deadline is not None
    return Timeout(round_no=rnd.no, phase=phase_of(room)), room.deadline
