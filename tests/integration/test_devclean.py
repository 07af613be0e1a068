"""A local run on a shared Redis deletes exactly what it wrote when it stops (tgbot.local.clean)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import redis
from rq import Queue

from engine.store import keys
from tgbot.local.clean import RunIds, clean_run
from tgbot.standin import World

QUEUE = "hintrigue-dev-1700000000"
OTHER_QUEUE = "hintrigue"


def noop() -> None:
    """An RQ job's function (never run here)."""


def write_room(client: redis.Redis, group: int, users: list[int], queue: str) -> None:
    """Keys as the web process and the workers write them for a game in `group`."""
    client.hset(keys.room(group), mapping={"state": "{}", "ver": 3})
    client.sadd(keys.applied_updates(group, 19_700), 1)
    client.hset(keys.group_stats(group), "games", 1)
    client.rpush(keys.outbox(group), "message")
    client.hset(keys.message_ids(group), "lobby", 17)
    client.set(keys.delivery_lock(group), "token")
    client.set(keys.flush_queued(group), 1)
    client.rpush(keys.inbox(group), "{}")
    client.set(keys.inbox_owner(group), "token")
    client.rpush(keys.inbox_ready(queue), f"{group} token")
    client.zadd(keys.delivery_waits(queue), {f"{group} 0 chain": time.time() + 60})
    client.rpush(keys.delivery_ready(queue), f"{group} 0 chain")
    client.hset(keys.rate_chat(group), "tokens", 3)
    client.zadd(keys.rate_group(group), {"1": 1})
    client.sadd(keys.running_games("hintrigue"), group)
    for sweep in (keys.pending_timers(), keys.pending_deliveries(), keys.pending_inboxes()):
        client.zadd(sweep, {str(group): time.time()})
    for user in users:
        client.set(keys.player(user), group)
        client.hset(keys.user_stats(user), "games", 1)
        client.set(keys.started(user), 1)
        client.hset(keys.rate_chat(user), "tokens", 3)
        client.rpush(keys.inbox(user), "{}")
        client.zadd(keys.pending_deliveries(), {str(user): time.time()})
    rq = Queue(queue, connection=client)
    rq.enqueue(noop, group)
    rq.enqueue(noop, group, job_id=f"timer_{group}_1_vote")
    rq.enqueue_at(datetime.now(UTC) + timedelta(hours=1), noop, group)
    worker = f"rq:worker:{queue}-worker"
    client.hset(worker, mapping={"queues": queue, "state": "idle"})
    client.sadd("rq:workers", worker)
    client.sadd(f"rq:workers:{queue}", worker)


def test_a_run_on_a_shared_redis_leaves_only_what_others_wrote(real_redis: redis.Redis) -> None:
    world = World(first_update_id=1_700_000_000_000, first_user_id=5_000_001_000)
    group = -1_000_700_000_000
    world.add_chat(group, "supergroup", title="Game night")
    ann, bob = (world.add_user(first_name=name).id for name in ("Ann", "Bob"))
    world.user_message(ann, group, "/newgame")
    world.start_private(bob, "j-1000700000000")
    late = world.add_user(first_name="Cy").id  # a player added on the page later
    users = [ann, bob, late]

    # Another run's (or another program's) data, with look-alike numbers.
    other_group, other_users = group - 1, [ann + 1_000_000, -ann, ann * 10]
    write_room(real_redis, other_group, other_users, OTHER_QUEUE)
    real_redis.set("unrelated", "kept")
    real_redis.set(keys.update_seen(1_600_000_000_000), 1)
    real_redis.zadd(keys.rate_global(), {"1": time.time()})
    before = {key.decode() for key in real_redis.scan_iter()}

    write_room(real_redis, group, users, QUEUE)
    for update in world.updates:
        real_redis.set(keys.update_seen(update["update_id"]), 1, ex=3600)
    real_redis.set(keys.bot_username(), "hintrigue_bot")
    real_redis.set(f"bot:{world.bot.id}:username", "hintrigue_bot")  # should it take the id
    real_redis.hincrbyfloat(keys.metrics(), "updates|kind=message", 3)
    assert len({key.decode() for key in real_redis.scan_iter()} - before) > 30

    removed = clean_run(real_redis, RunIds.of(world, QUEUE))

    after = {key.decode() for key in real_redis.scan_iter()}
    assert after == before, (sorted(after - before), sorted(before - after))
    assert removed > 30
    assert real_redis.smembers("rq:queues") == {f"rq:queue:{OTHER_QUEUE}".encode()}
    assert real_redis.smembers("rq:workers") == {f"rq:worker:{OTHER_QUEUE}-worker".encode()}
    others = {str(other_group).encode(), *(str(u).encode() for u in other_users)}
    for sweep in (keys.pending_timers(), keys.pending_deliveries(), keys.pending_inboxes()):
        assert set(real_redis.zrange(sweep, 0, -1)) <= others, sweep
    assert str(other_group).encode() in real_redis.zrange(keys.pending_timers(), 0, -1)
    assert real_redis.smembers(keys.running_games("hintrigue")) == {str(other_group).encode()}
    assert len(Queue(OTHER_QUEUE, connection=real_redis)) == 2


def test_the_ids_of_a_run_include_every_private_chat_and_update() -> None:
    world = World(first_update_id=42, first_user_id=7000)
    group = -1_000_000_000_123
    world.add_chat(group, "supergroup")
    ann = world.add_user(first_name="Ann").id
    world.user_message(ann, group, "/newgame")
    world.start_private(ann)
    run = RunIds.of(world, QUEUE)
    assert run.chats == {group, ann} and run.users == {ann}
    assert run.updates == {42, 43} and run.queue == QUEUE
    assert run.names(f"{{room:{group}}}:state") and run.names(f"player:{ann}")
    assert run.names("seen:43") and run.names(f"rq:wip:{QUEUE}") and run.names("bot:username")
    assert not run.names(f"player:{ann}1") and not run.names(f"player:-{ann}")
    assert not run.names(f"rq:wip:{QUEUE}-2") and not run.names("seen:44")
