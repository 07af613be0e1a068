"""The table's lobby and seats, for every game: opening, joining, leaving, settings, choosing
the game, starting."""

from __future__ import annotations

from pydantic import BaseModel

from engine import table
from engine.commands import (
    AddAI,
    AwaitJoin,
    ChangeSettings,
    ChooseGame,
    ChooseLanguage,
    ExtendLobby,
    Join,
    OpenLobby,
    RemoveAI,
    StartGame,
)
from engine.context import Ctx
from engine.errors import N_, ErrorCode, RuleError
from engine.events import (
    CreatorChanged,
    GameChosen,
    JoinerLeftOut,
    JoinerWaiting,
    LanguageChosen,
    LobbyClosed,
    LobbyExtended,
    LobbyOpened,
    PlayerJoined,
    PlayerLeftLobby,
    PrivateChatOpened,
    SettingsChanged,
)
from engine.games.base import Game, Games
from engine.model import (
    AI_NAMES,
    AI_USER_ID,
    Phase,
    Room,
    Seat,
    SeatStatus,
    Settings,
    Waiting,
)
from engine.settings import apply_changes, check_language

IDLE_LOBBY_S = 24 * 3600  # a lobby without a join timer closes after a day without a move
EXTEND_S = 60  # what /extend adds
LONGEST_LOBBY_S = 600  # extended, a lobby still starts at most this long after it opened
SHORTEST_WAIT_S = 30  # a join time changed late still leaves this long to join
SHARED_SETTINGS = frozenset({"max_seats", "timers", "join_s", "language", "pictures"})
"""The table's settings that every game plays with (a game with settings of its own takes
these from the table)."""


def open_room(command: OpenLobby, now: float, games: Games) -> Room:
    """Return a new lobby with its creator seated."""
    check_language(command.language)
    check_language(command.seat_language, optional=True)
    seat = Seat(
        user_id=command.user_id,
        name=command.name,
        username=command.username,
        private_ok=command.private_ok,
        language=command.seat_language,
    )
    game = games.default if command.game is None else games.named(command.game)
    room = Room(
        game=game.name,
        chat_id=command.chat_id,
        topic=command.topic,
        title=command.title,
        creator=command.user_id,
        settings=remembered(command.settings).model_copy(update={"language": command.language}),
        seats=[seat],
        rng=command.seed,
        opened_at=now,
        phase_at=now,
        timer_scale=command.timer_scale,
        game_id=game_id(command.seed),
        game_settings=remembered_own(game, command.game_settings),
    )
    room.deadline = join_deadline(room, now)
    return room


def remembered_own(game: Game, changes: dict[str, int | bool | str]) -> BaseModel | None:
    """A game's own default settings with the group's remembered ones applied where still
    valid (None for a game whose settings are the table's)."""
    if game.settings_model is None or game.change_settings is None:
        return None
    settings = game.settings_model()
    for name, value in changes.items():
        if name in game.setting_names:
            try:
                settings = game.change_settings(settings, {name: value})
            except RuleError:
                continue
    return settings


def join_deadline(room: Room, now: float) -> float:
    """When a lobby's join time runs out (counted from its opening, never sooner than a short
    wait from now), or, without a join timer, when it closes unless something happens."""
    scale = room.timer_scale
    if not room.settings.join_s:
        return now + IDLE_LOBBY_S * scale
    return max(room.opened_at + room.settings.join_s * scale, now + SHORTEST_WAIT_S * scale)


def extend(ctx: Ctx, command: ExtendLobby) -> None:
    """A seated player gives the lobby a minute more, up to its longest wait."""
    room = ctx.room
    ctx.seat_for(command.user_id)
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    if not room.settings.join_s or room.deadline is None:
        raise RuleError(ErrorCode.NO_JOIN_TIMER)
    scale = room.timer_scale
    longest = room.opened_at + LONGEST_LOBBY_S * scale
    later = min(room.deadline + EXTEND_S * scale, longest)
    if later <= room.deadline:  # the longest wait, as the room's timers run it
        raise RuleError(ErrorCode.LOBBY_LONGEST, seconds=round(LONGEST_LOBBY_S * scale))
    room.deadline = later
    ctx.emit(LobbyExtended(deadline=later))


