"""Engine benchmark: full games, serialising and parsing the state after every command.

The loop does what the store does: parse the room, apply one command to it, save it.

Prints `name=value` lines. Run: .venv/bin/python bench/engine.py [games]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.commands import (
    Join,
    OpenLobby,
    StartGame,
    Timeout,
)
from engine.games import guesswhat
from engine.games.guesswhat.commands import Timeout as GWTimeout
from engine.games.guesswhat.model import OVER_PHASES as GW_OVER
from engine.games.guesswhat.model import Phase as GWPhase
from engine.games.guesswhat.model import Settings as GWSettings
from engine.games.guesswhat.model import State as GWState
from engine.games.hintrigue.model import Phase, phase_of
from engine.games.huescues import apply as hc_apply
from engine.games.huescues import start as hc_start
from engine.games.huescues.commands import Timeout as HCTimeout
from engine.games.huescues.model import GUESS_PHASES as HC_GUESSING
from engine.games.huescues.model import OVER_PHASES as HC_OVER
from engine.games.huescues.model import Settings as HCSettings
from engine.games.huescues.model import State as HCState
from engine.games.hunch.model import OVER_PHASES as HU_OVER
from engine.games.hunch.model import Settings as HUSettings
from engine.games.hunch.model import State as HUState
from engine.games.hunch.rules import apply as hu_apply
from engine.games.hunch.rules import start as hu_start
from engine.games.registry import GAMES
from engine.games.wunchunk import apply as wc_apply
from engine.games.wunchunk import board as wc_board
from engine.games.wunchunk import start as wc_start
from engine.games.wunchunk.commands import EndTurn as WCEndTurn
from engine.games.wunchunk.commands import PlaceStone as WCPlaceStone
from engine.games.wunchunk.commands import Timeout as WCTimeout
from engine.games.wunchunk.model import OVER_PHASES as WC_OVER
from engine.games.wunchunk.model import Phase as WCPhase
from engine.games.wunchunk.model import Settings as WCSettings
from engine.games.wunchunk.model import State as WCState
from engine.model import OVER_PHASES
from engine.rules import apply as apply_at
from tests.builders import next_move as next_command  # noqa: E402
from tests.guesswhat_builders import next_move as next_guesswhat  # noqa: E402
from tests.huescues_builders import next_move as next_huescues  # noqa: E402
from tests.hunch_builders import next_move as next_hunch  # noqa: E402

apply = partial(apply_at, games=GAMES)  # the rules at the bot's table


def play_game(seed: int, seats: int) -> tuple[int, int]:
    """Play one game; return (commands applied, bytes of the state mid-round at its largest)."""
    now = 0.0
    room, _ = apply(None, OpenLobby(chat_id=-1, user_id=1, name="P1", seed=seed), now)
    commands = [Join(user_id=u, name=f"P{u}") for u in range(2, seats + 1)]
    commands.append(StartGame(user_id=1))
    applied, largest = 0, 0
    while room.phase not in OVER_PHASES:
        if commands:
            command = commands.pop(0)
        else:
            command, now = next_command(room, now)
        room, _ = apply(room, command, now, owned=True)
        text = room.model_dump_json()
        room = GAMES.parse_room(text)
        applied += 1
        if phase_of(room) is Phase.VOTING:
            largest = max(largest, len(text.encode()))
    return applied, largest


def play_guesswhat(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Guess What! the same way; return (commands applied, bytes of the state
    mid-guessing at its largest)."""
    now = 0.0
    players = [(u, f"P{u}") for u in range(1, seats + 1)]
    state, _ = guesswhat.start(players, GWSettings(max_seats=10), seed=seed, now=now)
    applied, largest = 0, 0
    while state.phase not in GW_OVER:
        command, now = next_guesswhat(state, now)
        state, _ = guesswhat.apply(state, command, now, owned=True)
        text = state.model_dump_json()
        state = GWState.model_validate_json(text)
        applied += 1
        if state.phase is GWPhase.GUESS:
            largest = max(largest, len(text.encode()))
    return applied, largest


