"""A game with AI players through the Procfile's processes: one person and two AI seats play
Hintrigue, Guess What! and Hues and Cues to the final standings, the AI seats acting from the
workers on their own."""

from __future__ import annotations

import time

from engine.games.guesswhat.model import State as GuessWhatState
from engine.games.hintrigue.model import round_of
from engine.games.huescues import board
from engine.games.huescues.model import Phase as HuesPhase
from engine.games.huescues.model import State as HuesState
from engine.model import Phase as TablePhase
from tests.e2e import test_guesswhat as gw
from tests.e2e import test_huescues as hc
from tests.e2e.players import give_hint, play_decoy, seat_players, start, table, vote
from tests.e2e.procs import GROUP
from tests.harness import button, wait_for
from workers.ai import huescues


def test_one_person_and_two_ai_seats_play_hintrigue_to_the_end(launch):
    stack = launch(timer_scale=0.05)
    [ann] = seat_players(stack, ["Ann"], "rotations=1 timers=off")
    # The lobby's buttons: two AI players in, one out, one in again.
    for label, answer, seated in [
        ("Add AI", "An AI player took a seat.", "🤖 Iris"),
        ("Add AI", "An AI player took a seat.", "🤖 Otto"),
        ("Remove AI", "An AI player left.", None),
        ("Add AI", "An AI player took a seat.", "🤖 Otto"),
    ]:
        lobby = stack.wait_find(GROUP, "a new game is open")
        assert stack.press(ann, lobby, button(lobby, label)) == answer
        wait_for(
            lambda s=seated: (
                (t := stack.find(GROUP, "a new game is open").plain_text)
                and (s in t if s else "🤖 Otto" not in t)
            ),
            20,
            f"the lobby after {label}",
        )
    # fmt: skip
    start(stack, [ann])
    ai_hints = 0
    for number in range(1, 4):
        room = wait_for(lambda n=number: round_of(r := stack.room()) is not None
                        and round_of(r).no == n and r, 30, f"round {number}")  # fmt: skip
        assert round_of(room) is not None
        teller = room.seats[round_of(room).storyteller]
        own = None
        if teller.user_id == ann:
            give_hint(stack, [ann], number)
        else:
            ai_hints += 1
            own = play_decoy(stack, ann, number)
        message, scenes = table(stack, number)
        if own is not None:
            vote(stack, ann, message, next(d for text, d in scenes.items() if text != own))
        stack.wait_find(GROUP, rf"Reveal · round {number}\b")
        played = stack.room()
        assert round_of(played) is not None and round_of(played).hint
        # Every seat of the round put a card on the table and every other seat voted.
        assert len(round_of(played).table) == 3 and len(round_of(played).votes) == 2
    assert ai_hints == 2
    final = stack.wait_find(GROUP, "Game over")
    assert stack.room().phase is TablePhase.FINISHED
    assert "🤖 Iris" in final.plain_text and "🤖 Otto" in final.plain_text
    # An AI seat gets no private message.
    ai_ids = {s.user_id for s in stack.room().seats if s.ai}
    assert not any(stack.world.bot_messages(user) for user in ai_ids)
    assert stack.world.too_many_requests == []