def time_up(ctx: Ctx) -> None:
    """The lobby's time ran out: it starts with whoever can be dealt cards, if enough; else,
    or after a day without a move when it has no join timer, it closes."""
    room = ctx.room
    if not room.settings.join_s:
        close_lobby(ctx, "idle")
        return
    dropped = [room.seats[i].name for i in unreachable_seats(room)]
    for index in reversed(unreachable_seats(room)):
        leave_lobby(ctx, index)  # cannot be dealt cards: they would stall the game
    if room.phase is not Phase.LOBBY:
        return  # nobody was left
    if len(room.seats) < ctx.game.min_seats:
        close_lobby(ctx, "too_few")
        return
    begin(ctx, dropped)


def close_lobby(ctx: Ctx, reason: str | None = None) -> None:
    """Close the lobby: no game comes of it."""
    ctx.room.phase = Phase.CLOSED
    ctx.room.deadline = None
    ctx.room.end_reason = reason
    ctx.room.waiting = []
    ctx.emit(LobbyClosed(reason=reason))


def remembered(changes: dict[str, int | bool | str]) -> Settings:
    """Default settings with a group's remembered ones applied, each where still valid (the
    bounds may have changed since)."""
    try:
        return apply_changes(Settings(), changes)
    except RuleError:
        settings = Settings()
    for name, value in changes.items():
        try:
            settings = apply_changes(settings, {name: value})
        except RuleError:
            continue
    return settings


def game_id(seed: int) -> int:
    """A game's id, drawn from its seed: 30 bits, never 0 (the id of rooms without one)."""
    return (seed >> 34) % (1 << 30) or 1


def lobby_opened() -> LobbyOpened:
    """The event of a freshly opened lobby."""
    return LobbyOpened(seat=0)


def require_manager(ctx: Ctx, user_id: int, is_admin: bool) -> None:
    """Only the lobby's creator or a group admin may manage the room."""
    table.require_manager(ctx.room.creator, user_id, is_admin)


def seats_cap(ctx: Ctx) -> int:
    """The most seats the room's game may have: the seats setting, within the game's bounds."""
    return min(ctx.room.settings.max_seats, ctx.game.max_seats)


def join(ctx: Ctx, command: Join) -> None:
    """Seat a player in the lobby, or late in a running game until its last turn starts."""
    room = ctx.room
    existing = room.seat_of(command.user_id)
    if existing is not None:
        left = room.seats[existing].status is SeatStatus.LEFT
        raise RuleError(ErrorCode.HAS_LEFT if left else ErrorCode.ALREADY_JOINED)
    if len(room.present_seats()) >= seats_cap(ctx):
        raise RuleError(ErrorCode.ROOM_FULL)
    late = room.phase is not Phase.LOBBY
    check_language(command.language, optional=True)
    room.seats.append(
        Seat(
            user_id=command.user_id,
            name=command.name,
            username=command.username,
            private_ok=command.private_ok,
            language=command.language,
        )
    )
    index = len(room.seats) - 1
    waiting = room.waiting_for(command.user_id)
    if waiting is not None:
        del room.waiting[waiting]  # seated now
    if late:
        ctx.game.join_late(ctx, index)
    ctx.emit(PlayerJoined(seat=index, late=late))


