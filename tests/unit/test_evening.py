"""A group's evening: second games, closed prompts, announced timeouts, readable numbers."""

import pytest

from engine.commands import Leave, OpenedPrivateChat, OpenLobby, Skip, StartGame, StopGame
from engine.errors import ErrorCode, RuleError
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy, Vote
from engine.games.hintrigue.events import (
    GameAbandoned,
    RoundScored,
    RoundStarted,
    RoundVoided,
    SeatLeft,
)
from engine.games.hintrigue.model import Phase, own_seats, phase_of
from engine.games.hintrigue.views import missed_voters
from tests.builders import CHAT, a_room, user
from tests.table import apply
from tgbot.egress.outgoing import SETTLE_S, dm_key
from tgbot.games.hintrigue.group import reveal, round_message, standings_text
from tgbot.games.registry import LINEUP
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look, lobby
from tgbot.table.render.lobby import _settings_rows

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=1_000.0)


def at(game):
    return LOOK.at(game.now)


def test_start_is_refused_until_every_seated_player_opened_a_private_chat():
    game = a_room().with_players(3).in_lobby()
    game.room.seats[0].private_ok = False
    with pytest.raises(RuleError) as refused:
        apply(game.room, StartGame(user_id=user(0)), game.now)
    assert refused.value.code is ErrorCode.PRIVATE_CHAT_MISSING
    assert "P0" in refused.value.detail
    shown = lobby(game.room, LOOK).text
    assert 'P0 (host) — must open <a href="https://t.me/hintrigue_bot?start=r' in shown
    game.do(OpenedPrivateChat(user_id=user(0)))
    assert "must open" not in lobby(game.room, LOOK).text
    game.do(StartGame(user_id=user(0)))
    assert phase_of(game.room) is Phase.HINT


def test_a_new_lobby_is_a_new_game_whose_buttons_refuse_the_old_ones():
    game = a_room().in_voting()
    first = game.room.game_id
    game.do(StopGame(user_id=user(0)))
    game.room, _ = apply(
        game.room, OpenLobby(chat_id=CHAT, user_id=user(0), name="P0", seed=99 << 40), game.now
    )
    assert game.room.game_id not in (0, first)
    with pytest.raises(RuleError) as refused:
        apply(game.room, StopGame(user_id=user(0), game_id=first), game.now)
    assert refused.value.code is ErrorCode.OTHER_GAME


def test_a_seat_that_left_during_voting_can_no_longer_vote():
    game = a_room().with_players(5).in_voting()
    leaver = game.others()[0]
    target = game.card_of(game.storyteller())
    game.do(Leave(user_id=game.uid(leaver)))
    with pytest.raises(RuleError) as refused:
        apply(game.room, Vote(user_id=game.uid(leaver), card=target), game.now)
    assert refused.value.code is ErrorCode.HAS_LEFT


def test_a_missed_hint_closes_the_storytellers_prompt_and_says_why():
    game = a_room().in_hint()
    teller = game.storyteller()
    game.do(ChooseCard(user_id=game.uid(teller), card=game.hand(teller)[0]))
    game.time_out()
    voided = next(e for e in game.events if isinstance(e, RoundVoided))
    assert voided.prompted == [teller]
    out = outgoing_for(game.room, game.events, at(game))
    closed = next(o for o in out if o.key == dm_key(game.uid(teller), 1))
    assert closed.buttons == [] and "time ran out before your hint" in closed.text


def test_the_storyteller_leaving_closes_every_open_decoy_prompt():
    game = a_room().with_players(5).in_decoys()
    waiting = game.others()
    game.do(Leave(user_id=game.uid(game.storyteller())))
    voided = next(e for e in game.events if isinstance(e, RoundVoided))
    assert voided.prompted == waiting
    out = outgoing_for(game.room, game.events, at(game))
    for seat in waiting:
        closed = next(o for o in out if o.key == dm_key(game.uid(seat), 1))
        assert closed.buttons == [] and "the round is void" in closed.text


