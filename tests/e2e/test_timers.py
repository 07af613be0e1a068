"""A game the timers carry: missed hints, decoys and votes, a spectator who comes back."""

from __future__ import annotations

from engine.games.hintrigue.decks import scene
from engine.games.hintrigue.model import round_of
from engine.games.hintrigue.settings import settings_of
from engine.model import SeatStatus
from tests.e2e.players import give_hint, play_decoy, play_round, seat_players, start, table, vote
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import wait_for

NAMES = ["Ann", "Bob", "Cy", "Dee"]
# At TIMER_SCALE 0.2: 4 s for the hint, 3 s for decoys and votes, 0.4 s of reveal.
SETTINGS = "rotations=2 hint=20 decoy=15 vote=15 reveal=2"


def teller_of(stack: ProcStack, number: int) -> int:
    def current() -> int | None:
        room = stack.room()
        rnd = round_of(room)
        return room.seats[rnd.storyteller].user_id if rnd and rnd.no == number else None

    return wait_for(current, 30, f"round {number}")


def scores(stack: ProcStack) -> dict[int, int]:
    return {seat.user_id: seat.score for seat in stack.room().seats}


def test_the_timers_carry_a_game_with_missed_moves_to_its_final_standings(launch):
    stack = launch(timer_scale=0.2)
    users = seat_players(stack, NAMES, SETTINGS)
    start(stack, users)

    # Round 1: the storyteller never gives a hint; the round is void and nobody scores.
    first = teller_of(stack, 1)
    stack.wait_find(GROUP, r"Round 1\b.* is void")
    assert scores(stack) == dict.fromkeys(users, 0)

    # Round 2: one decoy is played, the other two are played for their owners; one voter
    # finds the card, one votes for a decoy played automatically, one never votes.
    teller, _card = give_hint(stack, users, 2)
    room = stack.room()
    others = [room.seats[i].user_id for i in round_of(room).participants
              if room.seats[i].user_id != teller]  # fmt: skip
    acting, finder, silent = others
    play_decoy(stack, acting, 2)
    message, scenes = table(stack, 2)
    room = stack.room()
    seat_of = {seat.user_id: i for i, seat in enumerate(room.seats)}
    assert sorted(round_of(room).auto) == sorted([seat_of[finder], seat_of[silent]])
    finder_decoy = scene(settings_of(room).deck, round_of(room).plays[seat_of[finder]])
    teller_card = scene(settings_of(room).deck, round_of(room).plays[seat_of[teller]])
    vote(stack, acting, message, scenes[finder_decoy])
    vote(stack, finder, message, scenes[teller_card])
    stack.wait_find(GROUP, r"Reveal · round 2\b")
    expected = {**dict.fromkeys(users, 0), teller: 3, finder: 3 + 1}
    assert scores(stack) == expected

    # Rounds 3 and 4: everybody acts.
    for number in (3, 4):
        for user, points in play_round(stack, users, number).items():
            expected[user] += points

    # Round 5: the first storyteller misses again and sits out; /back brings it back from the
    # next round on.
    assert teller_of(stack, 5) == first
    stack.wait_find(GROUP, r"Round 5\b.* is void")
    stack.wait_find(first, "You missed two hints in a row")
    assert stack.room().seats[seat_of[first]].status is SeatStatus.SPECTATING
    assert stack.say(first, GROUP, "/back") == 200
    stack.wait_find(first, "Welcome back!")
    room = stack.room()
    assert room.seats[seat_of[first]].status is SeatStatus.PLAYING
    assert seat_of[first] not in round_of(room).participants

    # Rounds 6 to 8: everybody acts; the returning player takes part from round 7.
    for number in (6, 7, 8):
        teller_of(stack, number)
        assert (seat_of[first] in round_of(stack.room()).participants) == (number > 6)
        for user, points in play_round(stack, users, number).items():
            expected[user] += points
    stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase.value == "finished"
    assert scores(stack) == expected
