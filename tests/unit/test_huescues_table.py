"""Hues and Cues at the table: a lobby of it, a whole game run by `engine.rules.apply` with its
figures, text typed in private read as a cell or a cue, the shared commands; and its Telegram
messages rendered from the room: pictures always, callback data within 64 bytes."""

from __future__ import annotations

import json

import pytest

from engine.commands import (
    ChangeSettings,
    GiveHint,
    Join,
    Leave,
    OpenLobby,
    Skip,
    StartGame,
    Timeout,
)
from engine.errors import ErrorCode, RuleError
from engine.games.huescues import board
from engine.games.huescues import commands as hc
from engine.games.huescues.errors import Refusal
from engine.games.huescues.model import Phase as OwnPhase
from engine.games.huescues.model import Settings as HCSettings
from engine.games.huescues.model import State
from engine.games.registry import GAMES
from engine.model import OVER_PHASES, Phase, Room, SeatStatus
from engine.store import stats
from tests.huescues_builders import next_move
from tests.table import apply
from tgbot.games.huescues import render as hc_render
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture
from tgbot.games.registry import LINEUP
from tgbot.table import callback
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=0.0)


def lobby(players: int = 3, chat_id: int = -5, **extra: object) -> Room:
    opened = OpenLobby(chat_id=chat_id, user_id=1, name="P1", seed=11, game="huescues", **extra)
    room, _ = apply(None, opened, 0.0)
    for user in range(2, players + 1):
        room, _ = apply(room, Join(user_id=user, name=f"P{user}"), 0.0)
    return room


def own_command(command: object) -> object:
    """A Hues and Cues command as the table takes it: a timer names its phase by name."""
    if isinstance(command, hc.Timeout):
        return Timeout(round_no=command.round_no, phase=command.phase.value)
    return command


def test_a_lobby_of_hues_and_cues_keeps_its_own_settings_and_the_rooms_language() -> None:
    room = lobby(game_settings={"turns": 1, "free_choice": True})
    assert room.game == "huescues" and isinstance(room.game_settings, HCSettings)
    assert room.game_settings.turns == 1 and room.game_settings.free_choice
    room, _ = apply(room, ChangeSettings(user_id=1, changes={"cue_s": 120, "language": "ru",
                                                             "pictures": False}), 1)  # fmt: skip
    assert room.game_settings.cue_s == 120 and room.settings.language == "ru"
    with pytest.raises(RuleError) as refused:
        apply(room, ChangeSettings(user_id=1, changes={"turns": 4}), 1)
    assert refused.value.code is ErrorCode.BAD_SETTING
    room, _ = apply(room, StartGame(user_id=1), 2.0)
    assert isinstance(room.play, State) and room.play.language == "ru"
    assert room.play.settings.free_choice and room.play.turns == 1


def test_a_whole_game_at_the_table_ends_with_its_standings_and_figures() -> None:
    room = lobby(players=4)
    room, events = apply(room, StartGame(user_id=1), 1.0)
    assert room.phase is Phase.PLAYING and [e.kind for e in events][:2] == [
        "game_started", "round_started"]  # fmt: skip
    now = 1.0
    while room.phase not in OVER_PHASES:
        assert isinstance(room.play, State)
        command, now = next_move(room.play, now)
        room, _ = apply(GAMES.parse_room(room.model_dump_json()), own_command(command),
                        now)  # fmt: skip
    state = room.play
    assert isinstance(state, State) and room.phase is Phase.FINISHED
    assert [s.score for s in room.seats] == [s.score for s in state.seats]
    ops = dict(stats.increments(room, GAMES["huescues"], 100.0))
    per_user = {key: json.loads(op) for key, op in ops.items() if ":stats:user:" in key}
    top = max(s.score for s in state.seats)
    for seat in state.seats:
        op = next(v for k, v in per_user.items() if k.endswith(f":{seat.user_id}"))
        assert op["incr"] == {
            "huescues:games": 1,
            "huescues:wins": int(seat.score == top),
            "huescues:points": seat.score,
            "huescues:exact": seat.exact,
        }
        assert op["max"] == {"huescues:best": seat.best}
    assert GAMES["huescues"].figures == ("games", "wins", "points", "exact", "best")


