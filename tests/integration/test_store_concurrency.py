"""Many processes and threads firing commands at many rooms of the real Redis at once.

Afterwards every accepted command is in the state exactly once: replaying the accepted
commands in the order of the versions they were given rebuilds each stored room exactly, with
the very events their callers received; every update delivered twice was applied once.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import redis

from engine.commands import Command, Join, OpenLobby
from engine.errors import ErrorCode, RuleError
from engine.events import AnyEvent
from engine.games.hintrigue.commands import PlayDecoy, Vote
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.registry import GAMES
from engine.model import Room
from engine.roomid import RoomId
from engine.store import Store
from tests.conftest import test_redis_url as redis_url
from tests.table import apply
from tests.unit.test_store import NOW, in_decoys, in_voting, loaded, players, room_round

PROCESSES, THREADS = 4, 8
LOBBIES, DECOY_ROOMS, VOTING_ROOMS = 60, 70, 70
SEATS = 8
JOINERS = 480
DUPLICATED = 0.3
WAVES = 4
SEED = 20240611


@dataclass(frozen=True)
class Task:
    """One Telegram update: a command for a room, delivered once or twice."""

    id: int
    chat: int
    command: Command
    deliveries: int


@dataclass
class Answer:
    """What one delivery of a task got back from the store."""

    task: int
    kind: str  # "applied", "duplicate" or "refused"
    version: int = -1
    events: str = ""
    code: str = ""
    detail: str = ""


@dataclass
class Scenario:
    """The rooms as set up before the storm, and the updates fired at them."""

    initial: dict[int, Room] = field(default_factory=dict)
    titles: dict[int, str] = field(default_factory=dict)
    tasks: list[Task] = field(default_factory=list)


def chat_of(index: int) -> int:
    return -2_000_000 - index


def dump_events(events: list[AnyEvent]) -> str:
    return json.dumps([e.model_dump(mode="json") for e in events])


# --- the scenario -------------------------------------------------------------------------------


def set_up(store: Store, rng: random.Random) -> Scenario:
    """Lobbies waiting for joins, rounds waiting for decoys, rounds waiting for votes."""
    scenario = Scenario()
    commands: list[tuple[int, Command]] = []
    lobbies = [chat_of(i) for i in range(LOBBIES)]
    for chat in lobbies:
        scenario.titles[chat] = f"Lobby {chat}"
        creator = players(chat, 1)[0]
        store.execute(
            chat,
            OpenLobby(chat_id=chat, user_id=creator, name="C", title=scenario.titles[chat], seed=1),
            now=NOW,
        )
    for joiner in range(9_000_000, 9_000_000 + JOINERS):
        for chat in rng.sample(lobbies, 2 if rng.random() < 0.3 else 1):
            commands.append((chat, Join(user_id=joiner, name=f"J{joiner}")))
    for i in range(LOBBIES, LOBBIES + DECOY_ROOMS):
        chat = chat_of(i)
        room = in_decoys(store, chat, players(chat, SEATS), title=f"Decoys {chat}")
        rnd = room_round(room)
        for index in rnd.participants:
            if index != rnd.storyteller:
                seat = room.seats[index]
                cards = own_seats(room)[index].hand[:2]
                commands += [(chat, PlayDecoy(user_id=seat.user_id, card=c)) for c in cards]
                # refused until the last decoy opens the vote, accepted after
                commands.append((chat, Vote(user_id=seat.user_id, card=rnd.plays[rnd.storyteller])))
    for i in range(LOBBIES + DECOY_ROOMS, LOBBIES + DECOY_ROOMS + VOTING_ROOMS):
        chat = chat_of(i)
        room = in_voting(store, chat, players(chat, SEATS), title=f"Voting {chat}")
        rnd = room_round(room)
        teller = room.seats[rnd.storyteller].user_id
        commands.append((chat, Vote(user_id=teller, card=rnd.table[0])))
        for index in rnd.participants:
            if index != rnd.storyteller:
                uid = room.seats[index].user_id
                x, y = rng.sample([c for c in rnd.table if c != rnd.plays[index]], 2)
                commands += [(chat, Vote(user_id=uid, card=c)) for c in (x, y, x)]
        own = next(i for i in rnd.participants if i != rnd.storyteller)
        commands.append((chat, Vote(user_id=room.seats[own].user_id, card=rnd.plays[own])))
    for i in range(LOBBIES + DECOY_ROOMS + VOTING_ROOMS):
        scenario.initial[chat_of(i)] = loaded(store, chat_of(i))
        scenario.titles.setdefault(chat_of(i), scenario.initial[chat_of(i)].title)
    # the updates come in WAVES waves of about 50 rooms each, so that several of the 32 threads
    # often hit the same room at once (with all 200 rooms mixed, conflicts are rare)
    wave = {chat: rng.randrange(WAVES) for chat in scenario.initial}
    rng.shuffle(commands)
    commands.sort(key=lambda item: wave[item[0]])
    scenario.tasks = [
        Task(
            id=1_000_000 + n, chat=chat, command=command, deliveries=1 + (rng.random() < DUPLICATED)
        )
        for n, (chat, command) in enumerate(commands)
    ]
    return scenario


def deal(tasks: list[Task], rng: random.Random) -> list[list[Task]]:
    """Spread the deliveries over the processes; a task's second delivery goes to another one,
    at about the same place in its list, so both deliveries are in flight together."""
    lists: list[list[Task]] = [[] for _ in range(PROCESSES)]
    for n, task in enumerate(tasks):
        first = n % PROCESSES
        lists[first].append(task)
        if task.deliveries == 2:
            lists[(first + rng.randrange(1, PROCESSES)) % PROCESSES].append(task)
    return lists


# --- the workers --------------------------------------------------------------------------------


def deliver(store: Store, task: Task) -> Answer:
    """Deliver one update to the store and write down what came back."""
    try:
        outcome = store.execute(task.chat, task.command, update_id=task.id, now=NOW)
    except RuleError as error:
        return Answer(task.id, "refused", code=error.code.value, detail=error.detail)
    if outcome.duplicate:
        return Answer(task.id, "duplicate")
    assert outcome.room is not None
    return Answer(task.id, "applied", outcome.room.version, dump_events(outcome.events))


def worker(url: str, tasks: list[Task], ready: Any, go: Any, results: Any) -> None:
    """One process: THREADS threads, each with its own store, taking deliveries off one queue."""
    client = redis.Redis.from_url(url, max_connections=THREADS * 2)
    work: queue.SimpleQueue[Task] = queue.SimpleQueue()
    for task in tasks:
        work.put(task)
    answers: list[Answer] = []
    conflicts, retried, failures = [0] * THREADS, [0] * THREADS, []

    def run(n: int) -> None:
        store = Store(client, GAMES)
        while True:
            try:
                task = work.get_nowait()
            except queue.Empty:
                break
            before = store.conflicts
            try:
                answers.append(deliver(store, task))
            except Exception as error:  # reported to the test, which fails
                failures.append(f"{task.id}: {error!r}")
            retried[n] += store.conflicts > before
        conflicts[n] = store.conflicts

    client.ping()
    ready.put(os.getpid())
    go.wait(60)
    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put(
        {
            "answers": answers,
            "conflicts": sum(conflicts),
            "retried": sum(retried),
            "failures": failures,
            "seconds": time.perf_counter() - started,
        }
    )


def storm(lists: list[list[Task]]) -> list[dict[str, Any]]:
    """Run the worker processes, start them together, and gather their reports."""
    context = multiprocessing.get_context("spawn")
    ready, results, go = context.Queue(), context.Queue(), context.Event()
    processes = [
        context.Process(target=worker, args=(redis_url(), tasks, ready, go, results))
        for tasks in lists
    ]
    for process in processes:
        process.start()
    try:
        for _ in processes:
            ready.get(timeout=60)
        go.set()
        reports = [results.get(timeout=120) for _ in processes]
        for process in processes:
            process.join(10)
            assert process.exitcode == 0
        return reports
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()


# --- the checks ---------------------------------------------------------------------------------


def check_each_update_applied_at_most_once(scenario: Scenario, answers: list[Answer]) -> None:
    by_task: dict[int, list[Answer]] = {}
    for answer in answers:
        by_task.setdefault(answer.task, []).append(answer)
    for task in scenario.tasks:
        got = sorted(a.kind for a in by_task[task.id])
        assert len(got) == task.deliveries
        # "duplicate" only beside an applied delivery; a delivery refused beside an applied one
        # must have been judged before it landed (check_refusals_are_explained)
        assert got in (
            ["applied"],
            ["applied", "duplicate"],
            ["applied", "refused"],
            ["refused"],
            ["refused", "refused"],
        ), (task, got)


def replay(
    scenario: Scenario, answers: list[Answer], final: dict[int, Room]
) -> dict[int, list[Room]]:
    """Replay each room's applied commands in version order; return every state it went through.

    No version given twice, none skipped: every stored change is one caller's command, and the
    replay must rebuild the stored room with the very events each caller received.
    """
    commands = {task.id: task.command for task in scenario.tasks}
    chats = {task.id: task.chat for task in scenario.tasks}
    applied: dict[int, list[Answer]] = {chat: [] for chat in scenario.initial}
    for answer in answers:
        if answer.kind == "applied":
            applied[chats[answer.task]].append(answer)
    states: dict[int, list[Room]] = {}
    for chat, room in scenario.initial.items():
        accepted = sorted(applied[chat], key=lambda a: a.version)
        assert [a.version for a in accepted] == list(
            range(room.version + 1, final[chat].version + 1)
        )
        states[chat] = [room]
        for answer in accepted:
            room, events = apply(room, commands[answer.task], NOW)
            assert dump_events(events) == answer.events
            states[chat].append(room)
        assert room == final[chat]
    return states


def check_refusals_are_explained(
    scenario: Scenario, answers: list[Answer], states: dict[int, list[Room]]
) -> None:
    """Each refusal is what the rules say in one of the states the room went through, before
    the same update was applied, if it was."""
    tasks = {task.id: task for task in scenario.tasks}
    landed = {a.task: a.version for a in answers if a.kind == "applied"}
    for answer in answers:
        task = tasks[answer.task]
        if answer.kind != "refused" or answer.code == ErrorCode.IN_OTHER_GAME.value:
            continue
        history = states[task.chat]
        if task.id in landed:
            history = history[: landed[task.id] - history[0].version - 1]
        assert any(refusal(room, task.command) == answer.code for room in reversed(history)), (
            task,
            answer,
        )


def refusal(room: Room, command: Command) -> str:
    try:
        apply(room, command, NOW)
    except RuleError as error:
        return error.code.value
    return "accepted"


def check_rule_outcomes(scenario: Scenario, answers: list[Answer], final: dict[int, Room]) -> None:
    """Spot checks in the game's own terms, beside the replay."""
    tasks = {task.id: task for task in scenario.tasks}
    joined: dict[int, list[int]] = {}
    for answer in answers:
        task = tasks[answer.task]
        if isinstance(task.command, Join) and answer.kind == "applied":
            joined.setdefault(task.command.user_id, []).append(task.chat)
        if answer.code == ErrorCode.IN_OTHER_GAME.value:
            assert isinstance(task.command, Join)
            assert answer.detail == scenario.titles[joined_chat(final, task.command.user_id)]
    for user, chats in joined.items():
        assert len(chats) == 1  # a player sits in at most one game
        assert [s.user_id for s in final[chats[0]].seats].count(user) == 1
    for chat, room in final.items():
        seated = [s.user_id for s in room.seats]
        assert len(seated) == len(set(seated)) <= SEATS
        shown = (Phase.DECOYS, Phase.VOTING, Phase.REVEAL)
        if round_of(room) is not None and phase_of(room) in shown:
            for index, card in round_of(room).plays.items():
                assert card not in own_seats(room)[index].hand
                assert card in own_seats(scenario.initial[chat])[index].hand or (
                    card == round_of(scenario.initial[chat]).plays.get(index)  # type: ignore[union-attr]
                )


