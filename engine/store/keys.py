"""Every Redis key name, built in one place.

Every name carries the bot's id (`b<id>:`), so bots sharing a Redis database never see each
other's data: the process's composition root names the bot once (`use_bot`), as RQ's key
prefixes are set once. Keys of one room share the hash tag `{b<id>:room:<room>}`, so a
room's keys sit on one Redis Cluster slot; `<room>` is the room as `engine.roomid` writes it:
the chat id for a chat's own room (as before forum topics were rooms), `<chat>_<topic>` for a
forum topic's. What belongs to a whole group (its language, its remembered settings, its
lifetime stats) is kept under the chat's own room, whatever topic a game was played in.
Player and lifetime-stats keys are per user.
"""

from __future__ import annotations

from engine.roomid import RoomId

RoomRef = RoomId | int
"""A room's keys are named by the room, or by a chat id for the chat's own room."""

_NS = ""  # "b<bot id>:" once the bot is named; "" only for names of old (see engine.store.migrate)


def use_bot(bot_id: str) -> None:
    """Name the bot whose keys this process reads and writes (its composition root does)."""
    global _NS
    _NS = f"b{bot_id}:" if bot_id else ""


def namespace() -> str:
    """The prefix every key of this process's bot starts with (or holds in its hash tag)."""
    return _NS


def job_prefix() -> str:
    """The prefix of this bot's RQ job ids (ids allow `[A-Za-z0-9_-]` only)."""
    return _NS.replace(":", "_")


def room(room: RoomRef) -> str:
    """The hash holding a room's state JSON (`state`) and its version (`ver`)."""
    return f"{room_prefix(room)}state"


def applied_updates(room: RoomRef, day: int) -> str:
    """The set of Telegram update ids applied to this room on one UTC day."""
    return f"{room_prefix(room)}upd:{day}"


def group_stats(chat_id: int) -> str:
    """Lifetime stats of a group."""
    return f"{room_prefix(chat_id)}stats"


def leaderboard(chat_id: int, game: str) -> str:
    """A group's games of a game in the last 90 days, by when they ended (`engine.store.stats`)."""
    return f"{room_prefix(chat_id)}top:{game}"


def player_names(chat_id: int) -> str:
    """The names the players of a group's recent games had (user id → name), for /top."""
    return f"{room_prefix(chat_id)}names"


def notify(chat_id: int) -> str:
    """The players waiting for the group's next lobby (user id → their language), /notify."""
    return f"{room_prefix(chat_id)}notify"


def group_game(chat_id: int) -> str:
    """The game of a group's last lobby: what its next bare /newgame opens."""
    return f"{room_prefix(chat_id)}game"


def group_language(chat_id: int) -> str:
    """The language a group chose for its games, remembered for its next lobby."""
    return f"{room_prefix(chat_id)}lang"


def group_settings(chat_id: int, game: str) -> str:
    """The settings of a group's last lobby of a game, for its next one (JSON)."""
    return f"{room_prefix(chat_id)}settings:{game}"


def user_language(user_id: int) -> str:
    """The language a player chose for private messages (/language)."""
    return f"{_NS}lang:user:{user_id}"


def room_prefix(room: RoomRef | str) -> str:
    """The common prefix of every key of a room."""
    return "{" + f"{_NS}room:{room}" + "}:"


def player(user_id: int) -> str:
    """The room of the game a player is seated in (as `engine.roomid` writes it)."""
    return f"{_NS}player:{user_id}"


def user_stats(user_id: int) -> str:
    """Lifetime figures of a player, a field per game and figure (`engine.store.stats`)."""
    return f"{_NS}stats:user:{user_id}"


def outbox(room: RoomRef) -> str:
    """The list of messages waiting to be delivered for a chat, in order."""
    return f"{room_prefix(room)}outbox"


def message_ids(room: RoomRef, game: int = 0) -> str:
    """Telegram message ids of one game's messages in a room, by logical key (`lobby`,
    `table:3` …). Game 0 is the map of rooms stored before games had ids."""
    return f"{room_prefix(room)}msgs" + (f":{game}" if game else "")


def answer_pending(room: RoomRef, answer: str) -> str:
    """Set while an answer such as /help's waits in the chat's outbox (it is not queued twice)."""
    return f"{room_prefix(room)}once:{answer}"


def flood(chat_id: int, user_id: int) -> str:
    """When a player's recent commands in a group came (a sorted set, for the flood guard)."""
    return f"{room_prefix(chat_id)}flood:{user_id}"


def muted(chat_id: int, user_id: int) -> str:
    """Set while a player who flooded a group is ignored there."""
    return f"{room_prefix(chat_id)}muted:{user_id}"


def delivery_lock(room: RoomRef) -> str:
    """Held by the one process delivering a chat's outbox."""
    return f"{room_prefix(room)}deliver"


def started(user_id: int) -> str:
    """Set once a user has opened a private chat with the bot."""
    return f"{_NS}started:{user_id}"