def play_huescues(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Hues and Cues the same way; return (commands applied, bytes of the
    state mid-guessing at its largest)."""
    now = 0.0
    players = [(u, f"P{u}") for u in range(1, seats + 1)]
    state, _ = hc_start(players, HCSettings(max_seats=10), seed=seed, now=now)
    applied, largest = 0, 0
    while state.phase not in HC_OVER:
        command, now = next_huescues(state, now)
        state, _ = hc_apply(state, command, now, owned=True)
        text = state.model_dump_json()
        state = HCState.model_validate_json(text)
        applied += 1
        if state.phase in HC_GUESSING:
            largest = max(largest, len(text.encode()))
    return applied, largest


def play_wunchunk(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Wunchunk (2–4 seats on its default board) the same way: each turn its
    whole allotment, stone by stone, on cells drawn by the seed, in the seat's colour or the
    next seat's; return (commands applied, bytes of the state at its largest)."""
    players = [(u, f"P{u}") for u in range(1, 2 + seats % 3 + 1)]
    state, _ = wc_start(players, WCSettings(), seed=seed, now=0.0)
    cells = wc_board.geometry(state.size).cells
    order = sorted(range(len(cells)), key=lambda i: (i * 7919 + seed * 104729) % 10007)
    applied, largest, now = 0, 0, 0.0
    while state.phase not in WC_OVER:
        rnd = state.round
        assert rnd is not None
        commands: list[object]
        if state.phase is WCPhase.REVEAL:
            now = state.deadline or now
            commands = [WCTimeout(round_no=rnd.no, phase=state.phase)]
        else:
            user = state.seats[rnd.seat].user_id
            free = [i for i in order if state.board[i] == "."][: rnd.allotment]
            colour = [rnd.seat, (rnd.seat + 1) % len(players)]
            commands = [WCPlaceStone(user_id=user, cell=cells[i], colour=colour[k % 2])
                        for k, i in enumerate(free)]  # fmt: skip
            commands.append(WCEndTurn(user_id=user))
        for command in commands:
            state, _ = wc_apply(state, command, now, owned=True)  # type: ignore[arg-type]
            text = state.model_dump_json()
            state = WCState.model_validate_json(text)
            applied += 1
            largest = max(largest, len(text.encode()))
        now += 1
    return applied, largest


def play_hunch(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Hunch! (3–6 seats) the same way: secrets, clues, auctions, placements,
    bargains and hunches by sensible seats; return (commands applied, bytes of the state at
    its largest)."""
    now = 0.0
    players = [(u, f"P{u}") for u in range(1, 3 + seats % 4 + 1)]
    state, _ = hu_start(players, HUSettings(advanced=seed % 2 == 1), seed=seed, now=now)
    applied, largest = 0, 0
    while state.phase not in HU_OVER:
        command, now = next_hunch(state, now)
        state, _ = hu_apply(state, command, now, owned=True)
        text = state.model_dump_json()
        state = HUState.model_validate_json(text)
        applied += 1
        largest = max(largest, len(text.encode()))
    return applied, largest


def play_guesswhat_at_table(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Guess What! as the store runs it: through the table's `apply()`, the
    whole room (its game's state inside) parsed and saved after every command; return
    (commands applied, bytes of the room mid-guessing at its largest)."""
    now = 0.0
    opened = OpenLobby(chat_id=-1, user_id=1, name="P1", seed=seed, game="guesswhat",
                       settings={"max_seats": 10})  # fmt: skip
    room, _ = apply(None, opened, now)
    for user in range(2, seats + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), now)
    room, _ = apply(room, StartGame(user_id=1), now)
    applied, largest = 0, 0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, GWState)
        command, now = next_guesswhat(state, now)
        if isinstance(command, GWTimeout):
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        room, _ = apply(room, command, now, owned=True)
        text = room.model_dump_json()
        room = GAMES.parse_room(text)
        applied += 1
        if isinstance(room.play, GWState) and room.play.phase is GWPhase.GUESS:
            largest = max(largest, len(text.encode()))
    return applied, largest


def play_huescues_at_table(seed: int, seats: int) -> tuple[int, int]:
    """Play one game of Hues and Cues as the store runs it (the whole room parsed and saved
    after every command); return (commands applied, bytes of the room mid-guessing at its
    largest)."""
    now = 0.0
    opened = OpenLobby(chat_id=-1, user_id=1, name="P1", seed=seed, game="huescues",
                       settings={"max_seats": 10})  # fmt: skip
    room, _ = apply(None, opened, now)
    for user in range(2, seats + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), now)
    room, _ = apply(room, StartGame(user_id=1), now)
    applied, largest = 0, 0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, HCState)
        command, now = next_huescues(state, now)
        if isinstance(command, HCTimeout):
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        room, _ = apply(room, command, now, owned=True)
        text = room.model_dump_json()
        room = GAMES.parse_room(text)
        applied += 1
        if isinstance(room.play, HCState) and room.play.phase in HC_GUESSING:
            largest = max(largest, len(text.encode()))
    return applied, largest


def measure(play: Callable[[int, int], tuple[int, int]], games: int, kinds: int,
            largest: int) -> tuple[int, float, int]:  # fmt: skip
    """Play `games` games (3 to 2 + `kinds` seats); return (commands, commands per second,
    the largest state of a `largest`-seat game)."""
    total = 0
    start = time.perf_counter()
    for seed in range(games):
        applied, _ = play(seed, 3 + seed % kinds)
        total += applied
    elapsed = time.perf_counter() - start
    return total, total / elapsed, play(1, largest)[1]


def main() -> None:
    """Run the benchmark and print its figures."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    total, rate, state_bytes = measure(play_game, games, 6, 8)
    print(f"games={games}")
    print(f"commands={total}")
    print(f"commands_per_s={rate:.0f}")
    print(f"state_bytes={state_bytes}")
    total, rate, state_bytes = measure(play_guesswhat, games, 8, 10)
    print(f"guesswhat_commands={total}")
    print(f"guesswhat_commands_per_s={rate:.0f}")
    print(f"guesswhat_state_bytes={state_bytes}")
    total, rate, state_bytes = measure(play_huescues, games, 8, 10)
    print(f"huescues_commands={total}")
    print(f"huescues_commands_per_s={rate:.0f}")
    print(f"huescues_state_bytes={state_bytes}")
    total, rate, state_bytes = measure(play_wunchunk, games, 3, 5)
    print(f"wunchunk_commands={total}")
    print(f"wunchunk_commands_per_s={rate:.0f}")
    print(f"wunchunk_state_bytes={state_bytes}")
    total, rate, state_bytes = measure(play_hunch, games, 4, 3)
    print(f"hunch_commands={total}")
    print(f"hunch_commands_per_s={rate:.0f}")
    print(f"hunch_state_bytes={state_bytes}")
    # As the store runs it: through the table, the room with the game's state inside.
    _, rate, state_bytes = measure(play_guesswhat_at_table, games, 8, 10)
    print(f"guesswhat_table_commands_per_s={rate:.0f}")
    print(f"guesswhat_table_room_bytes={state_bytes}")
    _, rate, state_bytes = measure(play_huescues_at_table, games, 8, 10)
    print(f"huescues_table_commands_per_s={rate:.0f}")
    print(f"huescues_table_room_bytes={state_bytes}")


if __name__ == "__main__":
    main()