def started(players: int = 3, **settings: object) -> Room:
    room = lobby(players=players, game_settings=settings)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    return room


def giver_user(room: Room) -> int:
    state = room.play
    assert isinstance(state, State) and state.round is not None
    return state.seats[state.round.giver].user_id


def test_text_typed_in_private_is_a_cue_or_a_cell() -> None:
    room = started(players=4, free_choice=True)
    giver = giver_user(room)
    early = next(s.user_id for s in room.seats if s.user_id != giver)
    with pytest.raises(RuleError) as refused:  # a cell before the cue: not yet
        apply(room, GiveHint(user_id=early, text="H15"), 2.0)
    assert refused.value.code is ErrorCode.WRONG_PHASE
    room, _ = apply(room, GiveHint(user_id=giver, text="к12"), 2.0)  # free choice: a cell
    assert room.play.round.colour == board.at(10, 11)
    with pytest.raises(RuleError) as refused:
        apply(room, GiveHint(user_id=giver, text="Red"), 2.0)
    assert refused.value.code is Refusal.CUE_COLOUR_WORD and refused.value.detail == "Red"
    room, _ = apply(room, GiveHint(user_id=giver, text="salmon"), 2.0)
    assert room.play.round.cues == ["salmon"]
    guesser = next(s.user_id for i, s in enumerate(room.seats) if i in room.play.guessers())
    with pytest.raises(RuleError) as refused:
        apply(room, GiveHint(user_id=guesser, text="salmon"), 3.0)
    assert refused.value.code is Refusal.NOT_A_CELL
    for text, cell in (("h15", 224), ("15H", 224), ("Р30", 479)):
        room, events = apply(room, GiveHint(user_id=guesser, text=text), 3.0)
        assert events[0].kind == "cell_chosen" and room.play.round.choices
        assert room.play.round.choices[room.seat_of(guesser)] == cell


def test_a_typed_cell_is_answered_below_it_and_becomes_the_cone_when_time_runs_out() -> None:
    room = started(players=4)
    giver = giver_user(room)
    room, _ = apply(room, hc.ChooseColour(user_id=giver, cell=room.play.card_cells()[0]), 2.0)
    room, _ = apply(room, GiveHint(user_id=giver, text="salmon"), 2.0)
    typists = [room.seats[i].user_id for i in room.play.guessers()]
    for user, text in zip(typists, ("n15", "15N", "n16"), strict=True):
        room, events = apply(room, GiveHint(user_id=user, text=text), 3.0)
        answer = [m for m in outgoing_for(room, events, LOOK, typed_by=user)
                  if m.chat_id == user]  # fmt: skip
        assert len(answer) == 1 and answer[0].fresh, "the close-up comes below the typed text"
        assert isinstance(answer[0].picture, HuesCloseupPicture)
        labels = [b.text for line in answer[0].buttons for b in line]
        assert any("Confirm" in t for t in labels) and any("Change" in t for t in labels)
        pressed = outgoing_for(room, events, LOOK)  # chosen by a button: edited in place
        assert not any(m.fresh for m in pressed)
    room, events = apply(room, hc.ConfirmCone(user_id=typists[0]), 4.0)
    assert room.deadline is not None
    room, events = apply(room, Timeout(round_no=1, phase="guess"), room.deadline)
    cones = room.play.round.cones
    n15, n16 = board.parse("N15"), board.parse("N16")
    assert [cones.get(room.seat_of(u)) for u in typists] == [n15, n15, n16], "no cone lost"
    out = outgoing_for(room, events, LOOK)
    for user in typists[1:]:
        prompt = next(m for m in out if m.chat_id == user)
        assert "the cell you chose counts as your cone" in prompt.text and not prompt.buttons
    group = next(m for m in out if m.key == "board:1")
    assert "N15" in group.text and "N16" in group.text


