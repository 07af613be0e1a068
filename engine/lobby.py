"""The lobby and the seats: opening, joining, leaving, settings, starting."""

from __future__ import annotations

from engine.commands import ChangeSettings, ChooseLanguage, ExtendLobby, Join, OpenLobby, StartGame
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.events import (
    CreatorChanged,
    GameStarted,
    LanguageChosen,
    LobbyClosed,
    LobbyExtended,
    LobbyOpened,
    PlayerJoined,
    PlayerLeftLobby,
    PrivateChatOpened,
    SeatLeft,
    SettingsChanged,
)
from engine.model import MIN_SEATS, Phase, Room, Seat, SeatStatus, Settings
from engine.play import (
    close_voting_if_complete,
    decoy_seats,
    open_voting,
    void_round,
)
from engine.settings import apply_changes, check_deck, check_language
from engine.turns import abandon_if_too_few, deal, pass_turn, refill, start_round

IDLE_LOBBY_S = 24 * 3600  # a lobby without a join timer closes after a day without a move
EXTEND_S = 60  # what /extend adds
LONGEST_LOBBY_S = 600  # extended, a lobby still starts at most this long after it opened
SHORTEST_WAIT_S = 30  # a join time changed late still leaves this long to join


def open_room(command: OpenLobby, now: float) -> Room:
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
    room = Room(
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
    )
    room.deadline = join_deadline(room, now)
    return room


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
    if later <= room.deadline:
        raise RuleError(ErrorCode.LOBBY_LONGEST)
    room.deadline = later
    ctx.emit(LobbyExtended(deadline=later))


def time_up(ctx: Ctx) -> None:
    """The lobby's time ran out: it starts with whoever can be dealt cards, if enough; else,
    or after a day without a move when it has no join timer, it closes."""
    room = ctx.room
    if not room.settings.join_s:
        close_lobby(ctx, "idle")
        return
    for index in reversed(unreachable_seats(room)):
        leave_lobby(ctx, index)  # cannot be dealt cards: they would stall the game
    if room.phase is not Phase.LOBBY:
        return  # nobody was left
    if len(room.seats) < MIN_SEATS:
        close_lobby(ctx, "too_few")
        return
    begin(ctx)


def close_lobby(ctx: Ctx, reason: str | None = None) -> None:
    """Close the lobby: no game comes of it."""
    ctx.room.phase = Phase.CLOSED
    ctx.room.deadline = None
    ctx.room.end_reason = reason
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
    if user_id != ctx.room.creator and not is_admin:
        raise RuleError(ErrorCode.NOT_ALLOWED)


def join(ctx: Ctx, command: Join) -> None:
    """Seat a player in the lobby, or late in a running game until its last turn starts."""
    room = ctx.room
    existing = room.seat_of(command.user_id)
    if existing is not None:
        left = room.seats[existing].status is SeatStatus.LEFT
        raise RuleError(ErrorCode.HAS_LEFT if left else ErrorCode.ALREADY_JOINED)
    if len(room.present_seats()) >= room.settings.max_seats:
        raise RuleError(ErrorCode.ROOM_FULL)
    late = room.phase is not Phase.LOBBY
    if late and (room.round is None or room.round.last):
        raise RuleError(ErrorCode.TOO_LATE_TO_JOIN)
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
    if late:
        refill(ctx, index)
    ctx.emit(PlayerJoined(seat=index, late=late))


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
    """Free a lobby seat; the earliest remaining player takes over; an empty lobby closes."""
    room = ctx.room
    seat = room.seats.pop(index)
    ctx.emit(PlayerLeftLobby(user_id=seat.user_id, name=seat.name))
    if not room.seats:
        close_lobby(ctx)
    elif seat.user_id == room.creator:
        room.creator = room.seats[0].user_id
        ctx.emit(CreatorChanged(user_id=room.creator))


def leave_game(ctx: Ctx, index: int) -> None:
    """A seat leaves a running game for good; its hand goes to the discard pile."""
    room = ctx.room
    seat = room.seats[index]
    rnd = room.round
    prompt = rnd.no if rnd is not None and index in room.open_prompts() else None
    seat.status = SeatStatus.LEFT
    room.discard.extend(seat.hand)
    seat.hand = []
    ctx.emit(SeatLeft(seat=index, prompt_round=prompt))
    if abandon_if_too_few(ctx):
        return
    if rnd is None or room.phase is Phase.REVEAL:
        return
    if index == rnd.storyteller and room.phase in (Phase.HINT, Phase.DECOYS):
        void_round(ctx, "storyteller_left")
        pass_turn(ctx)
    elif room.phase is Phase.DECOYS and all(i in rnd.plays for i in decoy_seats(ctx)):
        open_voting(ctx)
    elif room.phase is Phase.VOTING:
        rnd.votes.pop(index, None)
        close_voting_if_complete(ctx)


def change_settings(ctx: Ctx, command: ChangeSettings) -> None:
    """Change lobby settings within their bounds."""
    require_manager(ctx, command.user_id, command.is_admin)
    if ctx.room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    ctx.room.settings = apply_changes(ctx.room.settings, command.changes)
    if "join_s" in command.changes:
        ctx.room.deadline = join_deadline(ctx.room, ctx.now)
    ctx.emit(SettingsChanged(changes=command.changes))


def start_game(ctx: Ctx, command: StartGame) -> None:
    """Deal, pick the first storyteller at random and start the first round."""
    room = ctx.room
    require_manager(ctx, command.user_id, command.is_admin)
    if room.phase is not Phase.LOBBY:
        raise RuleError(ErrorCode.WRONG_PHASE)
    if len(room.seats) < MIN_SEATS:
        raise RuleError(ErrorCode.NOT_ENOUGH_PLAYERS, f"{len(room.seats)} < {MIN_SEATS}")
    missing = unreachable_seats(room)
    if missing:
        raise RuleError(
            ErrorCode.PRIVATE_CHAT_MISSING, ", ".join(room.seats[i].name for i in missing)
        )
    begin(ctx)


def begin(ctx: Ctx) -> None:
    """Deal, pick the first storyteller at random and start the first round."""
    room = ctx.room
    check_deck(room.settings)
    deal(ctx)
    room.first_storyteller = ctx.rng.below(len(room.seats))
    room.rotations_done = 0
    ctx.emit(GameStarted(first_storyteller=room.first_storyteller))
    start_round(ctx, room.first_storyteller)
