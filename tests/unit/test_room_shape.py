"""A stored room is parsed in one pass by its game's `RoomShape` when it is in this version's
shape, and by `Room`'s validators (its game's `upgrade` among them) otherwise: both ways give
the same room, of the same classes, and a room of an earlier version's shape never takes the
one pass."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bench import engine as bench
from engine.errors import RuleError
from engine.games.base import Games
from engine.games.registry import GAMES
from engine.model import Room, Seat, Settings

DATA = Path(__file__).parent / "data"


def rooms_played() -> list[str]:
    """Every room of a few games of Hintrigue, Guess What! and Hues and Cues at the table, as
    the store writes it after each command."""
    written: list[str] = []
    parse = GAMES.parse_room

    def noted(raw: str | bytes) -> Room:
        assert isinstance(raw, str)
        written.append(raw)
        return parse(raw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GAMES, "parse_room", noted)
        for seed in range(2):
            bench.play_game(seed, 4 + seed)
            bench.play_guesswhat_at_table(seed, 4 + seed)
            bench.play_huescues_at_table(seed, 4 + seed)
    return written


def by_validators(raw: str | bytes, games: Games = GAMES) -> Room:
    """The room as every room was parsed before the one pass: `Room`'s validators."""
    return Room.model_validate_json(raw, context=games)


def same(one: Room, other: Room) -> None:
    assert type(one) is type(other) is Room
    assert one == other
    assert one.model_dump_json() == other.model_dump_json()
    assert one.model_fields_set == other.model_fields_set
    assert type(one.settings) is type(other.settings) is Settings
    assert all(type(seat) is Seat for seat in [*one.seats, *other.seats])
    assert type(one.play) is type(other.play)
    assert type(one.game_settings) is type(other.game_settings)


def counting_upgrades() -> tuple[Games, list[dict[str, Any]]]:
    """The bot's games, Hintrigue's `upgrade` noting every room it is given."""
    seen: list[dict[str, Any]] = []
    hintrigue = GAMES["hintrigue"]
    assert hintrigue.upgrade is not None
    upgrade = hintrigue.upgrade

    def noting(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(data)
        return upgrade(data)

    games = Games(*(dataclasses.replace(game, upgrade=noting) if game is hintrigue else game
                    for game in GAMES.values()), unnamed=GAMES.unnamed)  # fmt: skip
    return games, seen


def test_every_room_of_a_game_parses_the_same_in_one_pass_as_by_the_validators() -> None:
    written = rooms_played()
    assert {json.loads(raw)["game"] for raw in written} == {"hintrigue", "guesswhat", "huescues"}
    for raw in written:
        room = GAMES.parse_room(raw)
        same(room, by_validators(raw))
        same(GAMES.parse_room(raw.encode()), room)
        assert room.model_dump_json() == raw


def test_a_room_in_this_version_s_shape_takes_the_one_pass_and_no_upgrade() -> None:
    games, upgraded = counting_upgrades()
    written = [raw for raw in rooms_played() if '"game":"hintrigue"' in raw]
    for raw in written:
        games.parse_room(raw)
    assert upgraded == []
    by_validators(written[-1], games)
    assert len(upgraded) == 1  # the way around the one pass would have upgraded them


@pytest.mark.parametrize("name", ["lobby", "voting", "finished"])
def test_a_room_of_an_earlier_shape_is_upgraded_as_before(name: str) -> None:
    games, upgraded = counting_upgrades()
    raw = json.dumps(json.loads((DATA / f"hintrigue_{name}.json").read_text())["room"])
    room = games.parse_room(raw)
    assert len(upgraded) == 1
    same(room, by_validators(raw))
    # Written again, it is in this version's shape: the one pass takes it.
    same(games.parse_room(room.model_dump_json()), room)
    assert len(upgraded) == 1


def test_a_room_stored_before_rooms_named_their_game_is_hintrigue_s() -> None:
    data = json.loads(GAMES.parse_room(rooms_played()[3]).model_dump_json())
    del data["game"]
    room = GAMES.parse_room(json.dumps(data))
    assert room.game == "hintrigue"
    same(room, by_validators(json.dumps(data)))


@pytest.mark.parametrize("where", ["room", "settings", "seat"])
def test_an_unknown_key_takes_the_validators_way_and_is_left_out_as_before(where: str) -> None:
    raw = next(raw for raw in rooms_played() if '"game":"guesswhat"' in raw and '"play":{' in raw)
    data = json.loads(raw)
    {"room": data, "settings": data["settings"], "seat": data["seats"][0]}[where]["kept"] = 1
    unknown = json.dumps(data)
    room = GAMES.parse_room(unknown)
    same(room, by_validators(unknown))
    assert room.model_dump_json() == raw


def test_a_room_that_is_not_one_is_refused_as_by_the_validators() -> None:
    data = json.loads(rooms_played()[5])
    data["play"] = {"phase": "nowhere"}
    with pytest.raises(ValidationError):
        GAMES.parse_room(json.dumps(data))
    data["game"] = "chess"
    with pytest.raises(RuleError):
        by_validators(json.dumps(data))
    with pytest.raises(RuleError):
        GAMES.parse_room(json.dumps(data))
