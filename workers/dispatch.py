"""Dispatch on RQ: delivery jobs per chat and timer jobs at their deadline.

Each request also leaves a trace in a sorted set (`keys.pending_timers`,
`keys.pending_deliveries`) that the workers sweep, so a job lost with a crashed worker is done
again soon after (`workers.sweep`). Jobs take ids, never objects, and may run twice without harm.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from datetime import UTC, datetime

import redis
from redis.client import Pipeline

from engine.events import AnyEvent
from engine.games.base import Games, Moment
from engine.model import OVER_PHASES, Phase, Room, is_ai_user
from engine.roomid import RoomId
from engine.store import keys
from engine.store.clock import RedisClock
from workers.waking import WakingQueue, wake

# Events after which no timer runs any more.
OVER = frozenset({"game_finished", "game_abandoned", "lobby_closed"})

# A phase whose timer runs at least REMIND_FROM seconds, of those the game has reminded
# (`Game.reminded_phases`), gets its group message edited to show the time left REMIND_BEFORE
# seconds before the end (an edit: it costs no new message).
REMIND_BEFORE = 30.0
REMIND_FROM = 40.0
# A lobby's join timer is shown counting down: its message is edited every LOBBY_TICK seconds.
LOBBY_TICK = 30.0
QUEUED_MS = 30_000  # a "flush queued" marker outlives a lost job by at most this
CHAIN_TTL = 3600  # a room's latest delivery job enqueued again is known this long
FLUSH_TIMEOUT = 120
TIMER_TIMEOUT = 60
# A job's result is of no use: the job is deleted once done. (Kept a minute, the jobs of a
# burst would all expire a minute later, and Redis's expiry cycle stall every client.)
RESULT_TTL = 0
FAILURE_TTL = 24 * 3600

# Note that the chat's outbox waits (keeping the oldest request time) and claim the right to
# enqueue its delivery job: 1 when no job for the chat waits in the queue already.
_REQUEST_FLUSH = """
redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1])
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[3]) then return 1 end
return 0
"""


AI_DELAY_S = (2.0, 5.0)
"""An AI player acts this many seconds (times TIMER_SCALE) after its phase began: a human-like
pause, drawn per room, round, phase and seat, so the same moment however often it is asked."""


def ai_turn(room: Room, games: Games) -> Moment | None:
    """Where the room's running game stands for its AI seats: its moment, waiting for its AI
    seats alone (None: no game runs)."""
    if room.phase in OVER_PHASES or room.phase is Phase.LOBBY:
        return None
    moment = games.named(room.game).moment(room)
    if moment is None:
        return None
    ai = [i for i in moment.waiting if is_ai_user(room.seats[i].user_id)]
    return moment._replace(waiting=ai)


def _ai_key(room: Room, turn: Moment, seat: int) -> str:
    return f"{room.room_id}_{room.game_id}_{turn.round_no}_{turn.phase}_{seat}"


def ai_moment(room: Room, turn: Moment, seat: int) -> float:
    """When the AI at `seat` acts in the game's current phase (its start plus a pause)."""
    digest = hashlib.sha256(_ai_key(room, turn, seat).encode()).digest()
    low, high = AI_DELAY_S
    pause = low + (high - low) * int.from_bytes(digest[:8], "big") / 2**64
    return turn.phase_at + pause * room.timer_scale


def ai_job_id(room: Room, turn: Moment, seat: int) -> str:
    """One AI move job per room, game, round, phase and seat."""
    return f"{keys.job_prefix()}ai_{_ai_key(room, turn, seat)}"


def timer_of(room: Room, games: Games) -> tuple[int, str] | None:
    """The (round, phase) a room's timer names: (0, "lobby") for a lobby's join time, else
    what its game set its deadline for (None: no timer)."""
    if room.phase is Phase.LOBBY:
        return 0, Phase.LOBBY.value
    if room.phase in OVER_PHASES:
        return None
    return games.named(room.game).timer(room)


def timer_job_id(where: RoomId, round_no: int, phase: str) -> str:
    """One timer job per room, round and phase (RQ ids allow [A-Za-z0-9_-], and so does a
    room's written form)."""
    return f"{keys.job_prefix()}timer_{where}_{round_no}_{phase}"