def test_a_player_who_leaves_with_a_prompt_open_sees_it_closed():
    game = a_room().with_players(5).in_decoys()
    leaver = game.others()[0]
    game.do(Leave(user_id=game.uid(leaver)))
    left = next(e for e in game.events if isinstance(e, SeatLeft))
    assert left.prompt_round == 1
    out = outgoing_for(game.room, game.events, at(game))
    closed = next(o for o in out if o.key == dm_key(game.uid(leaver), 1))
    assert closed.buttons == [] and "you left the game" in closed.text


def test_a_game_stopped_during_voting_takes_the_vote_buttons_off_the_table():
    game = a_room().in_voting()
    game.do(StopGame(user_id=user(0)))
    assert next(e for e in game.events if isinstance(e, GameAbandoned)).interrupted == "voting"
    out = outgoing_for(game.room, game.events, at(game))
    table = next(o for o in out if o.key == "table:1")
    assert table.buttons == [] and "ended before the votes were counted" in table.text


def test_a_vote_that_timed_out_is_announced_with_the_reason_for_the_points():
    game = a_room().in_voting()
    teller = game.storyteller()
    voter, *silent = game.others()
    game.vote(voter, teller)
    game.time_out()
    assert any(isinstance(e, RoundScored) for e in game.events)
    assert missed_voters(game.room, game.round) == silent
    text = reveal(game.room, at(game)).text
    assert f"Every voter found P{teller}'s card: P{teller} scores nothing, every voter +2." in text
    assert "Did not vote in time: " + " and ".join(f"P{i}" for i in silent) in text.replace(
        ", ", " and "
    )


def test_the_reveal_says_when_the_next_round_comes_and_the_round_s_message_follows_it():
    game = a_room().with_settings(reveal_s=8).in_voting()
    game.room.timer_scale = 0.5
    for seat in game.others():
        game.vote(seat, game.storyteller())
    assert "Next round in 4 s." in reveal(game.room, at(game)).text
    game.time_out()
    out = outgoing_for(game.room, game.events, at(game))
    # No edit of the reveal: "Next round in 4 s." is followed by the round itself.
    assert [o.key for o in out if o.chat_id == CHAT] == ["round:2"]
    assert "<b>Round 2</b>" in out[0].text


def test_time_left_and_lobby_timers_are_shown_as_they_really_run():
    game = a_room().with_settings(hint_s=60).in_lobby()
    game.room.timer_scale = 0.5
    assert "hint 30 s" in lobby(game.room, LOOK).text
    game.do(StartGame(user_id=user(0)))
    out = outgoing_for(game.room, game.events, at(game).at(game.now + 10))
    assert "(20 s left)" in next(o for o in out if o.key == "round:1").text
    assert "UTC" not in "".join(o.text for o in out)


def test_numbers_read_well_and_tied_players_share_their_rank():
    game = a_room().with_players(3).with_settings(rotations=1).in_hint()
    seats = game.room.seats
    seats[0].score, seats[1].score, seats[2].score = 4, 4, 1
    own_seats(game.room)[2].finds = 1
    text = standings_text(game.room)
    assert "1. P0 — 4 points" in text and "1. P1 — 4 points" in text
    assert "3. P2 — 1 point · 1 find · 0 votes stolen" in text
    assert "1 rotation ·" in lobby(game.room, LOOK).text


def test_a_settings_row_has_its_label_apart_from_its_minus_and_plus_keys():
    game = a_room().in_lobby()
    row = _settings_rows(game.room, LOOK)[0]
    assert [b.text for b in row] == ["−", "max players: 8", "+"]


def test_a_game_stopped_during_voting_closes_every_players_private_message_of_the_round():
    game = a_room().in_voting()
    players = [game.uid(i) for i in game.round.participants]
    game.do(StopGame(user_id=user(0)))
    out = outgoing_for(game.room, game.events, at(game))
    for uid in players:
        closed = next(o for o in out if o.key == dm_key(uid, 1))
        assert closed.buttons == [] and "the game ended" in closed.text


