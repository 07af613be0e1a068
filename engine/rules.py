"""The engine's one entry point: state + command + now → new state + events, or a RuleError."""

from __future__ import annotations

from engine import play
from engine.commands import (
    ChangeSettings,
    ChooseCard,
    ChooseLanguage,
    ComeBack,
    Command,
    ExtendLobby,
    GiveHint,
    Join,
    Leave,
    MarkUnreachable,
    OpenedPrivateChat,
    OpenLobby,
    PlayDecoy,
    Skip,
    StartGame,
    StopGame,
    Timeout,
    TopicGone,
    Vote,
)
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.events import Event, SeatReturned
from engine.lobby import (
    change_settings,
    choose_language,
    close_lobby,
    extend,
    join,
    join_deadline,
    leave_game,
    leave_lobby,
    lobby_opened,
    open_room,
    opened_private_chat,
    require_manager,
    start_game,
    time_up,
)
from engine.model import OVER_PHASES, RUNNING_PHASES, Phase, Room, SeatStatus
from engine.rng import Rng
from engine.turns import abandon

_ROUND_ACTIONS = (ChooseCard, GiveHint, PlayDecoy, Vote, ComeBack)


def apply(
    room: Room | None, command: Command, now: float, *, owned: bool = False
) -> tuple[Room, list[Event]]:
    """Apply one command to a room at time `now` (UTC seconds).

    `room` itself is never changed, unless the caller owns it (`owned=True`: a room freshly
    parsed for this one command, thrown away if the command is refused), which spares a copy.

    Raises:
        RuleError: the rules refuse the command; nothing changed.
    """
    if isinstance(command, OpenLobby):
        if room is not None and room.phase not in OVER_PHASES:
            raise RuleError(ErrorCode.GAME_EXISTS)
        new = open_room(command, now)
        if room is not None:
            new.version = room.version + 1
        return new, [lobby_opened()]
    if room is None or room.phase in OVER_PHASES:
        raise RuleError(ErrorCode.NO_GAME)
    ctx = Ctx(room=room if owned else room.clone(), now=now, rng=Rng(room.rng))
    before = _moment(room)
    _dispatch(ctx, command)
    if _moment(ctx.room) != before:
        ctx.room.phase_at = now
    if ctx.room.phase is Phase.LOBBY and not ctx.room.settings.join_s:
        ctx.room.deadline = join_deadline(ctx.room, now)  # an idle lobby's day starts anew
    ctx.room.rng = ctx.rng.state
    ctx.room.version += 1
    return ctx.room, ctx.events


def _moment(room: Room) -> tuple[Phase, int | None]:
    return room.phase, room.round.no if room.round is not None else None


def _dispatch(ctx: Ctx, command: Command) -> None:
    if isinstance(command, Timeout | MarkUnreachable):
        _system(ctx, command)
        return
    if isinstance(command, TopicGone):
        if ctx.room.phase is Phase.LOBBY:
            close_lobby(ctx, "topic_gone")
        else:
            abandon(ctx, "topic_gone")
        return
    game = getattr(command, "game_id", None)
    if game is not None and ctx.room.game_id and game != ctx.room.game_id:
        raise RuleError(ErrorCode.OTHER_GAME, "a button of an earlier game")
    if isinstance(command, Join):
        join(ctx, command)
        return
    assert not isinstance(command, OpenLobby)
    if isinstance(command, Leave):
        _leave(ctx, ctx.seat_for(command.user_id))
        return
    if isinstance(command, OpenedPrivateChat):
        opened_private_chat(ctx, ctx.seat_for(command.user_id))
        return
    if isinstance(command, ChooseLanguage):
        choose_language(ctx, command)
        return
    if isinstance(command, ExtendLobby):
        extend(ctx, command)
        return
    if isinstance(command, _ROUND_ACTIONS):
        seated = ctx.room.seat_of(command.user_id)
        if seated is not None and ctx.seat(seated).status is SeatStatus.LEFT:
            raise RuleError(ErrorCode.HAS_LEFT)  # a left seat never plays again
    if _came_back(ctx, command) and isinstance(command, _ROUND_ACTIONS):
        return
    _player(ctx, command)