def joined_chat(final: dict[int, Room], user: int) -> int:
    return next(chat for chat, room in final.items() if user in [s.user_id for s in room.seats])


def check_player_index(store: Store, final: dict[int, Room]) -> None:
    seated = {s.user_id: chat for chat, room in final.items() for s in room.seats}
    for user, chat in seated.items():
        assert store.room_of_player(user) == RoomId(chat)
    for joiner in range(9_000_000, 9_000_000 + JOINERS):
        if joiner not in seated:
            assert store.room_of_player(joiner) is None


def test_every_accepted_command_lands_exactly_once_under_a_storm_of_processes(
    real_redis: redis.Redis,
) -> None:
    rng = random.Random(SEED)
    store = Store(real_redis, GAMES)
    scenario = set_up(store, rng)
    reports = storm(deal(scenario.tasks, rng))

    assert [r["failures"] for r in reports] == [[]] * PROCESSES
    answers = [answer for report in reports for answer in report["answers"]]
    final = {chat: loaded(store, chat) for chat in scenario.initial}
    check_each_update_applied_at_most_once(scenario, answers)
    states = replay(scenario, answers, final)
    check_refusals_are_explained(scenario, answers, states)
    check_rule_outcomes(scenario, answers, final)
    check_player_index(store, final)

    kinds = [a.kind for a in answers]
    conflicts = sum(r["conflicts"] for r in reports)
    print(
        f"\nstore storm: {PROCESSES} processes x {THREADS} threads, {len(scenario.initial)} rooms,"
        f" {len(scenario.tasks)} updates, {len(answers)} deliveries in"
        f" {max(r['seconds'] for r in reports):.2f}s:"
        f" applied={kinds.count('applied')} duplicate={kinds.count('duplicate')}"
        f" refused={kinds.count('refused')} conflicts={conflicts}"
        f" retries={conflicts} commands_retried={sum(r['retried'] for r in reports)}"
    )
    assert kinds.count("duplicate") > 100 and kinds.count("applied") > 1000
    assert kinds.count("refused") > 100
    assert len(answers) == sum(task.deliveries for task in scenario.tasks)