def test_skipping_the_reveal_does_not_turn_a_vote_that_timed_out_into_a_skipped_one():
    game = a_room().in_voting()
    voter = game.others()[0]
    game.vote(voter, game.storyteller())
    game.time_out()  # the others' votes time out
    game.do(Skip(user_id=user(0)))  # then the host skips the reveal
    out = outgoing_for(game.room, game.events, at(game))
    assert [o.key for o in out if o.chat_id == CHAT] == ["round:2"]  # the reveal stays as it was
    started = next(e for e in game.events if isinstance(e, RoundStarted))
    settled = reveal(game.room, at(game), started.after, settled=True)
    assert "Did not vote in time" in settled.text and "skipped" not in settled.text


def test_leaving_during_the_vote_is_said_before_the_reveal_it_brings():
    game = a_room().with_players(4).in_voting()
    *voting, leaving = game.others()
    for seat in voting:
        game.vote(seat, game.storyteller())
    events = game.do(Leave(user_id=user(leaving)))
    assert any(isinstance(e, RoundScored) for e in events)  # the vote closed without them
    shown = [m.text for m in outgoing_for(game.room, events, at(game)) if m.chat_id == CHAT]
    said = next(i for i, text in enumerate(shown) if text == f"P{leaving} left the game.")
    assert said < next(i for i, text in enumerate(shown) if "Reveal" in text)


def test_the_waiting_line_settles_while_players_act_and_a_phase_s_end_shows_at_once():
    game = a_room().with_players(4).in_hint().give_hint()
    first, *rest = game.others()
    game.do(PlayDecoy(user_id=user(first), card=game.hand(first)[0]))
    progress = next(o for o in outgoing_for(game.room, game.events, at(game)) if o.key == "round:1")
    assert progress.settle_until == game.now + SETTLE_S and "Waiting for" in progress.text
    assert all(o.settle_until is None for o in outgoing_for(game.room, game.events, at(game))
               if o.chat_id != CHAT)  # a player's own prompt answers at once  # fmt: skip
    for seat in rest:
        game.do(PlayDecoy(user_id=user(seat), card=game.hand(seat)[0]))
    out = outgoing_for(game.room, game.events, at(game))
    ended = next(o for o in out if o.key == "round:1")
    assert ended.settle_until is None and "All cards are on the table" in ended.text
    voter, *others = game.others()
    game.vote(voter, game.storyteller())
    table = next(o for o in outgoing_for(game.room, game.events, at(game)) if o.key == "table:1")
    assert table.settle_until == game.now + SETTLE_S


def test_a_decoy_chosen_when_time_ran_out_is_told_before_how_the_round_stands():
    # The round's message reads in the order things happened: the hint, the decoys chosen for
    # those who missed theirs, then where the round is now (voting, or a game that ended).
    game = a_room().with_players(4).in_decoys()
    player, *silent = game.others()
    game.do(PlayDecoy(user_id=game.uid(player), card=game.hand(player)[0]))
    game.time_out()
    assert phase_of(game.room) is Phase.VOTING
    for status in ("All cards are on the table", "The game ended during this round"):
        if status.startswith("The game ended"):
            game.do(StopGame(user_id=user(0)))
        text = round_message(game.room, at(game)).text
        hint, missed, now = (text.index(s) for s in ("Hint:", "No decoy came in time", status))
        assert hint < missed < now, text


@pytest.mark.parametrize("ends", [False, True], ids=["game goes on", "game abandoned"])
def test_a_decoy_player_who_leaves_during_the_vote_is_no_longer_told_to_vote(ends):
    game = a_room().with_players(3 if ends else 5).in_voting()
    leaver = game.others()[0]
    game.do(Leave(user_id=game.uid(leaver)))
    left = next(e for e in game.events if isinstance(e, SeatLeft))
    assert left.prompt_round == 1
    assert any(isinstance(e, GameAbandoned) for e in game.events) is ends
    out = outgoing_for(game.room, game.events, at(game))
    prompts = [o for o in out if o.key == dm_key(game.uid(leaver), 1)]
    assert prompts and all("Vote on the table" not in o.text for o in prompts)
    assert prompts[-1].buttons == [] and "you left the game" in prompts[-1].text
