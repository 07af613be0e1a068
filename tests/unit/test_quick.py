"""Quick timers: a quicker lobby and reveals, and never under 30 s for a person's own action."""

from __future__ import annotations

import json
from types import SimpleNamespace

import fakeredis
import pytest

from engine.games.registry import GAMES, game_named
from engine.model import Settings
from engine.store import keys
from tgbot.local.quick import quick_settings
from tgbot.table.handlers.common import remembered_settings


def defaults(game: str) -> dict[str, int]:
    own = game_named(game).settings_model
    found = Settings().model_dump()
    found.update(own().model_dump() if own is not None else {})
    return {k: v for k, v in found.items() if k.endswith("_s")}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_timer_is_quicker_but_a_persons_action_keeps_at_least_30_seconds(game: str):
    usual, quick = defaults(game), quick_settings(GAMES[game])
    assert set(quick) == set(usual)
    assert quick["join_s"] == 60 and quick["reveal_s"] < usual["reveal_s"]
    for name, seconds in quick.items():
        assert isinstance(seconds, int) and seconds <= usual[name], name
        if name not in ("join_s", "reveal_s"):
            assert seconds >= min(30, usual[name]), name


def test_a_guess_what_clue_gets_30_seconds_not_12():
    assert quick_settings(GAMES["guesswhat"])["clue_s"] == 30


def test_a_groups_remembered_settings_apply_over_the_quick_timers():
    client = fakeredis.FakeRedis()
    quick = SimpleNamespace(redis=client, quick_timers=True, games=GAMES)
    usual = SimpleNamespace(redis=client, quick_timers=False, games=GAMES)
    assert remembered_settings(quick, -1, "hintrigue")["hint_s"] == 60  # type: ignore[arg-type]
    assert remembered_settings(usual, -1, "hintrigue") == {}  # type: ignore[arg-type]
    client.set(keys.group_settings(-1, "hintrigue"), json.dumps({"hint_s": 200}))
    settings = remembered_settings(quick, -1, "hintrigue")  # type: ignore[arg-type]
    assert settings["hint_s"] == 200 and settings["vote_s"] == 45