def await_join(ctx: Ctx, command: AwaitJoin) -> None:
    """List a player who pressed Join but must first open a private chat with the bot as
    waiting (not seated: the lobby starts without them unless they open it in time)."""
    room = ctx.room
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    existing = room.seat_of(command.user_id)
    if existing is not None:
        raise RuleError(ErrorCode.ALREADY_JOINED)
    if room.waiting_for(command.user_id) is not None:
        raise RuleError(ErrorCode.STALE, "this player is waiting already")
    if len(room.present_seats()) >= seats_cap(ctx) or (
        len(room.waiting) >= seats_cap(ctx)  # the list stays short
    ):
        raise RuleError(ErrorCode.ROOM_FULL)
    room.waiting.append(
        Waiting(user_id=command.user_id, name=command.name, username=command.username)
    )
    ctx.emit(JoinerWaiting(user_id=command.user_id))


def stop_waiting(ctx: Ctx, index: int) -> None:
    """A player waiting to be seated left the lobby before opening the private chat."""
    waiting = ctx.room.waiting.pop(index)
    ctx.emit(PlayerLeftLobby(user_id=waiting.user_id, name=waiting.name))


def opened_private_chat(ctx: Ctx, index: int) -> None:
    """Note that a seated player can now get private messages."""
    seat = ctx.seat(index)
    if seat.private_ok:
        raise RuleError(ErrorCode.STALE, "the bot can write to this player already")
    seat.private_ok = True
    ctx.emit(PrivateChatOpened(seat=index))


def choose_language(ctx: Ctx, command: ChooseLanguage) -> None:
    """A seated player's private messages speak their chosen language from now on."""
    check_language(command.language, optional=True)
    index = ctx.seat_for(command.user_id)
    seat = ctx.seat(index)
    if seat.language == command.language:
        raise RuleError(ErrorCode.STALE, "that language is chosen already")
    seat.language = command.language
    ctx.emit(LanguageChosen(seat=index))


def unreachable_seats(room: Room) -> list[int]:
    """Seats the bot cannot write to in private yet (they never opened a chat with it)."""
    return [i for i in room.present_seats() if not room.seats[i].private_ok]


def leave_lobby(ctx: Ctx, index: int) -> None:
    """Free a lobby seat; the earliest remaining person takes over; a lobby with nobody but
    AI players left closes."""
    room = ctx.room
    seat = room.seats.pop(index)
    ctx.emit(PlayerLeftLobby(user_id=seat.user_id, name=seat.name))
    humans = [s for s in room.seats if not s.ai]
    if not humans:
        if not seat.ai:
            close_lobby(ctx)
    elif seat.user_id == room.creator:
        room.creator = humans[0].user_id
        ctx.emit(CreatorChanged(user_id=room.creator))


def add_ai(ctx: Ctx, command: AddAI) -> None:
    """Seat one more AI player (creator or admin), while a seat is free."""
    require_manager(ctx, command.user_id, command.is_admin)
    if ctx.room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    seat_ai(ctx)


def remove_ai(ctx: Ctx, command: RemoveAI) -> None:
    """Free the last AI seat (creator or admin)."""
    require_manager(ctx, command.user_id, command.is_admin)
    if ctx.room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    unseat_ai(ctx)


def seat_ai(ctx: Ctx) -> None:
    """Seat an AI player named after the first name no seat of the room has taken."""
    room = ctx.room
    if len(room.present_seats()) >= seats_cap(ctx):
        raise RuleError(ErrorCode.ROOM_FULL)
    taken = {s.user_id for s in room.seats}
    k = next(k for k in range(len(room.seats) + 1) if AI_USER_ID - k not in taken)
    names = {s.name for s in room.seats}
    name = next(
        (f"🤖 {n}" for n in AI_NAMES if f"🤖 {n}" not in names),
        f"🤖 {AI_NAMES[k % len(AI_NAMES)]} {k + 1}",
    )
    room.seats.append(Seat(user_id=AI_USER_ID - k, name=name, ai=True))
    ctx.emit(PlayerJoined(seat=len(room.seats) - 1, late=False))


def unseat_ai(ctx: Ctx) -> None:
    """Free the last AI seat of the lobby."""
    seats = ctx.room.ai_seats()
    if not seats:
        raise RuleError(ErrorCode.STALE, "no AI player is seated")
    leave_lobby(ctx, seats[-1])