def test_the_shared_commands_at_the_table() -> None:
    room = started(players=4)
    with pytest.raises(RuleError) as refused:
        apply(room, Timeout(round_no=1, phase="hint"), 10_000.0)
    assert refused.value.code is ErrorCode.STALE
    room, events = apply(room, Join(user_id=9, name="P9"), 2.0)
    assert [e.kind for e in events] == ["player_joined"]
    assert [s.user_id for s in room.play.seats] == [1, 2, 3, 4, 9]
    room, _ = apply(room, Leave(user_id=2), 3.0)
    assert room.seats[1].status is SeatStatus.LEFT and room.phase is Phase.PLAYING
    giver = room.play.round.giver
    room, events = apply(room, Timeout(round_no=room.play.round.no, phase="cue"), 10_000.0)
    assert events[0].kind == "round_voided" and room.play.round.no == 2
    assert room.play.seats[giver].missed == (0 if giver == 1 else 1)


# Rendering


def test_every_message_of_a_round_carries_its_picture_even_with_pictures_off() -> None:
    room = lobby(players=3, chat_id=-1001234567890, game_settings={"turns": 1})
    room, _ = apply(room, ChangeSettings(user_id=1, changes={"pictures": False}), 0.5)
    room, events = apply(room, StartGame(user_id=1), 1.0)
    out = outgoing_for(room, events, LOOK)
    group = [m for m in out if m.key == "board:1"]
    assert group and isinstance(group[0].picture, HuesBoardPicture)
    card = [m for m in out if m.chat_id == giver_user(room)]
    assert isinstance(card[0].picture, HuesCardPicture)
    assert card[0].picture.cells == room.play.card_cells()
    now = 1.0
    seen: dict[str, type] = {}
    while room.phase not in OVER_PHASES:
        command, now = next_move(room.play, now)
        room, events = apply(room, own_command(command), now)
        for message in outgoing_for(room, events, LOOK):
            if message.picture is not None:
                seen[message.key.split(":")[0]] = type(message.picture)
            if message.key and message.key.startswith(("board:", "reveal:")):
                assert message.picture is not None, message.key
    assert seen["reveal"] is HuesBoardPicture and seen["dm"] in (
        HuesCloseupPicture,
        HuesBoardPicture,
        HuesCardPicture,
    )


def test_the_reveal_draws_every_cone_and_the_frame() -> None:
    room = started(players=3, free_choice=True)
    giver = giver_user(room)
    room, _ = apply(room, GiveHint(user_id=giver, text="a1"), 2.0)
    room, _ = apply(room, GiveHint(user_id=giver, text="salmon"), 2.0)
    guessers = [room.seats[i].user_id for i in room.play.guessers()]
    for user, cell in zip(guessers, (0, 31), strict=True):
        room, _ = apply(room, GiveHint(user_id=user, text=board.name(cell)), 3.0)
        room, _ = apply(room, hc.ConfirmCone(user_id=user), 3.0)
    room, events = apply(room, hc.NoSecondCue(user_id=giver), 4.0)
    assert room.play.phase is OwnPhase.REVEAL
    reveal = next(m for m in outgoing_for(room, events, LOOK) if m.key == "reveal:1")
    assert isinstance(reveal.picture, HuesBoardPicture) and reveal.picture.frame == 0
    assert sorted((c.cell, c.second) for c in reveal.picture.cones) == [(0, False), (31, False)]
    assert "A1" in reveal.text and "+3" in reveal.text and "+2" in reveal.text


def test_callback_data_of_the_cell_keyboards_fit_in_64_bytes() -> None:
    room = lobby(players=3, chat_id=-1009999999999, game_settings={"free_choice": True})
    room = room.model_copy(update={"topic": 2_147_483_647, "game_id": (1 << 30) - 1})
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    giver = room.play.round.giver
    for row in (None, 0, 15, 16):
        message = hc_render.giver_dm(room, giver, LOOK, row)  # raises beyond 64 bytes
        for line in message.buttons:
            for button in line:
                assert button.data is not None and len(button.data.encode()) <= callback.MAX_BYTES
    columns = hc_render.giver_dm(room, giver, LOOK, 7)
    assert sum(len(line) for line in columns.buttons) == 31  # 30 columns and the way back
    assert [b.text for b in columns.buttons[0]] == [f"H{c}" for c in range(1, 7)]


