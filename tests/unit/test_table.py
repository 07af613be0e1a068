"""The shared table: rooms stored before games were registered, choosing a lobby's game, and a
whole game of Guess What! run by the table (`engine.rules.apply` with `Room.play`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from engine.commands import (
    ChangeSettings,
    ChooseGame,
    Join,
    Leave,
    OpenLobby,
    StartGame,
    StopGame,
    Timeout,
)
from engine.errors import ErrorCode, RuleError
from engine.games.base import Games
from engine.games.guesswhat import commands as gw
from engine.games.guesswhat.model import Settings as GWSettings
from engine.games.guesswhat.model import State
from engine.games.hintrigue.model import Settings as HintrigueSettings
from engine.games.hintrigue.model import State as HintrigueState
from engine.games.hintrigue.model import own_seats
from engine.games.registry import GAMES, game_named
from engine.model import OVER_PHASES, Room, SeatStatus
from engine.model import Phase as TablePhase
from engine.store import stats
from tests.builders import next_move
from tests.guesswhat_builders import next_move as next_guesswhat
from tests.table import apply
from tgbot.games.registry import LINEUP
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look

DATA = Path(__file__).parent / "data"


def test_a_room_stored_before_games_were_registered_loads_and_its_game_goes_on() -> None:
    # Written by the version before the table hosted several games: a room mid-vote, and how
    # that game ended when played on with the same moves.
    stored = json.loads((DATA / "room_before_games.json").read_text())
    room = GAMES.parse_room(json.dumps(stored["room"]))
    assert room.game == "hintrigue" and isinstance(room.play, HintrigueState)
    assert room.game_settings == HintrigueSettings(**{
        k: v for k, v in stored["room"]["settings"].items() if k in HintrigueSettings.model_fields
    })  # upgraded on load: the game's own settings apart from the table's
    now = stored["now"]
    while room.phase not in OVER_PHASES:
        command, now = next_move(room, now)
        room, _ = apply(room, command, now)
    final = stored["final"]
    assert [s.score for s in room.seats] == final["scores"]
    assert [s.finds for s in own_seats(room)] == final["finds"]
    assert [s.stolen for s in own_seats(room)] == final["stolen"]
    assert (room.version, room.phase.value) == (final["version"], final["phase"])


def test_a_room_stored_without_its_games_name_is_given_it_as_it_loads_not_by_default() -> None:
    stored = json.loads((DATA / "room_before_games.json").read_text())["room"]
    assert "game" not in stored and GAMES.unnamed == "hintrigue"
    assert GAMES.parse_room(json.dumps(stored)).game == "hintrigue"
    assert GAMES.load_room(stored).game == "hintrigue"
    elsewhere = Games(*(game for game in GAMES.values() if game.name != "hintrigue"))
    assert elsewhere.unnamed is None
    with pytest.raises(ValidationError):
        elsewhere.parse_room(json.dumps(stored))  # a table without it does not guess
    with pytest.raises(ValidationError):
        Room(chat_id=-5, creator=1, rng=1)  # a new room always names its game
    with pytest.raises(ValueError, match="no game"):
        Games(*GAMES.values(), unnamed="chess")


def test_a_lobby_opened_without_a_game_named_is_of_the_tables_first() -> None:
    room, _ = apply(None, OpenLobby(chat_id=-5, user_id=1, name="P1", seed=11), 0.0)
    assert room.game == GAMES.default.name


def lobby(game: str = "guesswhat", players: int = 3, **extra: object) -> Room:
    room, _ = apply(
        None, OpenLobby(chat_id=-5, user_id=1, name="P1", seed=11, game=game, **extra), 0.0
    )
    for user in range(2, players + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), 0.0)
    return room


def own_command(command: object) -> object:
    """A Guess What! command as the table takes it: a timer names its phase by name."""
    if isinstance(command, gw.Timeout):
        return Timeout(round_no=command.round_no, phase=command.phase.value)
    return command


def play_out(room: Room, now: float = 0.0) -> tuple[Room, float]:
    while room.phase not in OVER_PHASES:
        assert isinstance(room.play, State)
        command, now = next_guesswhat(room.play, now)
        room, _ = apply(room, own_command(command), now)
    return room, now


def test_every_game_is_registered_once_under_its_name() -> None:
    assert list(GAMES) == ["hintrigue", "guesswhat", "huescues", "wunchunk", "hunch"]
    assert all(game_named(name).name == name for name in GAMES)
    with pytest.raises(RuleError) as refused:
        game_named("chess")
    assert refused.value.code is ErrorCode.UNKNOWN_GAME


def test_a_lobby_of_guess_what_keeps_its_own_settings_beside_the_tables() -> None:
    room = lobby(game_settings={"target": 9, "hand_size": 5, "clue_s": 1})
    assert room.game == "guesswhat"
    assert isinstance(room.game_settings, GWSettings)
    assert room.game_settings.target == 9  # remembered; the others unknown or out of bounds
    assert room.game_settings.clue_s == GWSettings().clue_s
    room, events = apply(
        room, ChangeSettings(user_id=1, changes={"target": 15, "timers": False}), 1
    )
    assert isinstance(room.game_settings, GWSettings) and room.game_settings.target == 15
    assert room.settings.timers is False
    assert events[0].kind == "settings_changed"
    with pytest.raises(RuleError) as refused:
        apply(room, ChangeSettings(user_id=1, changes={"hand_size": 5}), 1)
    assert refused.value.code is ErrorCode.BAD_SETTING
    with pytest.raises(RuleError) as refused:
        apply(room, ChangeSettings(user_id=1, changes={"target": 25}), 1)
    assert refused.value.code is ErrorCode.BAD_SETTING


def test_the_host_or_an_admin_chooses_the_lobbys_game() -> None:
    room = lobby(game="hintrigue")
    with pytest.raises(RuleError) as refused:
        apply(room, ChooseGame(user_id=2, game="guesswhat"), 1)
    assert refused.value.code is ErrorCode.NOT_ALLOWED
    with pytest.raises(RuleError) as refused:
        apply(room, ChooseGame(user_id=1, game="hintrigue"), 1)
    assert refused.value.code is ErrorCode.STALE
    room, events = apply(
        room, ChooseGame(user_id=2, is_admin=True, game="guesswhat", settings={"target": 7}), 1
    )
    assert [e.kind for e in events] == ["game_chosen"]
    assert room.game == "guesswhat" and [s.user_id for s in room.seats] == [1, 2, 3]
    assert isinstance(room.game_settings, GWSettings) and room.game_settings.target == 7
    room, _ = apply(room, ChooseGame(user_id=1, game="hintrigue"), 2)
    assert room.game == "hintrigue" and room.game_settings == HintrigueSettings()


def test_a_whole_game_of_guess_what_at_the_table_ends_with_its_standings_and_figures() -> None:
    room = lobby(players=4, game_settings={"target": 5})
    room, events = apply(room, StartGame(user_id=1), 1.0)
    assert room.phase is TablePhase.PLAYING and isinstance(room.play, State)
    assert [e.kind for e in events][:2] == ["game_started", "round_started"]
    assert room.play.host == 1 and room.play.settings.target == 5
    assert room.deadline == room.play.deadline
    stored = GAMES.parse_room(room.model_dump_json())  # the store's round trip
    assert stored == room and isinstance(stored.play, State)
    room, _ = play_out(stored, 1.0)
    state = room.play
    assert isinstance(state, State)
    assert room.phase is TablePhase.FINISHED and room.end_reason == state.end_reason == "target"
    assert [s.score for s in room.seats] == [s.score for s in state.seats]
    assert max(s.score for s in state.seats) >= 5
    ops = dict(stats.increments(room, GAMES["guesswhat"], 100.0))
    top = max(s.score for s in state.seats)
    per_user = {key: json.loads(op) for key, op in ops.items() if ":stats:user:" in key}
    assert len(per_user) == 4
    for seat in state.seats:
        op = next(v for k, v in per_user.items() if k.endswith(f":{seat.user_id}"))
        assert op["incr"] == {
            "guesswhat:games": 1,
            "guesswhat:wins": int(seat.score == top),
            "guesswhat:points": seat.score,
            "guesswhat:correct": seat.correct,
        }
        assert op["max"] == {"guesswhat:best": seat.best}
    assert GAMES["guesswhat"].figures == ("games", "wins", "points", "correct", "best")


def test_guess_what_at_the_table_takes_the_shared_commands() -> None:
    room = lobby(players=4)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    assert isinstance(room.play, State) and room.play.round is not None
    # A timer of another game's phase, or of another turn, is stale.
    with pytest.raises(RuleError) as refused:
        apply(room, Timeout(round_no=1, phase="hint"), 1000.0)
    assert refused.value.code is ErrorCode.STALE
    with pytest.raises(RuleError) as refused:
        apply(room, Timeout(round_no=1, phase="clue"), 2.0)
    assert refused.value.code is ErrorCode.TOO_EARLY
    # A late joiner sits at the table and in the game.
    room, events = apply(room, Join(user_id=9, name="P9"), 2.0)
    assert [e.kind for e in events] == ["player_joined"]
    assert (
        [s.user_id for s in room.seats] == [s.user_id for s in room.play.seats] == [1, 2, 3, 4, 9]
    )
    # Leaving is the game's rule; the table sees the seat's status.
    room, _ = apply(room, Leave(user_id=2), 3.0)
    assert room.seats[1].status is SeatStatus.LEFT and room.phase is TablePhase.PLAYING
    with pytest.raises(RuleError) as refused:
        apply(room, StartGame(user_id=1), 3.0)
    assert refused.value.code is ErrorCode.WRONG_PHASE
    with pytest.raises(RuleError) as refused:
        apply(room, StopGame(user_id=3), 3.0)
    assert refused.value.code is ErrorCode.NOT_ALLOWED
    room, events = apply(room, StopGame(user_id=1), 4.0)
    assert room.phase is TablePhase.ABANDONED and events[-1].kind == "game_abandoned"
    assert stats.increments(room, GAMES["guesswhat"], 4.0) == []


def test_guess_what_is_abandoned_at_the_table_below_three_active_seats() -> None:
    room = lobby(players=3)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    room, events = apply(room, Leave(user_id=3), 2.0)
    assert room.phase is TablePhase.ABANDONED and room.end_reason == "too_few_players"
    assert room.deadline is None
    with pytest.raises(RuleError) as refused:
        apply(room, Leave(user_id=1), 3.0)
    assert refused.value.code is ErrorCode.NO_GAME


@pytest.mark.parametrize(("game", "title"), [("guesswhat", "Guess What!"),
                                             ("huescues", "Hues and Cues")])  # fmt: skip
def test_a_closed_private_prompt_names_its_own_game(game: str, title: str) -> None:
    # Prompts of two games in one private chat must never mix: a prompt closed because its
    # player left, or because the game ended, names the game it belonged to.
    room = lobby(game=game, players=4)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    look = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=2.0)
    closed = []
    for user in (2, 3, 4, 1):
        room, events = apply(room, Leave(user_id=user), 2.0)
        mine = [m for m in outgoing_for(room, events, look) if m.chat_id == user]
        closed += [m.text for m in mine if "Round 1" in m.text]
        if room.phase in OVER_PHASES:
            break
    assert closed, "a prompt was closed"
    assert all(text.startswith(f"<b>{title} · Round 1</b>") for text in closed), closed