def set_ai_count(ctx: Ctx, count: int) -> None:
    """Seat or free AI players until the lobby has `count` of them."""
    room = ctx.room
    free = seats_cap(ctx) - len(room.present_seats()) + len(room.ai_seats())
    if count < 0 or count > free:
        why = N_("{setting} must be {low}–{high}")
        raise RuleError(ErrorCode.BAD_SETTING, why, setting="ai", low=0, high=free)
    while len(room.ai_seats()) < count:
        seat_ai(ctx)
    while len(room.ai_seats()) > count:
        unseat_ai(ctx)


def change_settings(ctx: Ctx, command: ChangeSettings) -> None:
    """Change lobby settings within their bounds."""
    require_manager(ctx, command.user_id, command.is_admin)
    room = ctx.room
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    game = ctx.game
    ai = command.changes.get("ai")
    own = {k: v for k, v in command.changes.items() if k in game.setting_names}
    shared = {k: v for k, v in command.changes.items() if k not in own and k != "ai"}
    if own and game.change_settings is not None and room.game_settings is not None:
        room.game_settings = game.change_settings(room.game_settings, own)
    if shared:
        if game.settings_model is not None:
            unknown = sorted(set(shared) - SHARED_SETTINGS)
            if unknown:
                why = N_("unknown setting {name}")
                raise RuleError(ErrorCode.BAD_SETTING, why, name=unknown[0])
        room.settings = apply_changes(room.settings, shared)
    if game.check_settings is not None:
        game.check_settings(room)
    if ai is not None:
        if isinstance(ai, bool) or not isinstance(ai, int):
            raise RuleError(ErrorCode.BAD_SETTING, N_("unknown setting {name}"), name="ai")
        set_ai_count(ctx, ai)
    if "join_s" in command.changes:
        ctx.room.deadline = join_deadline(ctx.room, ctx.now)
    ctx.emit(SettingsChanged(changes=command.changes))


def choose_game(ctx: Ctx, command: ChooseGame) -> None:
    """Make the lobby one of another game, with the group's remembered settings of it."""
    require_manager(ctx, command.user_id, command.is_admin)
    room = ctx.room
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    game = ctx.games.named(command.game)
    if game.name == room.game:
        raise RuleError(ErrorCode.STALE, "that game is chosen already")
    if len(room.seats) > game.max_seats:
        raise RuleError(ErrorCode.TOO_MANY_FOR_GAME, str(game.max_seats))
    room.game = game.name
    room.game_settings = remembered_own(game, command.settings)
    if len(room.seats) > room.settings.max_seats:
        room.settings = room.settings.model_copy(update={"max_seats": len(room.seats)})
    ctx.emit(GameChosen(game=game.name))


def start_game(ctx: Ctx, command: StartGame) -> None:
    """Seat the lobby's players in its game and start the first round."""
    room = ctx.room
    require_manager(ctx, command.user_id, command.is_admin)
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    if len(room.seats) < ctx.game.min_seats:
        raise RuleError(ErrorCode.NOT_ENOUGH_PLAYERS, str(ctx.game.min_seats))
    missing = unreachable_seats(room)
    if missing:
        raise RuleError(
            ErrorCode.PRIVATE_CHAT_MISSING, ", ".join(room.seats[i].name for i in missing)
        )
    begin(ctx)


def begin(ctx: Ctx, dropped: list[str] | None = None) -> None:
    """The lobby's game starts with its seated players; the group is told who was left out
    for never opening a private chat with the bot (`dropped`: seats the join timer freed)."""
    room = ctx.room
    left_out = [*(dropped or []), *(w.name for w in room.waiting)]
    room.waiting = []
    if left_out:
        ctx.emit(JoinerLeftOut(names=left_out))
    ctx.game.start(ctx)