class RqDispatch:
    """Enqueue delivery and timers on an RQ queue, for the games a bot hosts."""

    def __init__(self, client: redis.Redis, queue: str, games: Games) -> None:
        self.client = client
        self.games = games
        self.clock = RedisClock(client)  # one clock for every process: deadlines are Redis's
        self.queue = WakingQueue(queue, connection=client)
        self._request_flush = client.register_script(_REQUEST_FLUSH)
        self._kept: list[RoomId] | None = None

    def flush(self, where: RoomId) -> None:
        """Deliver the room's outbox on a worker: enqueue a job unless one waits already.
        While a job keeps its deliveries (`keep_deliveries`), the job delivers it itself
        when it ends, rather than a job of its own."""
        claimed = self._request_flush(
            keys=[keys.flush_queued(where), keys.pending_deliveries()],
            args=[str(where), self.clock(), QUEUED_MS],
        )
        if not claimed:
            return
        if self._kept is not None:
            if where not in self._kept:
                self._kept.append(where)
            return
        self.enqueue_flush(where)

    def keep_deliveries(self) -> None:
        """From now on, note the deliveries asked for (and claimed, exactly as for a job of
        their own) instead of enqueuing them: the caller does them (`kept_deliveries`). A
        worker handles one job at a time: the job that asked does them at its end, at the
        cost of a function call rather than an RQ job. Should it die first, they are noted
        in the sweeper's set like any other, which enqueues them a few seconds later."""
        self._kept = []

    def kept_deliveries(self) -> list[RoomId]:
        """The deliveries noted since `keep_deliveries`, which enqueues them again from now on."""
        kept, self._kept = self._kept or [], None
        return kept

    def enqueue_flush(self, where: RoomId, attempt: int = 0, again: bool = False,
                      pipe: Pipeline | None = None) -> None:  # fmt: skip
        """Enqueue a delivery job. `again`: the job takes over from the room's delivery jobs
        enqueued before (a retry, or the sweeper's for one that is late): one of those that
        still comes does nothing (`current`), so that copies do not run on side by side.
        `pipe`: done with the transaction's commands (a pipeline in MULTI, as RQ wants it)
        when the caller executes it, else in one transaction of its own."""
        options = {"job_timeout": FLUSH_TIMEOUT, "result_ttl": RESULT_TTL,
                   "failure_ttl": FAILURE_TTL}  # fmt: skip
        args: tuple[str, int] | tuple[str, int, str] = (str(where), attempt)
        own = pipe is None
        if pipe is None:
            pipe = self.client.pipeline()
            pipe.multi()
        if again:
            chain = secrets.token_hex(6)
            pipe.set(keys.flush_chain(where), chain, ex=CHAIN_TTL)
            args = (*args, chain)
        self.queue.enqueue("workers.jobs.flush", *args, **options, pipeline=pipe)
        if own:
            pipe.execute()

    def flush_later(self, where: RoomId, at: float, attempt: int, pipe: Pipeline) -> None:
        """Deliver the room's outbox at `at`, never before, taking over from its delivery jobs
        enqueued before (as `enqueue_flush` does `again`), when `pipe` is executed. No RQ job:
        the delivery waits in the queue's sorted set (`keys.delivery_waits`), which the
        queue's scheduler, woken for it if need be, moves onto the ready list the workers pop
        (`workers.worker`) at that moment. Most deliveries of a busy group wait (its limit is
        20 messages a minute), and an RQ job (created, pickled, saved, filed, enqueued,
        fetched, parsed and deleted) cost the workers more than the message it delivered."""
        chain = secrets.token_hex(6)
        pipe.set(keys.flush_chain(where), chain, ex=CHAIN_TTL)
        pipe.zadd(keys.delivery_waits(self.queue.name), {f"{where} {attempt} {chain}": at})
        wake(pipe, self.queue.name, at)

    def others_wait(self) -> tuple[bool, bool]:
        """Whether an inbox waits for a worker, and whether a job or a due delivery does (one
        round trip): a delivery does not sleep through a short wait while they do."""
        pipe = self.client.pipeline(transaction=False)
        pipe.llen(keys.inbox_ready(self.queue.name))
        pipe.llen(self.queue.key)
        pipe.llen(keys.delivery_ready(self.queue.name))
        inboxes, queued, due = pipe.execute()
        return bool(inboxes), bool(queued or due)

    def current(self, where: RoomId, chain: str | None) -> bool:
        """Whether a delivery job enqueued again (`chain`, None: asked for) is the room's
        latest: an earlier one was taken over, and its work is the later one's."""
        if chain is None:
            return True
        latest = self.client.get(keys.flush_chain(where))
        return latest is None or (latest.decode() if isinstance(latest, bytes) else latest) == chain

    def schedule(self, room: Room, events: list[AnyEvent]) -> None:
        """Fire the timer of the room's current phase at its deadline, never before."""
        if any(e.kind in OVER for e in events):
            self.client.zrem(keys.pending_timers(), str(room.room_id))
        self.schedule_ai(room)
        if room.deadline is None:
            return
        if room.phase is Phase.LOBBY:
            # Any move may move a lobby's deadline (/extend, a join time changed, the idle
            # day starting anew): the timer is set anew under the same id.
            self.schedule_timer(room.room_id, 0, room.phase.value, room.deadline)
            if any(e.kind == "lobby_opened" for e in events):
                self.schedule_lobby_tick(room)
            return
        game = self.games.named(room.game)
        named = timer_of(room, self.games)
        if named is None or not any(e.kind in game.timed_events for e in events):
            return
        self.schedule_timer(room.room_id, *named, room.deadline)
        if named[1] in game.reminded_phases:
            self.schedule_reminder(room.room_id, *named, room.deadline)

    def schedule_lobby_tick(self, room: Room) -> None:
        """Show a lobby's join time counting down: the next edit, while more than a tick is
        left (best effort: a lost tick costs an edit, never a move)."""
        if not room.settings.join_s or room.deadline is None:
            return
        at = self.clock() + LOBBY_TICK
        if room.deadline - at < LOBBY_TICK / 6:
            return  # the start, or the lobby's closing, says the rest
        self.queue.enqueue_at(
            datetime.fromtimestamp(math.floor(at), UTC),
            "workers.jobs.lobby_tick",
            str(room.room_id),
            room.game_id,
            job_id=f"{keys.job_prefix()}tick_{room.room_id}_{room.game_id}_{math.floor(at)}",
            meta={"not_before": at},
            job_timeout=TIMER_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
        )

    def schedule_reminder(self, where: RoomId, round_no: int, phase: str, deadline: float
                          ) -> None:  # fmt: skip
        """Show the time left shortly before a long enough phase times out (best effort: a
        lost reminder costs an edit, never a move)."""
        if deadline - self.clock() < REMIND_FROM:
            return
        at = deadline - REMIND_BEFORE
        self.queue.enqueue_at(
            datetime.fromtimestamp(math.floor(at), UTC),
            "workers.jobs.remind",
            str(where),
            round_no,
            phase,
            job_id=f"{keys.job_prefix()}remind_{where}_{round_no}_{phase}",
            meta={"not_before": at},
            job_timeout=TIMER_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
        )

    def resume(self, room: Room) -> None:
        """Set the timer of the room's current phase again, if it has one: the job id is the
        same, so a timer set already is only set anew."""
        self.schedule_ai(room)
        if room.deadline is None or room.phase in OVER_PHASES:
            return
        named = timer_of(room, self.games)
        if named is not None:
            self.schedule_timer(room.room_id, *named, room.deadline)

    def schedule_ai(self, room: Room) -> None:
        """Have every AI seat the room waits for act at its moment. Asked after every commit:
        the job id and the moment are the same each time, so the job is only set anew; a job
        lost with a worker is set again by the room's next commit (or its phase times out)."""
        turn = ai_turn(room, self.games)
        for seat in turn.waiting if turn is not None else []:
            assert turn is not None
            at = max(ai_moment(room, turn, seat), 0.0)
            self.queue.enqueue_at(
                datetime.fromtimestamp(math.floor(at), UTC),
                "workers.jobs.ai_move",
                str(room.room_id),
                room.game_id,
                turn.round_no,
                turn.phase,
                seat,
                job_id=ai_job_id(room, turn, seat),
                meta={"not_before": at},
                job_timeout=TIMER_TIMEOUT,
                result_ttl=RESULT_TTL,
                failure_ttl=FAILURE_TTL,
            )

    def schedule_timer(self, where: RoomId, round_no: int, phase: str, deadline: float) -> None:
        """Schedule one timer job and note the room's deadline for the sweeper."""
        self.client.zadd(keys.pending_timers(), {str(where): deadline})
        # Filed under the whole second the deadline falls in; our scheduler waits for the
        # exact moment (`not_before`), and a stock one fires early at worst, which the rules
        # refuse and the job reschedules.
        self.queue.enqueue_at(
            datetime.fromtimestamp(math.floor(deadline), UTC),
            "workers.jobs.fire_timer",
            str(where),
            round_no,
            phase,
            job_id=timer_job_id(where, round_no, phase),
            at_front=True,  # a timer waits for no delivery
            meta={"not_before": deadline},
            job_timeout=TIMER_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
        )

    def enqueue_timer(self, where: RoomId, round_no: int, phase: str) -> None:
        """Fire a timer now (the sweeper's way: the rules refuse an early or stale one)."""
        self.queue.enqueue(
            "workers.jobs.fire_timer",
            str(where),
            round_no,
            phase,
            job_id=f"sweep_{timer_job_id(where, round_no, phase)}",
            at_front=True,
            job_timeout=TIMER_TIMEOUT,
            result_ttl=RESULT_TTL,
            failure_ttl=FAILURE_TTL,
        )
