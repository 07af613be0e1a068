"""A game of Hunch! through the Procfile's processes, one person and two AI seats to the
final: `/newgame hunch`, AI seats from the lobby's button, the person's secrets, clues,
auction passes, bargains and hunches by buttons and typed text, the AI seats' by the workers on
their own. Each round's reveal is read as it stands; the final's victory points are the ones
the rules' words give for those reveals, exactly."""

from __future__ import annotations

import re
import time

from engine.games.hunch.model import START_COINS, Phase, RevealLine, State
from engine.model import Phase as TablePhase
from engine.model import SeatStatus
from tests.e2e.players import seat_for_game
from tests.e2e.procs import GROUP, ProcStack
from tests.harness import button, buttons, wait_for

CLUES = ("zq", "qx vv")


def vp_of(reveals: list[RevealLine], seats: int) -> list[int]:
    """+1 a correct hunch; +1 the owner of a secret guessed, +1 more when two or more did."""
    vp = [0] * seats
    for line in reveals:
        right = [guesser for guesser, _, correct in line.hunches if correct]
        for guesser in right:
            vp[guesser] += 1
        if right:
            vp[line.owner] += 1 + (len(right) >= 2)
    return vp


def test_one_person_and_two_ai_seats_play_hunch_to_the_final(launch):
    stack = launch(timer_scale=0.05)
    ann = seat_with_ai(stack)
    reveals = play_to_final(stack, ann)
    final = stack.wait_find(GROUP, "Game over")
    ended = stack.room().play
    assert isinstance(ended, State) and ended.phase is Phase.FINISHED
    reveals[ended.game_round] = list(ended.revealed)
    assert sorted(reveals) == [1, 2, 3], "every round's reveal was seen"
    expected = vp_of([line for number in (1, 2, 3) for line in reveals[number]], 3)
    assert [seat.vp for seat in ended.seats] == expected
    for seat, vp in zip(ended.seats, expected, strict=True):
        assert re.search(rf"{re.escape(seat.name)} — {vp} VP", final.plain_text), final.plain_text
    assert any(h for line in reveals[3] for h in line.hunches), "the AI seats placed hunches"


def seat_with_ai(stack: ProcStack, settings: str = "timers=off reveal=60",
                 shown: str = "timers off") -> int:  # fmt: skip
    """Ann opens a lobby of Hunch! with these settings (`shown` in the lobby once set), seats
    two AI players and starts it: Ann's user id."""
    [ann] = seat_for_game(stack, ["Ann"], "hu", "hunch", "Hunch!", settings, shown)
    for name in ("Iris", "Otto"):
        lobby = stack.wait_find(GROUP, "a new game is open")
        assert stack.press(ann, lobby, button(lobby, "Add AI")) == "An AI player took a seat."
        wait_for(lambda n=name: f"🤖 {n}" in stack.find(GROUP, "a new game is open").plain_text,
                 20)  # fmt: skip
    lobby = stack.wait_find(GROUP, "a new game is open")
    assert stack.press(ann, lobby, button(lobby, "Start")) == "The game starts!"
    return ann


