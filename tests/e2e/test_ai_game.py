"""A game with AI players through the Procfile's processes: one person and two AI seats play
Hintrigue to the final standings, the AI seats acting from the workers on their own."""

from __future__ import annotations

from engine.games.guesswhat.model import State as GuessWhatState
from engine.model import Phase
from tests.e2e import test_guesswhat as gw
from tests.e2e.players import give_hint, play_decoy, seat_players, start, table, vote
from tests.e2e.procs import GROUP
from tests.harness import button, wait_for


def test_one_person_and_two_ai_seats_play_hintrigue_to_the_end(launch):
    stack = launch(timer_scale=0.05)
    [ann] = seat_players(stack, ["Ann"], "rotations=1 timers=off")
    # The lobby's buttons: two AI players in, one out, one in again.
    for label, answer, seated in [("Add AI", "An AI player took a seat.", "🤖 Iris"),
                                  ("Add AI", "An AI player took a seat.", "🤖 Otto"),
                                  ("Remove AI", "An AI player left.", None),
                                  ("Add AI", "An AI player took a seat.", "🤖 Otto")]:
        lobby = stack.wait_find(GROUP, "a new game is open")
        assert stack.press(ann, lobby, button(lobby, label)) == answer
        wait_for(lambda s=seated: (t := stack.find(GROUP, "a new game is open").plain_text)
                 and (s in t if s else "🤖 Otto" not in t), 20, f"the lobby after {label}")
    # fmt: skip
    start(stack, [ann])
    ai_hints = 0
    for number in range(1, 4):
        room = wait_for(lambda n=number: (r := stack.room()).round is not None
                        and r.round.no == n and r, 30, f"round {number}")  # fmt: skip
        assert room.round is not None
        teller = room.seats[room.round.storyteller]
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
        assert played.round is not None and played.round.hint
        # Every seat of the round put a card on the table and every other seat voted.
        assert len(played.round.table) == 3 and len(played.round.votes) == 2
    assert ai_hints == 2
    final = stack.wait_find(GROUP, "Game over")
    assert stack.room().phase is Phase.FINISHED
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
    assert room.phase is Phase.FINISHED and room.game == "guesswhat"
    assert "🤖 Iris" in final.plain_text and "🤖 Otto" in final.plain_text
    ai_ids = {s.user_id for s in room.seats if s.ai}
    assert not any(stack.world.bot_messages(user) for user in ai_ids)
