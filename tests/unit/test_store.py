"""The Redis store on fakeredis (with Lua): atomic commits, exactly-once updates, the player
index, lifetime stats, retention, migration and corrupt data.

The helpers at the top drive rooms through the store with real commands; the integration tests
import them too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import fakeredis
import pytest

from engine.commands import (
    ChangeSettings,
    Command,
    GiveHint,
    Join,
    Leave,
    OpenLobby,
    StartGame,
    StopGame,
    Timeout,
)
from engine.errors import ErrorCode, RuleError
from engine.events import PlayerJoined
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import RoundScored, VoteCast
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.registry import DEFAULT_GAME as GAME
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Room, Seat, SeatStatus
from engine.model import Phase as TablePhase
from engine.roomid import RoomId
from engine.store import DAY, CorruptRoom, Retention, Store, StoreBusy, keys, stats
from engine.store import rooms as store_module
from tests.builders import next_move as next_command

NOW = 10_000.0


# --- helpers: rooms played through the store ------------------------------------------------


def players(chat: int, count: int) -> list[int]:
    """Distinct user ids for the players of one chat (a player sits in one game at a time)."""
    return [abs(chat) * 100 + seat for seat in range(count)]


def open_lobby(
    store: Store, chat: int, users: list[int], *, title: str = "", **settings: int | bool | str
) -> Room:
    """Open a lobby in `chat` and seat `users` in it (the first one creates it)."""
    store.execute(
        chat,
        OpenLobby(chat_id=chat, user_id=users[0], name=f"P{users[0]}", title=title, seed=abs(chat)),
        now=NOW,
    )
    if settings:
        store.execute(chat, ChangeSettings(user_id=users[0], changes=dict(settings)), now=NOW)
    for uid in users[1:]:
        store.execute(chat, Join(user_id=uid, name=f"P{uid}"), now=NOW)
    return loaded(store, chat)


def in_hint(
    store: Store, chat: int, users: list[int], *, title: str = "", **settings: int | bool | str
) -> Room:
    """A started game waiting for the storyteller's hint."""
    open_lobby(store, chat, users, title=title, **settings)
    store.execute(chat, StartGame(user_id=users[0]), now=NOW)
    return loaded(store, chat)


def in_decoys(store: Store, chat: int, users: list[int], *, title: str = "") -> Room:
    """A game whose storyteller gave the hint; decoys are awaited."""
    room = in_hint(store, chat, users, title=title)
    teller = room.seats[room_round(room).storyteller]
    card = own_seats(room)[room_round(room).storyteller].hand[0]
    store.execute(chat, ChooseCard(user_id=teller.user_id, card=card), now=NOW)
    store.execute(chat, GiveHint(user_id=teller.user_id, text="a quiet morning"), now=NOW)
    return loaded(store, chat)


def in_voting(store: Store, chat: int, users: list[int], *, title: str = "") -> Room:
    """A game with every decoy on the table; votes are awaited."""
    room = in_decoys(store, chat, users, title=title)
    rnd = room_round(room)
    for index in rnd.participants:
        if index != rnd.storyteller:
            seat = room.seats[index]
            card = own_seats(room)[index].hand[0]
            store.execute(chat, PlayDecoy(user_id=seat.user_id, card=card), now=NOW)
    room = loaded(store, chat)
    assert phase_of(room) is Phase.VOTING
    return room


def room_round(room: Room):  # type: ignore[no-untyped-def]
    assert round_of(room) is not None
    return round_of(room)


def loaded(store: Store, chat: int) -> Room:
    """The stored room, which must exist."""
    room = store.load(chat)
    assert room is not None
    return room


def play_until(store: Store, chat: int, done: Callable[[Room], bool]) -> Room:
    """Play the room's game through the store until `done(room)`; return the room."""
    room, now = loaded(store, chat), NOW
    while not done(room):
        command, now = next_command(room, now)
        outcome = store.execute(chat, command, now=now)
        assert outcome.room is not None
        room = outcome.room
    return room


def play_to_end(store: Store, chat: int) -> Room:
    """Play the room's game through the store until it is finished."""
    return play_until(store, chat, lambda room: room.phase in OVER_PHASES)


def finished_game(store: Store, chat: int, count: int = 3, *, title: str = "") -> Room:
    """A game of one rotation played to its end."""
    in_hint(store, chat, players(chat, count), title=title, rotations=1)
    room = play_to_end(store, chat)
    assert room.phase is TablePhase.FINISHED
    return room


def raw_room(client: fakeredis.FakeRedis, chat: int) -> dict[bytes, bytes]:
    """The stored hash of a room, byte for byte."""
    return client.hgetall(keys.room(chat))  # type: ignore[return-value]


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def store(fake_redis: fakeredis.FakeRedis) -> Store:
    return Store(fake_redis, GAMES)


CHAT, OTHER = -1001, -1002


# --- atomic apply -------------------------------------------------------------------------------