def test_one_person_and_two_ai_seats_play_guess_what_to_the_end(launch):
    stack = launch(timer_scale=0.05)
    ann = stack.world.add_user(first_name="Ann", username="g0").id
    assert stack.deliver(stack.world.start_private(ann)) == 200
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame guesswhat")
    stack.wait_find(GROUP, "Guess What! — a new game is open")
    stack.say(ann, GROUP, "/settings rotations=1 timers=off target=20 ai=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "🤖 Otto" in m.plain_text and m, 20, "the AI seats")  # fmt: skip
    assert stack.press(ann, lobby, button(lobby, "Start")) == "The game starts!"
    clues = 0
    for number in range(1, 4):
        state = wait_for(lambda n=number: isinstance(s := stack.room().play, GuessWhatState)
                         and s.round is not None and s.round.no == n and s, 30,
                         f"turn {number}")  # fmt: skip
        assert state.round is not None
        if state.seats[state.round.active].user_id == ann:
            gw.pick(stack, ann, rf"Round {number}\b.*it is your turn", 0)
            assert stack.say(ann, ann, gw.CLUE) == 200
        else:
            clues += 1
            prompt = gw.pick(stack, ann, rf"Round {number}\b.*clue is", 0)
            assert stack.press(ann, prompt, button(prompt, "Confirm")) == "Your guess is recorded."
        stack.wait_find(GROUP, rf"Round {number}: the answer")
    assert clues == 2
    final = stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.phase is TablePhase.FINISHED and room.game == "guesswhat"
    assert "🤖 Iris" in final.plain_text and "🤖 Otto" in final.plain_text
    ai_ids = {s.user_id for s in room.seats if s.ai}
    assert not any(stack.world.bot_messages(user) for user in ai_ids)


WORDS = ["zeppelin", "walrus", "kumquat", "origami", "tundra", "velvet", "igloo", "meadow"]
"""Ann's cues in Hues and Cues, one per round (tie-break rounds may follow the regular ones)."""


def test_one_person_and_two_ai_seats_play_hues_and_cues_to_the_end(launch):
    stack = launch(timer_scale=0.05)
    ann = stack.world.add_user(first_name="Ann", username="h0").id
    assert stack.deliver(stack.world.start_private(ann)) == 200
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame huescues")
    stack.wait_find(GROUP, "Hues and Cues — a new game is open")
    stack.say(ann, GROUP, "/settings turns=1 timers=off ai=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "🤖 Otto" in m.plain_text and m, 20, "the AI seats")  # fmt: skip
    assert stack.press(ann, lobby, button(lobby, "Start")) == "The game starts!"
    done: set[tuple[int, str]] = set()
    ai_cues = rounds = 0
    deadline = time.monotonic() + 120
    while (room := stack.room()).phase not in (TablePhase.FINISHED, TablePhase.ABANDONED):
        state = room.play
        assert isinstance(state, HuesState) and state.round is not None
        assert time.monotonic() < deadline, f"the game never ended: {state}, {done}"
        turn, number = state.round, state.round.no
        me = state.seat_of(ann)
        moment = (number, state.phase.value)
        if moment in done or (me not in state.waiting_for() and state.phase is not
                              HuesPhase.REVEAL):  # fmt: skip
            time.sleep(0.05)
            continue
        done.add(moment)
        if state.phase is HuesPhase.REVEAL:
            rounds += 1
            if turn.giver != me:
                ai_cues += 1
                assert turn.cues and (len(turn.cues) == 2 or turn.second_skipped)
            # Every guesser's cone is down, the AI seats' too.
            assert len(turn.cones) == len(state.guessers())
        elif state.phase is HuesPhase.CUE:
            giver, prompt = hc.giver_prompt(stack, [ann], number)
            colour = state.card_cells()[0]
            stack.press(giver, prompt, button(prompt, f"1 · {board.name(colour)}"))
            wait_for(lambda n=number, c=colour: f"Your colour: {board.name(c)}" in stack.find(
                ann, rf"Round {n}\b.*you give the cues").plain_text, 20, "chosen")  # fmt: skip
            assert stack.say(ann, ann, WORDS[number - 1]) == 200  # none of them the AI's
        elif state.phase is HuesPhase.SECOND_CUE:
            prompt = stack.wait_find(ann, rf"Round {number}\b.*first cones are down")
            assert stack.press(ann, prompt, button(prompt, "No second cue")) == (
                "No second cue: the colour is revealed in the group."
            )
        elif state.phase is HuesPhase.GUESS:
            cell = huescues.place_first(turn.cues[0], number)
            hc.place(stack, ann, cell, rf"Round {number}\b.*cue: «{turn.cues[0]}»\n")
        else:
            cones = list(turn.cones.values())
            cell = huescues.place_second(turn.cues[0], turn.cues[1], cones, number)
            hc.place(stack, ann, cell, rf"Round {number}\b.*cues: «{turn.cues[0]}» · «")
    final = stack.wait_find(GROUP, "Game over")
    room = stack.room()
    assert room.game == "huescues" and rounds >= 3 and ai_cues >= 2
    assert "🤖 Iris" in final.plain_text and "🤖 Otto" in final.plain_text
    ai_ids = {s.user_id for s in room.seats if s.ai}
    assert not any(stack.world.bot_messages(user) for user in ai_ids)
    assert stack.world.too_many_requests == []
