"""Guess What!'s registration at the table (SPEC 11.2).

The table seats the players, keeps the lobby and the settings every game shares (seats,
timers); this module hands its seats and commands to the pure rules (`rules.start`,
`rules.apply`), keeps the game's own settings in `Room.game_settings` and its state in
`Room.play`, and mirrors onto the room what the table reads: the phase, the deadline, the
seats' status and totals.
"""

from __future__ import annotations

from typing import Any

from engine import commands as shared
from engine.context import Ctx
from engine.errors import ErrorCode, RuleError
from engine.games.base import Game
from engine.games.guesswhat import commands as own
from engine.games.guesswhat.events import Event
from engine.games.guesswhat.model import Phase as OwnPhase
from engine.games.guesswhat.model import Settings, State
from engine.games.guesswhat.rules import apply, ending
from engine.games.guesswhat.rules import start as start_game
from engine.games.guesswhat.settings import apply_changes
from engine.games.guesswhat.turns import winners as own_winners
from engine.model import Phase, Room

NAME = "guesswhat"
OWN_SETTINGS = frozenset({"rotations", "target", "connoisseurs", "clue_s", "guess_s", "reveal_s"})
"""The game's own settings; the table's shared ones (max_seats, timers) are copied in at the
start."""
_OVER = {OwnPhase.FINISHED: Phase.FINISHED, OwnPhase.ABANDONED: Phase.ABANDONED}


def settings_of(room: Room) -> Settings:
    """The settings a game in this room plays (or will play) with."""
    own_settings = room.game_settings if isinstance(room.game_settings, Settings) else Settings()
    return own_settings.model_copy(
        update={"max_seats": room.settings.max_seats, "timers": room.settings.timers}
    )


def state_of(room: Room) -> State:
    """The running (or ended) game's state."""
    if not isinstance(room.play, State):
        raise RuleError(ErrorCode.WRONG_PHASE, "no game of Guess What! here")
    return room.play


def start(ctx: Ctx) -> None:
    """The lobby's seats, in order, start a game; its host is the lobby's creator."""
    room = ctx.room
    players = [(seat.user_id, seat.name) for seat in room.seats]
    state, events = start_game(
        players,
        settings_of(room),
        seed=ctx.rng.next64(),
        now=ctx.now,
        host=room.creator,
        timer_scale=room.timer_scale,
    )
    _mirror(ctx, state, events)


def act(ctx: Ctx, command: Any) -> None:
    """Apply one command, the game's own or a shared one, to the running game."""
    state, events = apply(state_of(ctx.room), _own(command), ctx.now, owned=True)
    if isinstance(command, shared.TopicGone):
        state.end_reason = "topic_gone"  # stopped, as by an admin: its topic is gone
    _mirror(ctx, state, events)


def join_late(ctx: Ctx, index: int) -> None:
    """The table seated a player late: the game seats it too (it plays from the next turn)."""
    seat = ctx.room.seats[index]
    state, _ = apply(
        state_of(ctx.room), own.Join(user_id=seat.user_id, name=seat.name), ctx.now, owned=True
    )
    _mirror(ctx, state, [])  # the table says who joined


def joinable(room: Room) -> bool:
    """Whether a player may still join: until the last turn starts (and not during the
    reveal of the turn that reached the target)."""
    state = room.play
    return (
        isinstance(state, State)
        and state.round is not None
        and not (state.round.last or ending(state))
    )


def timer(room: Room) -> tuple[int, str] | None:
    """The turn and phase the game's current deadline is set for."""
    state = room.play
    if not isinstance(state, State) or state.round is None:
        return None
    return state.round.no, state.phase.value


def seat_figures(room: Room, index: int) -> dict[str, int]:
    """A seat's points, correct guesses and best turn of a finished game."""
    seat = state_of(room).seats[index]
    return {"points": seat.score, "correct": seat.correct, "best": seat.best}


def winners(room: Room) -> list[int]:
    """The seats with the top total (co-winners), none of them left."""
    return own_winners(state_of(room))


def change_settings(settings: Any, changes: dict[str, int | bool | str]) -> Settings:
    """The game's own settings with checked changes."""
    return apply_changes(settings if isinstance(settings, Settings) else Settings(), changes)


def _own(command: Any) -> Any:
    """The game's command for a shared one (the game's own pass as they are)."""
    if isinstance(command, own.PickIcon | own.Redraw | own.GiveClue | own.GuessIcon):
        return command
    if isinstance(command, own.ConfirmGuess):
        return command
    if isinstance(command, shared.GiveHint):
        return own.GiveClue(user_id=command.user_id, text=command.text)  # typed in private
    if isinstance(command, shared.Leave):
        return own.Leave(user_id=command.user_id)
    if isinstance(command, shared.ComeBack):
        return own.ComeBack(user_id=command.user_id)
    if isinstance(command, shared.Skip):
        return own.Skip(user_id=command.user_id, is_admin=command.is_admin, grace=command.grace)
    if isinstance(command, shared.StopGame):
        return own.StopGame(user_id=command.user_id, is_admin=command.is_admin)
    if isinstance(command, shared.TopicGone):
        return own.StopGame(user_id=0, is_admin=True)
    if isinstance(command, shared.Timeout | shared.MarkUnreachable):
        try:
            phase = OwnPhase(command.phase)
        except ValueError:
            raise RuleError(ErrorCode.STALE, "a timer of another game") from None
        if isinstance(command, shared.Timeout):
            return own.Timeout(round_no=command.round_no, phase=phase)
        return own.MarkUnreachable(user_id=command.user_id, round_no=command.round_no, phase=phase)
    raise RuleError(ErrorCode.WRONG_PHASE, type(command).__name__)


def _mirror(ctx: Ctx, state: State, events: list[Event]) -> None:
    """Keep the game's state in the room and show the table what it reads."""
    room = ctx.room
    room.play = state
    room.deadline = state.deadline
    room.phase = _OVER.get(state.phase, Phase.PLAYING)
    room.end_reason = state.end_reason
    for seat, own_seat in zip(room.seats, state.seats, strict=True):
        seat.status = own_seat.status
        seat.score = own_seat.score
    ctx.events.extend(events)  # type: ignore[arg-type]


GAME = Game(
    name=NAME,
    title="Guess What!",
    start=start,
    act=act,
    join_late=join_late,
    joinable=joinable,
    timer=timer,
    figures=("games", "wins", "points", "correct", "best"),
    seat_figures=seat_figures,
    winners=winners,
    settings_model=Settings,
    state_model=State,
    setting_names=OWN_SETTINGS,
    change_settings=change_settings,
    setting_aliases={
        "target": "target",
        "connoisseurs": "connoisseurs",
        "clue": "clue_s",
        "clue_s": "clue_s",
        "guess": "guess_s",
        "guess_s": "guess_s",
    },
    switches=frozenset({"connoisseurs"}),
)