def test_a_new_lobby_is_stored_and_loads_back_equal_to_the_returned_room(store: Store) -> None:
    outcome = store.execute(
        CHAT, OpenLobby(chat_id=CHAT, user_id=7, name="Ann", title="Cats", seed=3), now=NOW
    )
    assert outcome.room is not None and not outcome.duplicate
    assert [e.kind for e in outcome.events] == ["lobby_opened"]
    assert store.load(CHAT) == outcome.room
    assert store.load(OTHER) is None


def test_an_applied_command_returns_its_events_and_saves_the_next_version(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    before = open_lobby(store, CHAT, players(CHAT, 2))
    outcome = store.execute(CHAT, Join(user_id=555, name="Late"), now=NOW)
    assert outcome.events == [PlayerJoined(seat=2)]
    assert outcome.room is not None and outcome.room.version == before.version + 1
    assert loaded(store, CHAT) == outcome.room
    assert raw_room(fake_redis, CHAT)[b"ver"] == str(before.version + 1).encode()


def test_a_refused_command_raises_its_rule_error_and_changes_nothing_stored(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    before = fake_redis.dump(keys.room(CHAT))
    with pytest.raises(RuleError) as refused:
        store.execute(CHAT, StartGame(user_id=players(CHAT, 1)[0]), update_id=42, now=NOW)
    assert refused.value.code is ErrorCode.NOT_ENOUGH_PLAYERS
    assert fake_redis.dump(keys.room(CHAT)) == before
    assert store.remembered_for(CHAT, 42) == 0


def interloper(fake_redis: fakeredis.FakeRedis, *commands: tuple[Command, int | None]):  # type: ignore[no-untyped-def]
    """A clock that, the first time it is read, has another store apply `commands` first.

    The store reads the clock after loading the room and before committing, so this puts
    another writer exactly inside that window: a deterministic race.
    """
    other = Store(fake_redis, GAMES)
    pending = list(commands)
    outcomes = []

    def clock() -> float:
        while pending:
            command, update_id = pending.pop(0)
            outcomes.append(other.execute(CHAT, command, update_id=update_id, now=NOW))
        return NOW

    clock.outcomes = outcomes  # type: ignore[attr-defined]
    return clock


def test_a_command_that_loses_the_race_is_retried_on_the_newer_state(
    fake_redis: fakeredis.FakeRedis,
) -> None:
    setup = Store(fake_redis, GAMES)
    open_lobby(setup, CHAT, players(CHAT, 2))
    clock = interloper(fake_redis, (Join(user_id=901, name="Fast"), None))
    racer = Store(fake_redis, GAMES, clock=clock)

    outcome = racer.execute(CHAT, Join(user_id=902, name="Slow"))

    assert racer.conflicts == 1
    assert outcome.events == [PlayerJoined(seat=3)]
    assert clock.outcomes[0].events == [PlayerJoined(seat=2)]
    room = loaded(setup, CHAT)
    assert [s.user_id for s in room.seats][2:] == [901, 902]
    assert room.version == 3


def test_a_command_gives_up_with_store_busy_when_every_attempt_conflicts(
    fake_redis: fakeredis.FakeRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "MAX_ATTEMPTS", 3)
    setup = Store(fake_redis, GAMES)
    open_lobby(setup, CHAT, players(CHAT, 1))
    joiners = iter(range(900, 999))

    def clock() -> float:
        uid = next(joiners)
        setup.execute(CHAT, Join(user_id=uid, name=f"P{uid}"), now=NOW)
        return NOW

    racer = Store(fake_redis, GAMES, clock=clock)
    with pytest.raises(StoreBusy):
        racer.execute(CHAT, Join(user_id=5, name="Unlucky"), update_id=77)
    assert racer.conflicts == 3
    room = loaded(setup, CHAT)
    assert 5 not in [s.user_id for s in room.seats] and len(room.seats) == 4
    assert racer.remembered_for(CHAT, 77) == 0 and not fake_redis.exists(keys.player(5))


def test_events_go_only_to_the_delivery_whose_commit_won(fake_redis: fakeredis.FakeRedis) -> None:
    setup = Store(fake_redis, GAMES)
    open_lobby(setup, CHAT, players(CHAT, 2))
    join = Join(user_id=903, name="Twice")
    clock = interloper(fake_redis, (join, 5001))
    first = Store(fake_redis, GAMES, clock=clock)

    outcome = first.execute(CHAT, join, update_id=5001)

    assert outcome.duplicate and outcome.events == [] and outcome.room is None
    assert clock.outcomes[0].events == [PlayerJoined(seat=2)]
    assert [s.user_id for s in loaded(setup, CHAT).seats].count(903) == 1


def test_a_command_refused_on_a_read_that_went_stale_is_judged_again_on_the_room_as_it_is(
    fake_redis: fakeredis.FakeRedis,
) -> None:
    # A vote for the storyteller's card is read while the last decoy is still missing; before
    # it is judged, that decoy lands and voting opens. It must not be told "wrong phase".
    setup = Store(fake_redis, GAMES)
    room = in_decoys(setup, CHAT, players(CHAT, 3))
    rnd = room_round(room)
    voter, last = [i for i in rnd.participants if i != rnd.storyteller]
    setup.execute(
        CHAT, PlayDecoy(user_id=room.seats[voter].user_id, card=own_seats(room)[voter].hand[0])
    )
    decoy = PlayDecoy(user_id=room.seats[last].user_id, card=own_seats(room)[last].hand[0])
    clock = interloper(fake_redis, (decoy, None))
    racer = Store(fake_redis, GAMES, clock=clock)

    vote = Vote(user_id=room.seats[voter].user_id, card=rnd.plays[rnd.storyteller])
    outcome = racer.execute(CHAT, vote)

    assert [e.kind for e in outcome.events] == ["vote_cast"]
    assert racer.conflicts == 1
    assert room_round(loaded(setup, CHAT)).votes == {voter: rnd.plays[rnd.storyteller]}


def test_a_second_delivery_read_before_the_first_landed_is_answered_as_a_duplicate(
    fake_redis: fakeredis.FakeRedis,
) -> None:
    # A voter switches X → Y → X; the last press is delivered twice. The second delivery reads
    # the room while the vote is still X, then the switch to Y and the first delivery land: it
    # is answered "duplicate", not "you already voted for that card".
    setup = Store(fake_redis, GAMES)
    room = in_voting(setup, CHAT, players(CHAT, 4))
    rnd = room_round(room)
    voter = next(i for i in rnd.participants if i != rnd.storyteller)
    uid = room.seats[voter].user_id
    x, y = [card for card in rnd.table if card != rnd.plays[voter]][:2]
    setup.execute(CHAT, Vote(user_id=uid, card=x), update_id=1, now=NOW)
    clock = interloper(fake_redis, (Vote(user_id=uid, card=y), 2), (Vote(user_id=uid, card=x), 3))
    second = Store(fake_redis, GAMES, clock=clock)

    outcome = second.execute(CHAT, Vote(user_id=uid, card=x), update_id=3)

    assert outcome.duplicate
    assert [e.kind for e in clock.outcomes[1].events] == ["vote_cast"]
    assert room_round(loaded(setup, CHAT)).votes[voter] == x


# --- each update applied once -------------------------------------------------------------------


def test_an_update_delivered_twice_is_applied_once(store: Store) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    join = Join(user_id=904, name="Echo")
    first = store.execute(CHAT, join, update_id=6001, now=NOW)
    second = store.execute(CHAT, join, update_id=6001, now=NOW)
    assert first.events == [PlayerJoined(seat=2)] and not first.duplicate
    assert second.duplicate and second.events == [] and second.room is None
    room = loaded(store, CHAT)
    assert [s.user_id for s in room.seats].count(904) == 1
    assert room.version == first.room.version  # type: ignore[union-attr]


def test_an_update_is_remembered_for_at_least_a_day(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    store.execute(CHAT, Join(user_id=905, name="Kept"), update_id=6002, now=NOW)
    assert store.remembered_for(CHAT, 6002) >= DAY - 5


def test_a_refused_update_is_not_remembered_so_a_later_delivery_is_judged_afresh(
    store: Store,
) -> None:
    join = Join(user_id=906, name="Early")
    with pytest.raises(RuleError) as refused:
        store.execute(CHAT, join, update_id=6003, now=NOW)
    assert refused.value.code is ErrorCode.NO_GAME
    open_lobby(store, CHAT, players(CHAT, 1))
    assert store.execute(CHAT, join, update_id=6003, now=NOW).events == [PlayerJoined(seat=1)]


# --- keys ---------------------------------------------------------------------------------------


def test_every_key_of_a_room_carries_its_hash_tag(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    for name in (keys.room(CHAT), keys.applied_updates(CHAT, 20000), keys.group_stats(CHAT)):
        assert name.startswith(keys.room_prefix(CHAT)) and "room:-1001}" in name
    users = players(CHAT, 3)
    open_lobby(store, CHAT, users, rotations=1)
    store.execute(CHAT, StartGame(user_id=users[0]), update_id=1, now=NOW)
    play_to_end(store, CHAT)
    in_hint(store, OTHER, players(OTHER, 3))
    per_user = {keys.player(u) for u in players(OTHER, 3)}
    per_user |= {keys.user_stats(u) for u in users} | {keys.running_games(GAME)}
    stored = {k.decode() for k in fake_redis.keys("*")}
    today = keys.applied_updates(CHAT, int(time.time() // DAY))
    assert {keys.room(CHAT), today, keys.group_stats(CHAT)} <= stored
    assert per_user <= stored
    strays = [
        k
        for k in stored - per_user
        if not k.startswith((keys.room_prefix(CHAT), keys.room_prefix(OTHER)))
    ]
    assert strays == []


# --- the player index ---------------------------------------------------------------------------


def test_a_seated_player_is_indexed_to_the_room(store: Store) -> None:
    users = players(CHAT, 3)
    open_lobby(store, CHAT, users)
    assert [store.room_of_player(u) for u in users] == [RoomId(CHAT)] * 3
    assert store.room_of_player(999_999) is None


def test_joining_a_second_group_is_refused_naming_the_first_group(store: Store) -> None:
    in_hint(store, CHAT, players(CHAT, 3), title="Board Game Night")
    open_lobby(store, OTHER, players(OTHER, 1), title="Elsewhere")
    with pytest.raises(RuleError) as refused:
        store.execute(OTHER, Join(user_id=players(CHAT, 3)[1], name="Busy"), now=NOW)
    assert refused.value.code is ErrorCode.IN_OTHER_GAME
    assert refused.value.detail == "Board Game Night"
    assert len(loaded(store, OTHER).seats) == 1
    assert store.room_of_player(players(CHAT, 3)[1]) == RoomId(CHAT)


def test_a_group_without_a_title_is_named_by_its_chat_id(store: Store) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    open_lobby(store, OTHER, players(OTHER, 1))
    with pytest.raises(RuleError) as refused:
        store.execute(OTHER, Join(user_id=players(CHAT, 2)[1], name="Busy"), now=NOW)
    assert refused.value.detail == str(CHAT)


def test_opening_a_lobby_while_seated_elsewhere_is_refused_and_stores_nothing(
    store: Store,
) -> None:
    open_lobby(store, CHAT, players(CHAT, 2), title="First")
    busy = players(CHAT, 2)[1]
    with pytest.raises(RuleError) as refused:
        store.execute(OTHER, OpenLobby(chat_id=OTHER, user_id=busy, name="B", seed=1), now=NOW)
    assert (refused.value.code, refused.value.detail) == (ErrorCode.IN_OTHER_GAME, "First")
    assert store.load(OTHER) is None


def test_joining_the_same_group_again_is_refused_as_already_joined(store: Store) -> None:
    users = players(CHAT, 2)
    open_lobby(store, CHAT, users)
    with pytest.raises(RuleError) as refused:
        store.execute(CHAT, Join(user_id=users[1], name="Again"), now=NOW)
    assert refused.value.code is ErrorCode.ALREADY_JOINED


def test_leaving_the_lobby_frees_the_player_for_another_group(store: Store) -> None:
    users = players(CHAT, 3)
    open_lobby(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[2]), now=NOW)
    assert store.room_of_player(users[2]) is None
    open_lobby(store, OTHER, players(OTHER, 1))
    store.execute(OTHER, Join(user_id=users[2], name="Mover"), now=NOW)
    assert store.room_of_player(users[2]) == RoomId(OTHER)
    assert store.room_of_player(users[1]) == RoomId(CHAT)


def test_a_player_joining_a_running_game_late_is_indexed_for_good(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    in_voting(store, CHAT, players(CHAT, 3))
    store.execute(CHAT, Join(user_id=911, name="Late"), now=NOW)
    assert store.room_of_player(911) == RoomId(CHAT)
    assert fake_redis.ttl(keys.player(911)) == -1
    open_lobby(store, OTHER, players(OTHER, 1))
    with pytest.raises(RuleError) as refused:
        store.execute(OTHER, Join(user_id=911, name="Late"), now=NOW)
    assert refused.value.code is ErrorCode.IN_OTHER_GAME


def test_leaving_a_running_game_frees_the_player_index(store: Store) -> None:
    users = players(CHAT, 4)
    in_hint(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[3]), now=NOW)
    assert loaded(store, CHAT).seats[3].status is SeatStatus.LEFT
    assert store.room_of_player(users[3]) is None
    assert [store.room_of_player(u) for u in users[:3]] == [RoomId(CHAT)] * 3


def test_the_end_of_a_game_frees_every_player(store: Store) -> None:
    finished_game(store, CHAT)
    assert [store.room_of_player(u) for u in players(CHAT, 3)] == [None] * 3
    in_hint(store, OTHER, players(CHAT, 3))
    assert store.room_of_player(players(CHAT, 3)[0]) == RoomId(OTHER)


def test_the_last_player_leaving_closes_the_lobby_and_deletes_the_room(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 2)
    open_lobby(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[1]), now=NOW)
    outcome = store.execute(CHAT, Leave(user_id=users[0]), now=NOW)
    assert outcome.room is None
    assert [e.kind for e in outcome.events][-1] == "lobby_closed"
    assert store.load(CHAT) is None and not fake_redis.exists(keys.room(CHAT))
    assert [store.room_of_player(u) for u in users] == [None, None]


# --- lifetime stats -----------------------------------------------------------------------------


def _best_rounds(store: Store, chat: int) -> tuple[Room, dict[int, int]]:
    """Play the room's game to its end, noting each seat's best round from the events."""
    room, now, best = loaded(store, chat), NOW, {}
    while room.phase not in OVER_PHASES:
        command, now = next_command(room, now)
        outcome = store.execute(chat, command, now=now)
        for event in outcome.events:
            if isinstance(event, RoundScored):
                for seat, gained in event.points.items():
                    best[seat] = max(best.get(seat, 0), gained)
        assert outcome.room is not None
        room = outcome.room
    return room, best


def test_a_finished_game_adds_every_players_figures_to_their_game_s(store: Store) -> None:
    in_hint(store, CHAT, players(CHAT, 4), rotations=1)
    room, best = _best_rounds(store, CHAT)
    assert room.phase is TablePhase.FINISHED and max(best.values()) > 0
    top = max(seat.score for seat in room.seats)
    for index, seat in enumerate(room.seats):
        assert store.user_stats(seat.user_id) == {
            "hintrigue": {
                "games": 1,
                "wins": int(seat.score == top),
                "points": seat.score,
                "finds": own_seats(room)[index].finds,
                "stolen": own_seats(room)[index].stolen,
                "best": best.get(index, 0),
            }
        }
    assert store.group_stats(CHAT) == {
        "games": 1,
        "points": sum(s.score for s in room.seats),
        "finds": sum(s.finds for s in own_seats(room)),
        "stolen": sum(s.stolen for s in own_seats(room)),
    }
    assert sum(s.score for s in room.seats) > 0


def test_a_players_best_round_is_the_best_of_all_their_games(store: Store) -> None:
    users = players(CHAT, 3)
    bests = []
    for game in range(3):
        in_hint(store, CHAT, users, rotations=1)
        room, best = _best_rounds(store, CHAT)
        assert room.phase is TablePhase.FINISHED, game
        bests.append(best.get(0, 0))
    figures = store.user_stats(users[0])["hintrigue"]
    assert figures["games"] == 3 and figures["best"] == max(bests)


def test_the_end_of_a_game_applied_twice_counts_the_game_once(store: Store) -> None:
    in_hint(store, CHAT, players(CHAT, 3), rotations=1)
    last = lambda r: phase_of(r) is Phase.REVEAL and room_round(r).last  # noqa: E731
    before_end = play_until(store, CHAT, last)
    end = Timeout(round_no=room_round(before_end).no, phase=Phase.REVEAL)
    assert before_end.deadline is not None
    store.execute(CHAT, end, update_id=8001, now=before_end.deadline)
    group, user = store.group_stats(CHAT), store.user_stats(players(CHAT, 3)[0])
    board = store.leaderboard(CHAT, GAME, before_end.deadline)

    again = store.execute(CHAT, end, update_id=8001, now=before_end.deadline)
    with pytest.raises(RuleError) as refused:
        store.execute(CHAT, end, update_id=8002, now=before_end.deadline + 1)

    assert again.duplicate and refused.value.code is ErrorCode.NO_GAME
    assert group["games"] == 1 and user["hintrigue"]["games"] == 1
    assert [line.games for line in board] == [1, 1, 1]
    assert store.group_stats(CHAT) == group
    assert store.user_stats(players(CHAT, 3)[0]) == user
    assert store.leaderboard(CHAT, GAME, before_end.deadline) == board


def test_an_abandoned_or_stopped_game_adds_no_figures(store: Store) -> None:
    users = players(CHAT, 4)
    in_hint(store, CHAT, users)
    outcome = store.execute(CHAT, StopGame(user_id=users[0]), now=NOW)
    assert outcome.room is not None and outcome.room.phase is TablePhase.ABANDONED
    in_hint(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[3]), now=NOW)
    outcome = store.execute(CHAT, Leave(user_id=users[2]), now=NOW)
    assert outcome.room is not None and outcome.room.phase is TablePhase.ABANDONED
    assert store.group_stats(CHAT) == {}
    assert [store.user_stats(u) for u in users] == [{}] * 4
    assert store.leaderboard(CHAT, GAME, NOW) == []


def test_a_seat_that_left_before_the_end_adds_nothing_the_others_do(store: Store) -> None:
    users = players(CHAT, 4)
    in_hint(store, CHAT, users, rotations=1)
    store.execute(CHAT, Leave(user_id=users[3]), now=NOW)
    room = play_to_end(store, CHAT)
    assert room.phase is TablePhase.FINISHED
    assert [bool(store.user_stats(u)) for u in users] == [True, True, True, False]
    assert {line.user_id for line in store.leaderboard(CHAT, GAME, NOW)} == set(users[:3])


def test_a_game_with_fewer_than_two_human_players_left_counts_for_nobody() -> None:
    room = Room(game="hintrigue", chat_id=CHAT, creator=1, rng=1, phase=TablePhase.FINISHED, seats=[
        Seat(user_id=1, name="A", score=9), Seat(user_id=2, name="B", status=SeatStatus.LEFT),
        Seat(user_id=3, name="C", status=SeatStatus.LEFT)])  # fmt: skip
    assert stats.increments(room, GAMES[GAME], NOW) == []
    room.seats[1].status = SeatStatus.PLAYING
    assert [key for key, _ in stats.increments(room, GAMES[GAME], NOW)][:2] == [
        keys.user_stats(1),
        keys.user_stats(2),
    ]


def test_figures_kept_before_they_were_per_game_count_as_hintrigue_s(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 3)
    fake_redis.hset(keys.user_stats(users[0]), mapping={"games": 4, "wins": 2, "points": 50,
                                                        "finds": 7, "stolen": 3})  # fmt: skip
    finished_game(store, CHAT)
    figures = store.user_stats(users[0])["hintrigue"]
    room = loaded(store, CHAT)
    assert figures["games"] == 5 and figures["points"] == 50 + room.seats[0].score
    assert figures["finds"] == 7 + own_seats(room)[0].finds


def test_the_leaderboard_counts_the_last_90_days_and_forgets_older_games(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 3)
    finished_game(store, CHAT)
    later = NOW + stats.TOP_WINDOW + DAY
    assert sum(line.games for line in store.leaderboard(CHAT, GAME, NOW + 89 * DAY)) == 3
    assert store.leaderboard(CHAT, GAME, later) == []

    in_hint(store, CHAT, users, rotations=1)
    room, now = loaded(store, CHAT), later
    while room.phase not in OVER_PHASES:
        command, now = next_command(room, now)
        outcome = store.execute(CHAT, command, now=now)
        assert outcome.room is not None
        room = outcome.room
    board = store.leaderboard(CHAT, GAME, now)
    assert [line.games for line in board] == [1, 1, 1]
    assert {line.user_id: line.points for line in board} == {
        seat.user_id: seat.score for seat in room.seats
    }
    assert fake_redis.zcard(keys.leaderboard(CHAT, GAME)) == 1  # the old game was trimmed
    assert 0 < fake_redis.ttl(keys.leaderboard(CHAT, GAME)) <= stats.TOP_TTL
    assert fake_redis.hget(keys.player_names(CHAT), str(users[1])) == f"P{users[1]}".encode()


def test_the_leaderboard_keeps_at_most_ten_lines_in_order() -> None:
    members = [f"{g}:9|" + ",".join(f"{u}:{int(u == g)}:{u}" for u in range(1, 13))
               for g in range(1, 13)]  # fmt: skip
    members.append("13:9|1:1:0,2:0:1")  # two wins for player 1, however few points
    board = stats.leaderboard(members, {"12": "Zoe"})
    assert len(board) == 10
    assert [line.user_id for line in board] == [1, 12, 11, 10, 9, 8, 7, 6, 5, 4]
    assert board[1].name == "Zoe" and board[2].name == "11"
    assert (board[0].wins, board[0].points, board[0].games) == (2, 12, 13)
    assert (board[1].wins, board[1].points, board[1].games) == (1, 144, 12)


def test_a_lobby_closed_before_starting_counts_no_game(store: Store) -> None:
    users = players(CHAT, 3)
    open_lobby(store, CHAT, users)
    store.execute(CHAT, StopGame(user_id=users[0]), now=NOW)
    assert store.load(CHAT) is None
    assert store.group_stats(CHAT) == {} and store.user_stats(users[0]) == {}


def test_lifetime_stats_add_up_over_games(store: Store) -> None:
    first = finished_game(store, CHAT)
    store.execute(
        CHAT, OpenLobby(chat_id=CHAT, user_id=players(CHAT, 1)[0], name="A", seed=9), now=NOW
    )
    for uid in players(CHAT, 3)[1:]:
        store.execute(CHAT, Join(user_id=uid, name="again"), now=NOW)
    store.execute(CHAT, ChangeSettings(user_id=players(CHAT, 1)[0], changes={"rotations": 1}))
    store.execute(CHAT, StartGame(user_id=players(CHAT, 1)[0]), now=NOW)
    second = play_to_end(store, CHAT)
    assert store.group_stats(CHAT)["games"] == 2
    assert store.group_stats(CHAT)["points"] == sum(
        s.score for room in (first, second) for s in room.seats
    )
    for index, seat in enumerate(second.seats):
        figures = store.user_stats(seat.user_id)["hintrigue"]
        assert figures["points"] == seat.score + first.seats[index].score


# --- retention ----------------------------------------------------------------------------------


def test_a_lobby_and_its_player_index_expire_an_hour_after_its_idle_day_by_default(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    """A lobby without a join timer closes, saying so, after a day without a move: its data
    outlives that day."""
    open_lobby(store, CHAT, players(CHAT, 2))
    kept = DAY + 3600
    assert kept - 5 <= fake_redis.ttl(keys.room(CHAT)) <= kept
    assert all(kept - 5 <= fake_redis.ttl(keys.player(u)) <= kept for u in players(CHAT, 2))


def test_a_running_game_and_its_player_index_never_expire(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    in_voting(store, CHAT, players(CHAT, 3))
    assert fake_redis.ttl(keys.room(CHAT)) == -1
    assert [fake_redis.ttl(keys.player(u)) for u in players(CHAT, 3)] == [-1, -1, -1]


def test_a_finished_room_is_kept_seven_days_and_its_stats_forever(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    finished_game(store, CHAT)
    assert 7 * DAY - 5 <= fake_redis.ttl(keys.room(CHAT)) <= 7 * DAY
    assert fake_redis.ttl(keys.group_stats(CHAT)) == -1
    assert fake_redis.ttl(keys.user_stats(players(CHAT, 1)[0])) == -1


def test_retention_periods_are_configurable(fake_redis: fakeredis.FakeRedis) -> None:
    store = Store(
        fake_redis, GAMES, retention=Retention(finished_room=300, lobby=60, applied_update=90_000)
    )
    users = players(CHAT, 3)
    open_lobby(store, CHAT, users, rotations=1)
    store.execute(CHAT, Join(user_id=907, name="Late"), update_id=1, now=NOW)
    assert 55 <= fake_redis.ttl(keys.room(CHAT)) <= 60
    assert 55 <= fake_redis.ttl(keys.player(907)) <= 60
    assert 89_990 <= store.remembered_for(CHAT, 1) <= 2 * DAY + 90_000
    store.execute(CHAT, StartGame(user_id=users[0]), now=NOW)
    play_to_end(store, CHAT)
    assert 295 <= fake_redis.ttl(keys.room(CHAT)) <= 300


# --- supergroup migration ---------------------------------------------------------------------


def test_migrating_a_lobby_moves_the_room_its_players_and_its_expiry(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 2)
    lobby = open_lobby(store, CHAT, users, title="Cats")
    store.migrate(CHAT, OTHER)
    moved = loaded(store, OTHER)
    assert moved.chat_id == OTHER and moved.seats == lobby.seats and moved.title == "Cats"
    assert store.load(CHAT) is None
    assert [store.room_of_player(u) for u in users] == [RoomId(OTHER), RoomId(OTHER)]
    assert 0 < fake_redis.ttl(keys.room(OTHER)) <= Retention().lobby
    assert all(0 < fake_redis.ttl(keys.player(u)) <= Retention().lobby for u in users)
    store.execute(OTHER, Join(user_id=908, name="After"), now=NOW)
    assert len(loaded(store, OTHER).seats) == 3


def test_migrating_a_running_game_lets_play_go_on_under_the_new_chat_id(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 3)
    in_hint(store, CHAT, users, rotations=1)
    store.migrate(CHAT, OTHER)
    assert [store.room_of_player(u) for u in users] == [RoomId(OTHER)] * 3
    assert fake_redis.ttl(keys.room(OTHER)) == -1
    with pytest.raises(RuleError) as refused:
        store.execute(CHAT, Leave(user_id=users[0]), now=NOW)
    assert refused.value.code is ErrorCode.NO_GAME
    room = play_to_end(store, OTHER)
    assert room.phase is TablePhase.FINISHED and room.chat_id == OTHER
    assert store.group_stats(OTHER)["games"] == 1 and store.group_stats(CHAT) == {}


def test_migrating_a_group_moves_its_lifetime_stats_leaderboard_and_subscribers(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    finished_game(store, CHAT)
    fake_redis.hset(keys.notify(CHAT), "42", "it")
    totals, board = store.group_stats(CHAT), store.leaderboard(CHAT, GAME, NOW)
    store.migrate(CHAT, OTHER)
    assert store.group_stats(OTHER) == totals and store.group_stats(CHAT) == {}
    assert store.leaderboard(OTHER, GAME, NOW) == board and len(board) == 3
    assert store.leaderboard(CHAT, GAME, NOW) == []
    assert fake_redis.hgetall(keys.notify(OTHER)) == {b"42": b"it"}
    assert not fake_redis.exists(keys.notify(CHAT))
    assert loaded(store, OTHER).phase is TablePhase.FINISHED


def test_migrating_a_group_moves_its_language_and_remembered_settings(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    fake_redis.set(keys.group_language(CHAT), "it")
    fake_redis.set(keys.group_settings(CHAT, GAME), '{"rotations": 3}')
    store.migrate(CHAT, OTHER)
    assert fake_redis.get(keys.group_language(OTHER)) == b"it"
    assert fake_redis.get(keys.group_settings(OTHER, GAME)) == b'{"rotations": 3}'
    assert not fake_redis.exists(keys.group_language(CHAT), keys.group_settings(CHAT, GAME))


# --- corrupt data -------------------------------------------------------------------------------


def test_a_room_whose_json_no_longer_parses_is_reported_as_corrupt_and_logged(
    store: Store, fake_redis: fakeredis.FakeRedis, caplog: pytest.LogCaptureFixture
) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    fake_redis.hset(keys.room(CHAT), "state", '{"schema_version": 1, "chat_id": ')
    with (
        caplog.at_level(logging.ERROR, logger="engine.store"),
        pytest.raises(CorruptRoom) as corrupt,
    ):
        store.execute(CHAT, Join(user_id=909, name="Unlucky"), now=NOW)
    assert corrupt.value.room == CHAT and "does not parse" in corrupt.value.reason
    assert any(str(CHAT) in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)


def test_a_room_with_an_unknown_schema_version_is_reported_as_corrupt(
    store: Store, fake_redis: fakeredis.FakeRedis, caplog: pytest.LogCaptureFixture
) -> None:
    room = open_lobby(store, CHAT, players(CHAT, 2))
    future = room.model_dump_json().replace('"schema_version":1', '"schema_version":99')
    fake_redis.hset(keys.room(CHAT), "state", future)
    with (
        caplog.at_level(logging.ERROR, logger="engine.store"),
        pytest.raises(CorruptRoom) as corrupt,
    ):
        store.load(CHAT)
    assert "schema version 99" in corrupt.value.reason
    assert any("schema version 99" in r.getMessage() for r in caplog.records)


def test_a_corrupt_room_is_left_untouched_and_other_rooms_keep_working(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    open_lobby(store, CHAT, players(CHAT, 2))
    open_lobby(store, OTHER, players(OTHER, 2))
    fake_redis.hset(keys.room(CHAT), "state", "not json at all")
    before = fake_redis.dump(keys.room(CHAT))
    for command in (Join(user_id=910, name="X"), Leave(user_id=players(CHAT, 2)[1])):
        with pytest.raises(CorruptRoom):
            store.execute(CHAT, command, update_id=1, now=NOW)
    assert fake_redis.dump(keys.room(CHAT)) == before
    assert store.execute(OTHER, Join(user_id=910, name="X"), update_id=1, now=NOW).events


# --- deleting a room --------------------------------------------------------------------------


def test_deleting_a_room_removes_its_keys_and_frees_its_players(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    users = players(CHAT, 3)
    in_hint(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[2]), update_id=3, now=NOW)
    in_hint(store, OTHER, players(OTHER, 3))
    store.delete_room(CHAT)
    assert not [k for k in fake_redis.keys("*") if k.decode().startswith(keys.room_prefix(CHAT))]
    assert [store.room_of_player(u) for u in users] == [None] * 3
    assert phase_of(loaded(store, OTHER)) is Phase.HINT
    assert store.room_of_player(players(OTHER, 1)[0]) == RoomId(OTHER)


def test_deleting_a_room_leaves_a_player_who_moved_on_seated_in_the_new_game(
    store: Store,
) -> None:
    users = players(CHAT, 4)
    in_hint(store, CHAT, users)
    store.execute(CHAT, Leave(user_id=users[3]), now=NOW)
    in_hint(store, OTHER, [users[3], *players(OTHER, 3)[1:]])
    store.delete_room(CHAT)
    assert store.room_of_player(users[3]) == RoomId(OTHER)
    with pytest.raises(RuleError) as refused:
        open_lobby(store, -1003, [users[3]])
    assert refused.value.code is ErrorCode.IN_OTHER_GAME


def test_vote_events_name_the_seat_and_card_that_were_stored(store: Store) -> None:
    room = in_voting(store, CHAT, players(CHAT, 4))
    rnd = room_round(room)
    voter = next(i for i in rnd.participants if i != rnd.storyteller)
    card = next(c for c in rnd.table if c != rnd.plays[voter])
    outcome = store.execute(CHAT, Vote(user_id=room.seats[voter].user_id, card=card), now=NOW)
    assert outcome.events == [VoteCast(round_no=rnd.no, seat=voter, card=card)]
    assert room_round(loaded(store, CHAT)).votes == {voter: card}


def test_the_running_games_are_the_rooms_between_start_and_end(
    store: Store, fake_redis: fakeredis.FakeRedis
) -> None:
    def running() -> set[int]:
        return {int(chat) for chat in fake_redis.smembers(keys.running_games(GAME))}

    open_lobby(store, CHAT, players(CHAT, 3), rotations=1)
    assert running() == set()  # a lobby is no game yet
    store.execute(CHAT, StartGame(user_id=players(CHAT, 3)[0]), now=NOW)
    in_hint(store, OTHER, players(OTHER, 3))
    assert running() == {CHAT, OTHER}
    play_to_end(store, CHAT)
    assert running() == {OTHER}
    store.execute(OTHER, StopGame(user_id=players(OTHER, 3)[0]), now=NOW)
    assert running() == set()
