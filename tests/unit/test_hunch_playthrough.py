"""Hunch!: seeded random games of 3–6 seats (legal and illegal commands, timeouts, skips,
leaves, players out of reach), then driven to their end, checking every invariant after
every step: VP recomputed from the reveals, coins conserved (the supply aside), a refused
command changes nothing, no secret or hunch reaches the group before its reveal."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.games.hunch.events import Event, GameFinished, HunchesRevealed
from engine.games.hunch.model import OVER_PHASES, START_COINS, Phase, Settings, State
from engine.games.hunch.rules import apply, start
from engine.games.hunch.views import group_view
from engine.model import SeatStatus
from tests.hunch_builders import finishing_move, next_move, random_command

NEXT = {
    Phase.SECRETS: {Phase.SECRETS, Phase.CLUES},
    Phase.CLUES: {Phase.CLUES, Phase.AUCTION, Phase.BARGAIN},
    Phase.AUCTION: {Phase.AUCTION, Phase.PLACE, Phase.BARGAIN},
    Phase.PLACE: {Phase.PLACE, Phase.AUCTION, Phase.BARGAIN},
    Phase.BARGAIN: {Phase.BARGAIN, Phase.HUNCH, Phase.REVEAL},
    Phase.HUNCH: {Phase.HUNCH, Phase.REVEAL},
    Phase.REVEAL: {Phase.REVEAL, Phase.CLUES, Phase.FINISHED},
}


def points_of(event: HunchesRevealed, seats: int) -> list[int]:
    """The VP of one reveal by the rulebook's words."""
    points = [0] * seats
    for reveal in event.reveals:
        right = [guesser for guesser, _, correct in reveal.hunches if correct]
        bonus = 1 if reveal.easy else 0
        for guesser in right:
            points[guesser] += 1 + bonus
        if right:
            points[reveal.owner] += 1 + (len(right) >= 2) + bonus
        assert (reveal.word is not None) == bool(right)
    return points


def scrambled(state: State) -> State:
    """The same game with every secret not yet told and every hunch on another word."""
    other = state.clone()
    for seat in other.seats:
        for secret in seat.secrets:
            if secret.status != "guessed" and secret.word is not None:
                secret.word = (secret.word + 1) % 3
        for hunch in seat.hunches:
            hunch.word += 1
    return other


def check_step(before: State, after: State, events: list[Event], vp: list[int]) -> None:
    """Invariants that hold after every accepted command."""
    if after.phase not in OVER_PHASES:
        assert after.phase in NEXT[before.phase], (before.phase, after.phase)
    seats = len(after.seats)
    coins = [s.coins for s in after.seats]
    assert min(coins) >= 0
    assert sum(coins) == START_COINS * seats + after.supply_in - after.discarded
    for event in events:
        if isinstance(event, HunchesRevealed):
            assert event.points == points_of(event, seats)
            for index, gained in enumerate(event.points):
                vp[index] += gained
        if isinstance(event, GameFinished):
            present = after.present_seats()
            best = max((after.seats[i].vp, after.seats[i].coins) for i in present)
            assert event.winners == [i for i in event.standings if i in present
                                     and (after.seats[i].vp, after.seats[i].coins) == best]
    assert [s.vp for s in after.seats] == vp, "VP are the reveals' points"
    assert [s.score for s in after.seats] == vp
    assert after.guessed_total == sum(s.exposed for s in after.seats)
    assert after.guessed_total <= sum(s.guessed for s in after.seats)  # one guesser or more
    live = {c for c in after.matrix if c >= 0}
    for seat in after.seats:
        for secret in seat.secrets:
            assert (secret.status == "guessed") == (secret.card not in live)
    if after.phase in (Phase.AUCTION, Phase.PLACE, Phase.BARGAIN):
        assert after.round is not None and after.round.seat is not None
        awaited = after.seats[after.round.seat].status
        assert awaited is SeatStatus.PLAYING or after.phase is Phase.PLACE
    if after.phase is Phase.HUNCH:
        for index in after.in_phase:
            hunches = after.seats[index].hunches
            assert len(hunches) <= after.allowance(index)
            assert len({(h.owner, h.secret) for h in hunches}) == len(hunches)
            assert all(h.owner != index for h in hunches)
    if after.phase is not Phase.FINISHED:  # the final tells every secret
        assert group_view(after) == group_view(scrambled(after)), "no secret in the group view"


def play_random_game(seed: int, players: int, game_settings: Settings, budget: int) -> State:
    """Play one game with random commands, then drive it to its end, checking every step."""
    rnd = random.Random(seed)
    seats = [(1 + i, f"P{i}") for i in range(players)]
    language = rnd.choice(["en", "it", "es", "fr", "de", "pt", "ru"])
    state, _ = start(seats, game_settings, seed=seed, now=0.0, language=language)
    vp = [0] * players
    now = 0.0
    text = state.model_dump_json()
    for step in range(budget + 400):
        if state.phase in OVER_PHASES:
            break
        if step < budget:
            if rnd.random() < 0.5 and state.waiting_for():
                command, at = next_move(state, now)
                now = max(now, at)
            else:
                command, now = random_command(state, rnd, now)
        else:
            command, at = finishing_move(state)
            now = max(now, at)
        try:
            new, events = apply(state, command, now)
        except RuleError:
            assert step < budget, f"driving the game was refused: {command}"
            assert state.model_dump_json() == text, "a refused command changes nothing"
            continue
        assert state.model_dump_json() == text, "apply() never changes its input"
        check_step(state, new, events, vp)
        state, text = new, new.model_dump_json()
        if rnd.random() < 0.05:
            assert State.model_validate_json(text) == state
        now += rnd.random() * 20
    assert state.phase in OVER_PHASES, "every game ends"
    return state


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)  # fmt: skip
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(3, 6),
    timers=st.booleans(),
    advanced=st.booleans(),
    budget=st.integers(5, 300),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, timers: bool, advanced: bool, budget: int
) -> None:
    play_random_game(seed, players, Settings(timers=timers, advanced=advanced), budget)


def test_a_random_game_replays_identically() -> None:
    first = play_random_game(2026, 5, Settings(advanced=True), 300)
    second = play_random_game(2026, 5, Settings(advanced=True), 300)
    assert first.model_dump_json() == second.model_dump_json()


def test_random_games_reach_every_end() -> None:
    reasons = {play_random_game(s, 3 + s % 4, Settings(advanced=s % 2 == 0), 150).end_reason
               for s in range(30)}  # fmt: skip
    assert {None, "too_few_players"} <= reasons
