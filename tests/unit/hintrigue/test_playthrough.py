"""Seeded random playthroughs: random legal and illegal commands, random timeouts, invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import ComeBack, Command, GiveHint, Join, Leave, MarkUnreachable, Skip, Timeout
from engine.errors import RuleError
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import RoundScored
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of, state_of
from engine.games.hintrigue.scoring import score_round
from engine.games.hintrigue.settings import settings_of
from engine.model import OVER_PHASES, Room, SeatStatus
from engine.model import Phase as TablePhase
from tests.builders import a_room
from tests.table import apply

NEXT_PHASES = {
    Phase.HINT: {Phase.HINT, Phase.DECOYS, Phase.VOTING, Phase.REVEAL, TablePhase.FINISHED,
                 TablePhase.ABANDONED},
    Phase.DECOYS: {Phase.DECOYS, Phase.VOTING, Phase.REVEAL, Phase.HINT, TablePhase.FINISHED,
                   TablePhase.ABANDONED},
    Phase.VOTING: {Phase.VOTING, Phase.REVEAL, TablePhase.ABANDONED},
    Phase.REVEAL: {Phase.REVEAL, Phase.HINT, TablePhase.FINISHED, TablePhase.ABANDONED},
}
"""From the game's phase before a command (the room's once over), what may follow it."""
HINTS = ["a quiet morning", "", "   ", "x" * 201, "🌙" * 200, "<b>&</b>"]


def where(room: Room) -> str:
    """The game's phase while it runs, else the room's."""
    return phase_of(room) if room.phase is TablePhase.PLAYING else room.phase


def random_command(room: Room, rnd: random.Random, now: float) -> tuple[Command, float]:
    """A command a player or a timer might send now, legal or not; and the time it arrives."""
    seats = room.seats
    actor = rnd.randrange(len(seats) + 1)
    uid = seats[actor].user_id if actor < len(seats) else 7_000 + rnd.randrange(50)
    hand = own_seats(room)[actor].hand if actor < len(seats) else []
    any_card = rnd.randrange(300)
    card = rnd.choice(hand) if hand and rnd.random() < 0.8 else any_card
    table = round_of(room).table if round_of(room) else []
    round_no = round_of(room).no if round_of(room) else 0
    roll = rnd.random()
    if roll < 0.10:
        at = room.deadline if room.deadline is not None else now
        if rnd.random() < 0.1:
            at -= 1
        phase = where(room) if rnd.random() < 0.9 else rnd.choice([*TablePhase, *Phase])
        return Timeout(round_no=round_no - (rnd.random() < 0.05), phase=phase), max(now, at)
    if roll < 0.13:
        return Skip(user_id=room.creator if rnd.random() < 0.7 else uid), now
    if roll < 0.15:
        return Leave(user_id=uid), now
    if roll < 0.17:
        return Join(user_id=8_000 + rnd.randrange(20), name="late"), now
    if roll < 0.19:
        return ComeBack(user_id=uid), now
    if roll < 0.20:
        return MarkUnreachable(user_id=uid, round_no=round_no, phase=where(room)), now
    if roll < 0.35:
        return ChooseCard(user_id=uid, card=card), now
    if roll < 0.45:
        return GiveHint(user_id=uid, text=rnd.choice(HINTS)), now
    if roll < 0.70:
        return PlayDecoy(user_id=uid, card=card), now
    vote = rnd.choice(table) if table and rnd.random() < 0.9 else any_card
    return Vote(user_id=uid, card=vote), now


def check_step(before: Room, after: Room, events: list, deck_size: int) -> None:
    """Invariants that hold after every accepted command."""
    cards = list(state_of(after).draw) + list(state_of(after).discard)
    for seat in own_seats(after):
        cards.extend(seat.hand)
    if round_of(after) is not None and phase_of(after) in (Phase.HINT, Phase.DECOYS, Phase.VOTING):
        cards.extend(round_of(after).plays.values())
    assert sorted(cards) == list(range(deck_size)), "every card in exactly one place"
    for old, new in zip(before.seats, after.seats, strict=False):
        assert new.score >= old.score, "scores never go down"
    assert where(after) in NEXT_PHASES[where(before)], (where(before), where(after))
    if phase_of(after) is Phase.HINT:
        size = settings_of(after).hand_size
        assert all(
            len(own_seats(after)[i].hand) == size
            for i, s in enumerate(after.seats)
            if s.status is not SeatStatus.LEFT
        )
    for event in events:
        if isinstance(event, RoundScored):
            rnd = round_of(after)
            assert rnd is not None and rnd.points == event.points
            expected, _ = score_round(rnd.storyteller, rnd.plays, rnd.votes)
            assert event.points == expected, "round points follow the table"
            for index, gained in expected.items():
                assert after.seats[index].score - before.seats[index].score == gained


def play_random_game(seed: int, players: int, rotations: int, hand: int, timers: bool) -> Room:
    """Play one game to its end with random commands, checking every step."""
    rnd = random.Random(seed)
    game = (a_room().with_players(players).with_seed(seed)
            .with_settings(max_seats=10, rotations=rotations, hand_size=hand, timers=timers)
            .in_hint())
    room, now = game.room, game.now
    deck_size = 283
    for _ in range(20_000):
        if room.phase in OVER_PHASES:
            break
        command, now = random_command(room, rnd, now)
        before = room.model_dump_json()
        try:
            new, events = apply(room, command, now)
        except RuleError:
            assert room.model_dump_json() == before, "an illegal command changes nothing"
            continue
        check_step(room, new, events, deck_size)
        room = new
        now += rnd.random() * 3
    assert room.phase in (TablePhase.FINISHED, TablePhase.ABANDONED)
    assert round_of(room) is not None and round_of(room).no <= len(room.seats) * rotations
    return room


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 10),
    rotations=st.integers(1, 2),
    hand=st.integers(4, 8),
    timers=st.booleans(),
)
def test_random_playthroughs_keep_every_invariant(seed, players, rotations, hand, timers):
    play_random_game(seed, players, rotations, hand, timers)


def test_a_random_playthrough_replays_identically():
    first = play_random_game(12345, 6, 2, 6, True)
    second = play_random_game(12345, 6, 2, 6, True)
    assert first.model_dump_json() == second.model_dump_json()