def play_to_final(stack: ProcStack, ann: int) -> dict[int, list[RevealLine]]:
    """Ann plays each of her moves as it comes, until the game is over: each round's reveal
    as it stood while it was read."""
    reveals: dict[int, list[RevealLine]] = {}
    done: set[tuple[str, int, int]] = set()
    deadline = time.monotonic() + 150
    while stack.room().phase is TablePhase.PLAYING:
        assert time.monotonic() < deadline, "the game did not end"
        game = stack.room().play
        assert isinstance(game, State)
        number = game.game_round
        if game.revealed:
            reveals[number] = list(game.revealed)
        mark = (str(game.phase), number, game.round.no if game.round is not None else 0)
        if mark in done:
            time.sleep(0.05)
            continue
        if game.phase is Phase.SECRETS:
            for card in range(3):
                dm = wait_for(lambda k=card: (m := stack.find(ann, r"choose your secrets"))
                              and len(re.findall("✅", str(m.reply_markup))) == k and m, 20)
                assert stack.press(ann, dm, buttons(dm)[card * 3][1]).startswith("Secret: ")
        elif game.phase is Phase.CLUES:
            for clue in CLUES:
                assert stack.say(ann, ann, clue) == 200
                stack.wait_find(ann, rf"Round {number}\b.*«{clue}»")
        elif game.phase is Phase.AUCTION and game.round is not None and game.round.seat == 0:
            step = game.round.no
            auction = wait_for(lambda s=step: (m := stack.find(GROUP, r"auction")) and buttons(m)
                               and f".{s}." in buttons(m)[0][1] and m, 20, "Ann's bid")
            assert stack.press(ann, auction, button(auction, "Pass")) == "You passed."
        elif game.phase is Phase.BARGAIN and game.round is not None and game.round.seat == 0:
            dm = stack.wait_find(ann, r"bargain round, your choice")
            assert stack.press(ann, dm, button(dm, "Take 2")) == "You took 2 coins."
        elif game.phase is Phase.HUNCH and not game.seats[0].hunches:
            for placed in range(number):
                hunch(stack, ann, number, placed)
        else:
            time.sleep(0.05)
            continue
        done.add(mark)
    return reveals


def hunch(stack, ann: int, number: int, placed: int) -> None:
    """Ann's hunch on the first secret still open to her: its button, then a word."""
    target = re.compile(r"^(▶ )?🤖 \w+ \d$")
    dm = wait_for(lambda: (m := stack.find(ann, rf"Round {number}\b.*hunch phase"))
                  and len(re.findall("✅", str(m.reply_markup))) == placed and m, 20)
    secret = next(text for text, _ in buttons(dm) if target.match(text))
    if not secret.startswith("▶ "):
        assert stack.press(ann, dm, dict(buttons(dm))[secret]) == ""
        dm = wait_for(lambda: (m := stack.find(ann, rf"Round {number}\b.*hunch phase"))
                      and f"▶ {secret}" in dict(buttons(m)) and m, 20)
    word, data = next((t, d) for t, d in buttons(dm) if not t.startswith(("✅", "▶", "🤖")))
    assert stack.press(ann, dm, data) == f"Hunch: {word}"


def test_a_person_who_stops_acting_sits_out_and_the_ai_seats_do_not_play_on_alone(launch):
    """Timers on (a twentieth as long): Ann, the one person among two AI seats, does nothing
    after Start. Her secrets are chosen at random and her clues are not offered; with two
    whole phases missed she sits out, and then nobody but AI players is playing: the game
    ends, saying so, with no winner."""
    stack = launch(timer_scale=0.05)
    ann = seat_with_ai(stack, "reveal=12", "timers: clues")
    final = stack.wait_find(GROUP, "Game over", timeout=60)
    assert "Nobody but AI players is playing any more, and they do not play on alone: the " \
        "game is abandoned. No winner." in final.plain_text  # fmt: skip
    assert "Ann (sitting out)" in final.plain_text
    ended = stack.room().play
    assert isinstance(ended, State) and ended.phase is Phase.ABANDONED
    me = ended.seats[0]
    assert me.name == "Ann" and me.missed == 2 and me.status is SeatStatus.SPECTATING
    assert len([s for s in me.secrets if s.status == "hidden"]) == 3  # chosen for her
    assert me.texts == [] and me.hunches == [] and me.coins == START_COINS
    # She sat out as the game ended (in one command): her private chat says it is over, and
    # the clue prompt she left unanswered has no buttons any more.
    stack.wait_find(ann, "The game in E2E is over")
    prompt = stack.wait_find(ann, r"Round 1 in E2E: the game ended")
    assert prompt.reply_markup in (None, {}) or not buttons(prompt)
