"""Wunchunk's Telegram side without Telegram: the lobby's board size steps through the sizes
there are, every button fits Telegram's 64 bytes on the largest board with four seats, the
group never sees a turn being built, and a caption of four long names still fits."""

from __future__ import annotations

import pytest

from engine.commands import ChangeSettings, ChooseGame, Join, OpenLobby, StartGame
from engine.errors import ErrorCode, RuleError
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk import commands as wc
from engine.games.wunchunk.model import State
from engine.model import Room
from tests.unit.test_wunchunk_table import apply, lobby
from tgbot.egress.outgoing import MAX_CAPTION, caption_length
from tgbot.games.registry import LINEUP
from tgbot.games.wunchunk import render as wu
from tgbot.table.callback import MAX_BYTES
from tgbot.table.render import Look
from tgbot.table.render import lobby as lobby_message

decode = LINEUP.codec.decode
LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=0.0)


def size_buttons(room: Room) -> tuple[int, int]:
    """The values the board size's − and + buttons set."""
    rows = lobby_message(room, LOOK, settings_mode=True).buttons
    row = next(r for r in rows if len(r) == 3 and "board size" in r[1].text)
    index = LINEUP.setting("wunchunk", "size").index
    values = []
    for button in (row[0], row[2]):
        pressed = decode(LOOK.key, button.data)
        assert pressed.kind == "set" and pressed.args[0] == index
        values.append(pressed.args[1])
    return values[0], values[1]


def test_the_board_size_steps_through_the_sizes_there_are() -> None:
    room = lobby()
    assert size_buttons(room) == (0, 5)  # automatic, then 5
    for size, expected in ((5, (0, 6)), (7, (6, 8)), (8, (7, 8))):
        changed, _ = apply(room, ChangeSettings(user_id=1, changes={"size": size}), 1.0)
        assert size_buttons(changed) == expected


def started(players: int, size: int) -> Room:
    room = lobby(players=players, size=size)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    assert isinstance(room.play, State)
    return room


def test_every_button_fits_64_bytes_on_the_largest_board() -> None:
    room = started(4, 8)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    seat = state.round.seat
    top_row = 2 * state.size - 2
    stones = state.stones()
    busy = next(i for i, row in enumerate(hexes.rows(8)) if any(c in stones for c in row))
    messages = [
        wu.turn_dm(room, seat, LOOK),
        wu.turn_dm(room, seat, LOOK, colour=3, row=top_row),
        wu.turn_dm(room, seat, LOOK, colour=0, row=state.size - 1),  # the longest row
        wu.turn_dm(room, seat, LOOK, colour=1, row=busy),
        lobby_message(room, LOOK, settings_mode=True),
    ]
    pressed = 0
    for message in messages:
        for row in message.buttons:
            for button in row:
                assert button.data is not None and len(button.data.encode()) <= MAX_BYTES
                decode(LOOK.key, button.data)
                pressed += 1
    assert pressed > 40
    places = [b.text for row in messages[3].buttons for b in row
              if decode(LOOK.key, b.data).kind == "wput"]  # fmt: skip
    empty = [hexes.cell_name(c, 8) for c in hexes.rows(8)[busy] if c not in stones]
    assert places == empty and len(empty) < len(hexes.rows(8)[busy]), "a stone's cell is no place"


def test_the_group_never_sees_the_turn_being_built() -> None:
    room = started(2, 6)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    seat = state.round.seat
    cell = next(c for c in hexes.cells(6) if c not in state.stones())
    room, _ = apply(room, wc.PlaceStone(user_id=room.seats[seat].user_id, cell=cell,
                                        colour=seat), 2.0)  # fmt: skip
    group = wu.board_message(room, LOOK)
    private = wu.turn_dm(room, seat, LOOK)
    assert all(stone.cell != cell for stone in group.picture.stones)
    assert hexes.cell_name(cell, 6) not in group.text
    assert any(s.cell == cell and s.mark == "pending" for s in private.picture.stones)
    assert f"Placed so far: {hexes.cell_name(cell, 6)} (1 of 1)" in private.text


def test_a_caption_of_four_long_names_fits() -> None:
    room = started(4, 8)
    long = "W" * 64
    room = room.model_copy(update={"seats": [s.model_copy(update={"name": f"{long}{i}"})
                                             for i, s in enumerate(room.seats)]})  # fmt: skip
    message = wu.board_message(room, LOOK)
    assert caption_length(message.text) <= MAX_CAPTION
    assert "up to 1 stone" in message.text


def test_the_game_button_passes_over_a_game_too_small_for_the_lobby() -> None:
    room, _ = apply(None, OpenLobby(chat_id=-5, user_id=1, name="P1", seed=3, game="huescues"),
                    0.0)  # fmt: skip
    for user in range(2, 6):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), 0.0)
    game = next(b for row in lobby_message(room, LOOK).buttons for b in row
                if decode(LOOK.key, b.data).kind == "game")  # fmt: skip
    assert list(LINEUP.games)[decode(LOOK.key, game.data).args[0]] == "hunch"
    with pytest.raises(RuleError) as refused:  # chosen some other way: refused with the reason
        apply(room, ChooseGame(user_id=1, game="wunchunk"), 0.0)
    assert refused.value.code is ErrorCode.TOO_MANY_FOR_GAME and refused.value.template == "4"
    four, _ = apply(lobby(players=4), ChooseGame(user_id=1, game="huescues"), 0.0)
    game = next(b for row in lobby_message(four, LOOK).buttons for b in row
                if decode(LOOK.key, b.data).kind == "game")  # fmt: skip
    assert list(LINEUP.games)[decode(LOOK.key, game.data).args[0]] == "wunchunk"
