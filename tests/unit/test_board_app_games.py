"""The games' parts of the board app without a server: what each view shows a seat and never
shows anyone else, and the presses a tap stands for, applied as the chat's buttons are."""

from __future__ import annotations

import pytest

from engine.commands import GiveHint
from engine.games.huescues.commands import ChooseColour
from engine.games.huescues.model import State as HuesState
from engine.games.wunchunk import board as hexes
from engine.games.wunchunk import commands as wc
from engine.games.wunchunk.model import State
from engine.model import Room
from tests.unit.test_huescues_table import started as hc_started
from tests.unit.test_wunchunk_screens import started
from tests.unit.test_wunchunk_table import apply
from tgbot.games.huescues import app as hcapp
from tgbot.games.registry import LINEUP
from tgbot.games.wunchunk import app as wapp
from tgbot.ops.config import ConfigError, from_env
from tgbot.table.render import Look
from tgbot.webapp.board import BadTap, plain

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=0.0)


def press_into_command(room: Room, index: int, kind: str, args: tuple[int, ...]) -> object:
    """The command the chat's button of this kind and fields makes (as its handler does)."""
    state = room.play
    assert isinstance(state, State)
    user = room.seats[index].user_id
    g = hexes.geometry(state.size)
    LINEUP.codec.encode(LOOK.key, kind, *args)  # the app's press fits the button's form
    if kind == "wput":
        return wc.PlaceStone(user_id=user, round_no=args[1], colour=args[2],
                             cell=g.cells[args[3]], game_id=args[4])  # fmt: skip
    if kind == "wrem":
        return wc.Undo(user_id=user, round_no=args[1], cell=g.cells[args[2]], game_id=args[3])
    if kind == "wund":
        return wc.Undo(user_id=user, round_no=args[1], game_id=args[2])
    assert kind == "wend"
    return wc.EndTurn(user_id=user, round_no=args[1], game_id=args[2])


def tap(room: Room, index: int, move: dict) -> Room:
    for kind, args in wapp.press(room, index, move):
        room, _ = apply(room, press_into_command(room, index, kind, args), 2.0)
    return room


def test_a_wunchunk_turn_tapped_places_recolours_and_takes_back() -> None:
    room = started(2, 5)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    seat = state.round.seat
    other = 1 - seat
    seen = wapp.view(room, seat, LOOK)
    assert seen["can"] == "place" and seen["allotment"] >= 1 and seen["placed"] == 0
    empty = next(i for i in range(len(seen["cells"])) if i not in {s[0] for s in seen["stones"]})
    room = tap(room, seat, {"do": "place", "cell": empty, "colour": 0})
    shown = wapp.view(room, seat, LOOK)
    assert [empty, 0, "pending"] in shown["stones"] and shown["placed"] == 1
    watched = wapp.view(room, other, LOOK)
    assert all(stone[0] != empty for stone in watched["stones"]), "a turn being built is its own"
    assert watched["can"] is None and "your turn" not in watched["text"]
    room = tap(room, seat, {"do": "recolour", "cell": empty})
    assert [empty, 1, "pending"] in wapp.view(room, seat, LOOK)["stones"]
    room = tap(room, seat, {"do": "recolour", "cell": empty})  # past the last colour: back
    assert all(stone[0] != empty for stone in wapp.view(room, seat, LOOK)["stones"])
    room = tap(room, seat, {"do": "place", "cell": empty, "colour": seat})
    room = tap(room, seat, {"do": "end"})
    after = wapp.view(room, seat, LOOK)
    assert [empty, seat, "last"] in after["stones"] and after["can"] is None


def test_taps_no_button_stands_for_are_refused() -> None:
    room = started(2, 5)
    state = room.play
    assert isinstance(state, State) and state.round is not None
    seat = state.round.seat
    for move in ({"do": "place", "cell": 61, "colour": 0}, {"do": "place", "cell": 3, "colour": 2},
                 {"do": "recolour", "cell": 3}, {"do": "jump"}, {"do": "place", "cell": "3"}):
        with pytest.raises(BadTap):
            wapp.press(room, seat, move)


def test_plain_text_unescapes_and_drops_tags() -> None:
    assert plain("<b>Round 1</b> in Friday &lt;Night&gt; &amp; Games") == (
        "Round 1 in Friday <Night> & Games")


def test_hues_and_cues_free_choice_in_the_app_and_what_each_seat_sees() -> None:
    room = hc_started(players=3, free_choice=True)
    state = room.play
    assert isinstance(state, HuesState) and state.round is not None
    giver = state.round.giver
    guesser = next(i for i in state.guessers())
    cue_giver = hcapp.view(room, giver, LOOK)
    assert cue_giver["can"] == "colour" and cue_giver["card"] == [] and cue_giver["choice"] is None
    assert hcapp.press(room, giver, {"do": "cell", "cell": 37})[0][0] == "hcol"
    room, _ = apply(room, ChooseColour(user_id=room.seats[giver].user_id, cell=37, round_no=1), 2.0)
    assert hcapp.view(room, giver, LOOK)["frame"] == 37
    for other in (hcapp.view(room, guesser, LOOK), hcapp.view(room, None, LOOK)):
        assert other["frame"] is None and other["choice"] is None and other["can"] is None
        assert "37" not in str(other["cones"]) and other["card"] == []
    room, _ = apply(room, GiveHint(user_id=room.seats[giver].user_id, text="salmon"), 3.0)
    seen = hcapp.view(room, guesser, LOOK)
    assert seen["can"] == "cell" and seen["frame"] is None and seen["cues"] == ["salmon"]
    assert hcapp.press(room, guesser, {"do": "cell", "cell": 5})[0][0] == "hcel"
    assert hcapp.press(room, guesser, {"do": "confirm"})[0][0] == "hok"
    with pytest.raises(BadTap):
        hcapp.press(room, guesser, {"do": "cell", "cell": 480})


@pytest.mark.parametrize(("env", "shown"), [
    ({}, ""),
    ({"WEBHOOK_URL": "https://bot.example/hook"}, "https://bot.example/app/"),
    ({"WEBHOOK_URL": "http://bot.example/hook"}, ""),  # Telegram opens no plain http app
    ({"APP_URL": "http://bot.example/app/"}, ""),
    ({"APP_URL": "https://cdn.example/board/"}, "https://cdn.example/board/"),
    ({"APP_URL": "http://127.0.0.1:8001/app/"}, "http://127.0.0.1:8001/app/"),  # the local run
])
def test_the_private_button_needs_an_https_address(env: dict, shown: str) -> None:
    assert from_env({"TELEGRAM_BOT_TOKEN": "1:x", **env}).board_app_url == shown


def test_the_direct_link_must_be_one() -> None:
    assert from_env({"TELEGRAM_BOT_TOKEN": "1:x", "APP_LINK": "https://t.me/some_bot/board"}
                    ).app_link == "https://t.me/some_bot/board"  # fmt: skip
    with pytest.raises(ConfigError, match="APP_LINK"):
        from_env({"TELEGRAM_BOT_TOKEN": "1:x", "APP_LINK": "https://example.com/board"})