def awaiting_join(user_id: int) -> str:
    """The room whose Join a user pressed before opening a private chat with the bot."""
    return f"{_NS}awaiting:{user_id}"


def update_seen(update_id: int) -> str:
    """Set once the webhook has taken an update in (it then waits in an inbox)."""
    return f"{_NS}seen:{update_id}"


def app_answer(query_id: str) -> str:
    """The answer to a press the board app made (`query_id`: the press's, `app:<nonce>`), kept
    a minute for the app's request to read."""
    return f"{_NS}appans:{query_id}"


def bot_username() -> str:
    """The bot's @username, written by the first process that asked Telegram (getMe)."""
    return f"{_NS}bot:username"


def rate_global() -> str:
    """Timestamps of the messages sent in the last second, by every process."""
    return f"{_NS}rate:global"


def rate_chat(chat_id: int) -> str:
    """The token bucket of one chat."""
    return f"{_NS}rate:chat:{chat_id}"


def rate_group(chat_id: int) -> str:
    """Timestamps of the new messages sent to a group in the last minute."""
    return f"{_NS}rate:group:{chat_id}"


def rate_turns() -> str:
    """Chats waiting for a turn at the global limit, by the time of their appointment, shared
    by every process (`workers/ratelimit.lua`)."""
    return f"{_NS}rate:turns"


def rate_private_waits() -> str:
    """Private chats waiting for a slot at the global limit, by when they were told to come
    back (when the slot they wait for comes free): the groups let them go first until a while
    after (`workers/ratelimit.lua`)."""
    return f"{_NS}rate:turns:private"


def rate_turn_rooms() -> str:
    """The room whose delivery booked each group's appointment at the global limit (chat →
    room): a free slot handed to the group is used by delivering that room
    (`workers/ratelimit.lua`)."""
    return f"{_NS}rate:turns:rooms"


def rate_claims() -> str:
    """Groups whose turn at the global limit came and found no free slot, by when the slot
    they claimed comes free: nobody else takes it (`workers/ratelimit.lua`)."""
    return f"{_NS}rate:turns:claims"


def flush_queued(room: RoomRef) -> str:
    """Set while a delivery job for the chat waits in the queue (one is enough)."""
    return f"{room_prefix(room)}flushq"


def flush_chain(room: RoomRef) -> str:
    """The token of the room's latest delivery job enqueued again (a retry, or the sweeper's
    for a delivery it found late): an earlier one that still comes does nothing."""
    return f"{room_prefix(room)}flushc"


def pending_timers() -> str:
    """Sorted set of rooms by the deadline of their running timer, for the sweeper."""
    return f"{_NS}sweep:timers"


def pending_deliveries() -> str:
    """Sorted set of chats whose outbox waits for delivery, by when it was last asked for."""
    return f"{_NS}sweep:deliveries"


def inbox(room: RoomRef | str) -> str:
    """The list of Telegram updates waiting for a worker, for a room (or a private chat that
    is in no room), in the order they came."""
    return f"{room_prefix(room)}inbox"


def failed_updates(room: RoomRef) -> str:
    """Updates of a room whose handling failed every try, kept for a human to look at."""
    return f"{room_prefix(room)}failed"


def inbox_owner(room: RoomRef | str) -> str:
    """The token of the one drain job that may take updates from the inbox (with a lease)."""
    return f"{room_prefix(room)}drain"


def inbox_ready(queue: str) -> str:
    """The list of inboxes waiting for a worker (`<room> <token>`), per RQ queue."""
    return f"{_NS}inbox:ready:{queue}"


def delivery_waits(queue: str) -> str:
    """Sorted set of deliveries waiting for the rate limits (`<room> <attempt> <chain>`), by
    the moment they may go, per RQ queue: its scheduler moves those due onto
    `delivery_ready` (`workers.dispatch.RqDispatch.flush_later`)."""
    return f"{_NS}delivery:waits:{queue}"


def delivery_ready(queue: str) -> str:
    """The list of due deliveries (`<room> <attempt> <chain>`) that the workers of an RQ queue
    pop as they pop inboxes (`workers.worker`)."""
    return f"{_NS}delivery:ready:{queue}"


def scheduler_wake(queue: str) -> str:
    """The list a job scheduled on an RQ queue pushes a word onto, which wakes the queue's
    scheduler from its wait (`workers.waking`)."""
    return f"{_NS}scheduler:wake:{queue}"


def scheduler_next(queue: str) -> str:
    """When an RQ queue's scheduler, waiting, will look for due jobs next (Redis's clock): a
    job due by then need not wake it (`workers.waking`)."""
    return f"{_NS}scheduler:next:{queue}"


def pending_inboxes() -> str:
    """Sorted set of inboxes by when their drain last moved on, for the sweeper."""
    return f"{_NS}sweep:inboxes"


def metrics() -> str:
    """Hash of the counters every process adds to (`tgbot.ops.metrics`)."""
    return f"{_NS}metrics"


def running_games(game: str) -> str:
    """Set of the rooms where a game is being played (not a lobby, not over), per game."""
    return f"{_NS}running:{game}"