def _came_back(ctx: Ctx, command: Command) -> bool:
    """A spectating seat that acts in the game (other than leaving) plays from the next round."""
    index = ctx.room.seat_of(getattr(command, "user_id", 0))
    if index is None or ctx.seat(index).status is not SeatStatus.SPECTATING:
        if isinstance(command, ComeBack):
            ctx.seat_for(command.user_id)
            raise RuleError(ErrorCode.NOT_SPECTATING)
        return False
    seat = ctx.seat(index)
    seat.status = SeatStatus.PLAYING
    seat.missed_hints = 0
    ctx.emit(SeatReturned(seat=index))
    return True


def _player(ctx: Ctx, command: Command) -> None:
    if isinstance(command, ChangeSettings):
        change_settings(ctx, command)
    elif isinstance(command, StartGame):
        start_game(ctx, command)
    elif isinstance(command, StopGame):
        _stop(ctx, command)
    elif isinstance(command, Skip):
        require_manager(ctx, command.user_id, command.is_admin)
        _require_running(ctx)
        if ctx.now - ctx.room.phase_at < command.grace:
            # Likely meant for the phase before (two managers skipping at once).
            raise RuleError(ErrorCode.JUST_STARTED)
        if ctx.room.round is not None and ctx.room.phase in (Phase.DECOYS, Phase.VOTING):
            ctx.room.round.skipped.append(ctx.room.phase)
        play.time_out(ctx, reason="skipped")
    else:
        _round_action(ctx, command)


def _round_action(ctx: Ctx, command: Command) -> None:
    _require_running(ctx)
    index = ctx.seat_for(getattr(command, "user_id", 0))
    expected = getattr(command, "round_no", None)
    if expected is not None and ctx.room.round is not None and expected != ctx.room.round.no:
        raise RuleError(ErrorCode.STALE, "a button of another round")
    if isinstance(command, ChooseCard):
        play.choose_card(ctx, index, command.card)
    elif isinstance(command, GiveHint):
        play.give_hint(ctx, index, command.text)
    elif isinstance(command, PlayDecoy):
        play.play_decoy(ctx, index, command.card)
    elif isinstance(command, Vote):
        play.vote(ctx, index, command.card)
    else:
        raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def _require_running(ctx: Ctx) -> None:
    if ctx.room.phase not in RUNNING_PHASES:
        raise RuleError(ErrorCode.WRONG_PHASE, f"now {ctx.room.phase.value}")


def _leave(ctx: Ctx, index: int) -> None:
    if ctx.room.phase is Phase.LOBBY:
        leave_lobby(ctx, index)
    elif ctx.seat(index).status is SeatStatus.LEFT:
        raise RuleError(ErrorCode.HAS_LEFT)
    else:
        leave_game(ctx, index)


def _stop(ctx: Ctx, command: StopGame) -> None:
    require_manager(ctx, command.user_id, command.is_admin)
    if ctx.room.phase is Phase.LOBBY:
        close_lobby(ctx)
    else:
        abandon(ctx, "stopped")


def _system(ctx: Ctx, command: Timeout | MarkUnreachable) -> None:
    """Timers and delivery failures name the round and phase they were meant for."""
    room = ctx.room
    if isinstance(command, Timeout) and command.phase is Phase.LOBBY:
        if room.phase is not Phase.LOBBY or room.deadline is None:
            raise RuleError(ErrorCode.STALE, "the lobby is over")
        if ctx.now < room.deadline:
            raise RuleError(ErrorCode.TOO_EARLY, f"{room.deadline - ctx.now:.3f}s early")
        time_up(ctx)
        return
    if room.round is None or room.round.no != command.round_no or room.phase is not command.phase:
        raise RuleError(ErrorCode.STALE, "the room has moved on")
    if isinstance(command, MarkUnreachable):
        play.unreachable(ctx, ctx.seat_for(command.user_id))
        return
    if room.deadline is None:
        raise RuleError(ErrorCode.STALE, "no timer runs in this phase")
    if ctx.now < room.deadline:
        raise RuleError(ErrorCode.TOO_EARLY, f"{room.deadline - ctx.now:.3f}s early")
    play.time_out(ctx)
