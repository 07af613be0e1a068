"""Two bots on one Redis database, each with its own processes as the Procfile runs them: the
same group, the same user ids and the same update ids, and neither sees the other's data,
links, messages or jobs."""

from __future__ import annotations

from engine.store import keys
from tests.e2e.procs import GROUP, LIMITS, Proc, ProcStack
from tests.harness import without_join_timer
from tgbot.ops.config import bot_id
from tgbot.standin import StandinServer, World


def bot_stack(redis_server, log_dir, token: str, username: str) -> ProcStack:
    world = World(token=token, bot_username=username, rate_limits=LIMITS,
                  enforce_rate_limits=True)  # fmt: skip
    double = StandinServer(world)
    double.start()
    stack = ProcStack(world, double, redis_server, log_dir / username, 0.05)
    stack.log_dir.mkdir()
    web = stack.start_web()
    # Each bot's own queue: the Procfile names it after the bot (RQ_QUEUE left unset).
    process = stack.spawn("release", RQ_QUEUE="",
                          WEBHOOK_URL=f"http://127.0.0.1:{web.port}/webhook")  # fmt: skip
    assert process.wait(timeout=30) == 0
    stack.procs.append(Proc("worker", stack.spawn("worker", RQ_QUEUE="")))
    world.add_chat(GROUP, "supergroup", title="Shared", bot_status="left")
    keys.use_bot(bot_id(token))  # the test's lobbies wait for it, not for a join timer
    without_join_timer(stack.client, GROUP)
    return stack


def test_two_bots_sharing_a_redis_database_never_meet(redis_server_factory, tmp_path):
    server = redis_server_factory()
    server.start()
    stacks = [bot_stack(server, tmp_path, "111:first-token", "first_bot"),
              bot_stack(server, tmp_path, "222:second-token", "second_bot")]  # fmt: skip
    try:
        for stack in stacks:  # the same users, the same update ids, in each world
            users = [stack.world.add_user(first_name=n).id for n in ("Ann", "Bob", "Cy")]
            stack.deliver(stack.world.bot_added(GROUP, users[0]))
            stack.deliver(stack.world.start_private(users[0]))
            stack.say(users[0], GROUP, "/newgame")
        for stack, username in zip(stacks, ("first_bot", "second_bot"), strict=True):
            stack.wait_find(GROUP, "a new game is open")
            late = stack.world.add_user(first_name="Dee").id
            stack.say(late, GROUP, "/join")
            link = stack.wait_find(GROUP, "To play, open")
            assert f"open @{username} and" in link.plain_text
            assert any(f"t.me/{username}?start=" in e.get("url", "") for e in link.entities)
            assert stack.world.bot_messages(GROUP)[0].plain_text.startswith("Hi! I run")
        client = stacks[0].client
        names = [k.decode() for k in client.keys("*")]
        assert names and all(n.startswith(("b111:", "{b111:", "b222:", "{b222:", "rq:"))
                             for n in names), names  # fmt: skip
        assert {n for n in names if n.startswith("rq:queue:")} <= {
            "rq:queue:hintrigue-111",
            "rq:queue:hintrigue-222",
        }
    finally:
        for stack in stacks:
            stack.stop()
            stack.double.stop()