def test_every_new_deadline_comes_with_an_event_the_workers_set_a_timer_for() -> None:
    from workers.dispatch import timer_of

    timed = GAMES["huescues"].timed_events

    for seed, free in ((3, False), (4, True)):
        room = lobby(players=4, game_settings={"turns": 1, "free_choice": free})
        room = room.model_copy(update={"rng": seed})
        room, events = apply(room, StartGame(user_id=1), 1.0)
        now, seen = 1.0, set()
        while room.phase not in OVER_PHASES:
            before = timer_of(room, GAMES)
            command, now = next_move(room.play, now)
            room, events = apply(room, own_command(command), now)
            named = timer_of(room, GAMES)
            if room.deadline is not None and named is not None and named != before:
                assert any(e.kind in timed for e in events), [e.kind for e in events]
                seen.add(named[1])
        assert seen == {"cue", "guess", "second_cue", "second_guess", "reveal"}


def test_every_caption_fits_a_photo_with_ten_long_names_even_in_a_tie_break() -> None:
    from tgbot.egress.outgoing import MAX_CAPTION, caption_length

    opened = OpenLobby(chat_id=-5, user_id=1, name="Ж" * 64, seed=11, game="huescues",
                       settings={"max_seats": 10}, game_settings={"turns": 1})  # fmt: skip
    room, _ = apply(None, opened, 0.0)
    for user in range(2, 11):
        room, _ = apply(room, Join(user_id=user, name=f"{user}" + "Ж" * 63), 0.0)
    room, events = apply(room, StartGame(user_id=1), 1.0)
    now, checked, extra = 1.0, 0, False
    while room.phase not in OVER_PHASES:
        state = room.play
        if state.phase is OwnPhase.REVEAL and state.round.last and not state.round.extra:
            for seat in state.seats:
                seat.score = 7  # everybody tied: a tie-break round with nine guessers
        command, now = next_move(state, now)
        room, events = apply(room, own_command(command), now)
        extra = extra or bool(room.play.round.extra)
        for message in outgoing_for(room, events, LOOK.at(now)):
            if message.picture is not None:
                assert caption_length(message.text) <= MAX_CAPTION, message.text
                checked += 1
    assert extra and checked > 100


def test_skip_is_told_in_the_group_whatever_it_skipped() -> None:
    room = started(players=3)
    giver = room.play.round.giver
    names = [seat.name for seat in room.seats]
    room, events = apply(room, Skip(user_id=1), 5.0)  # the host skips the cue: a void round
    assert (
        hc_render.skip_notice(room, events, "Ann")
        == f"Ann skipped {names[giver]}'s cue: the round is void."
    )
    giver = room.play.round.giver
    uid = room.seats[giver].user_id
    room, _ = apply(room, hc.ChooseColour(user_id=uid, cell=room.play.card_cells()[0]), 6.0)
    room, _ = apply(room, GiveHint(user_id=uid, text="salmon"), 6.0)
    first, other = room.play.guessers()
    room, _ = apply(room, GiveHint(user_id=room.seats[first].user_id, text="a1"), 7.0)
    room, events = apply(room, Skip(user_id=1), 9.0)
    assert hc_render.skip_notice(room, events, "Ann") == (
        f"Ann skipped the guesses of {names[first]} and {names[other]}. "
        f"The cell {names[first]} chose counts as their cone."
    )
    room, events = apply(room, Skip(user_id=1), 12.0)
    assert hc_render.skip_notice(room, events, "Ann") == f"Ann skipped {names[giver]}'s second cue."
    room, events = apply(room, Skip(user_id=1), 15.0)  # the reveal: the next round says it
    assert hc_render.skip_notice(room, events, "Ann") is None
