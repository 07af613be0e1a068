"""The release step moves keys named before they carried the bot's id: a game running during
the deploy goes on."""

from engine.commands import Join, OpenLobby
from engine.games.registry import GAMES
from engine.roomid import RoomId
from engine.store import Store, keys
from engine.store.migrate import migrate_keys

CHAT = -1009


def test_a_room_stored_under_the_old_names_loads_after_the_move_and_moving_twice_is_harmless(
    fake_redis,
):
    keys.use_bot("")  # the names of old
    old = Store(fake_redis, GAMES)
    old.execute(CHAT, OpenLobby(chat_id=CHAT, user_id=1, name="A", seed=1), update_id=1, now=1.0)
    old.execute(CHAT, Join(user_id=2, name="B"), update_id=2, now=2.0)
    fake_redis.set("bot:username", "hintrigue_bot")
    fake_redis.zadd("sweep:timers", {str(CHAT): 5.0})
    fake_redis.set("started:2", 1)
    before = {k.decode() for k in fake_redis.keys("*")}
    assert "{room:-1009}:state" in before and "player:2" in before

    keys.use_bot("42")
    fake_redis.zadd(keys.pending_timers(), {"-5": 9.0})  # written by a new worker already
    moved = migrate_keys(fake_redis)
    after = {k.decode() for k in fake_redis.keys("*")}
    assert moved == len(before)
    assert all(k.startswith(("b42:", "{b42:")) for k in after), after
    room = Store(fake_redis, GAMES).load(CHAT)
    assert room is not None and [s.name for s in room.seats] == ["A", "B"]
    assert Store(fake_redis, GAMES).room_of_player(2) == RoomId(CHAT)
    assert fake_redis.get(keys.bot_username()) == b"hintrigue_bot"
    assert fake_redis.zscore(keys.pending_timers(), str(CHAT)) == 5.0
    assert fake_redis.zscore(keys.pending_timers(), "-5") == 9.0
    assert migrate_keys(fake_redis) == 0
