"""Wunchunk played only through Telegram updates POSTed to the webhook: the lobby's game and
its settings, the board in the group (one picture, edited turn by turn), each turn built in
private by typing cells or by colour, row and place buttons, with Undo, End turn and Pass, the
refusals with their reasons (no such cell, a taken cell, too many stones, the balancing rule),
and the end when everybody passed, with the winners by the score lists."""

from __future__ import annotations

import re
import time

from engine.games.wunchunk import board as hexes
from engine.games.wunchunk.model import State
from tests.harness import (
    GROUP,
    Stack,
    button,
    buttons,
    join_lobby,
    play_state,
    wait_for,
)
from tgbot import pictures
from tgbot.games.wunchunk.pictures import Stone, WunchunkBoardPicture

NAMES = ["Ann", "Bob"]


def state(stack: Stack) -> State:
    return play_state(stack, State)


def turn_prompt(stack: Stack, users: list[int], number: int):
    """The seat on turn `number`, and its private message with buttons."""

    def found():
        for user in users:
            prompt = stack.find(user, rf"Turn {number}\b.*your turn")
            if prompt and buttons(prompt):
                return user, prompt
        return None

    return wait_for(found, what=f"the turn {number} message")


def shows(stack: Stack, message, picture) -> bool:
    """Whether a photo message shows exactly this picture (drawn as delivery draws it)."""
    png = pictures.render(picture, "en")
    deadline = time.monotonic() + 10
    while stack.world.photo_bytes(message) != png:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def board_picture(game: State, pending: list[tuple[hexes.Cell, int]] = ()) -> WunchunkBoardPicture:
    last = {cell for cell, _ in game.last_stones()}
    stones = [Stone(cell=c, colour=k, mark="last" if c in last else "")
              for c, k in game.stones().items()]  # fmt: skip
    stones += [Stone(cell=c, colour=k, mark="pending") for c, k in pending]
    return WunchunkBoardPicture(size=game.size, stones=stones)


def name(cell: hexes.Cell) -> str:
    return hexes.cell_name(cell, 5)


def lone_cell(game: State, away_from: list[hexes.Cell]) -> hexes.Cell:
    """An empty cell touching no stone and none of `away_from`."""
    stones = game.stones()
    for cell in hexes.cells(game.size):
        near = {cell, *hexes.neighbours(cell, game.size)}
        if not near & set(stones) and not near & set(away_from):
            return cell
    raise AssertionError("no lone cell")


def test_two_players_play_wunchunk_in_the_group_and_in_private(stack: Stack) -> None:
    users = join_lobby(stack, NAMES, "wu", "/newgame wunchunk")
    host = users[0]
    lobby = stack.find(GROUP, "a new game is open")
    assert "Wunchunk" in lobby.plain_text and "2–4 players" in lobby.plain_text
    stack.say(host, GROUP, "/settings size=4")
    wait_for(lambda: stack.find(GROUP, r"board size must be 5–8|size must be 5–8"),
             what="a board size refused")  # fmt: skip
    stack.say(host, GROUP, "/settings size=5 timers=off reveal=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "board of 5" in m.plain_text and m, what="the settings")  # fmt: skip
    assert stack.answer_to(stack.press(host, lobby, button(lobby, "Start"))) == "The game starts!"

    first, dm = turn_prompt(stack, users, 1)
    other = next(u for u in users if u != first)
    game = state(stack)
    assert game.size == 5 and len(game.stones()) == 4
    me = users.index(first)
    group = wait_for(lambda: stack.find(GROUP, r"Wunchunk</b>|Wunchunk · turn 1"), what="board")
    group = wait_for(lambda: stack.find(GROUP, r"Wunchunk · turn 1 · board of 5"), what="board")
    assert f"{NAMES[me]} plays: up to 1 stone" in group.plain_text
    assert "1 chunk · 0 crumbs" in group.plain_text
    assert shows(stack, group, board_picture(game))
    assert shows(stack, dm, board_picture(game))

    # refusals, each with its reason; none changes the turn
    stack.say(first, first, "z9")
    wait_for(lambda: stack.find(first, "That is not a cell of this board"), what="no such cell")
    taken = next(c for c, k in game.stones().items())
    stack.say(first, first, name(taken))
    wait_for(lambda: stack.find(first, rf"{name(taken)} is taken"), what="a taken cell")
    crumb = lone_cell(game, [])
    spare = lone_cell(game, [crumb])
    stack.say(first, first, f"{name(crumb)}, {name(spare)}")
    wait_for(lambda: stack.find(first, "this turn may place 1 at most"), what="too many stones")
    assert state(stack).round.pending == []

    # a crumb of its own colour, typed, then the turn ended by its button
    stack.say(first, first, name(crumb).upper())
    dm = wait_for(lambda: (m := stack.find(first, r"Turn 1\b.*your turn"))
                  and "Placed so far" in m.plain_text and m, what="the pending stone")  # fmt: skip
    assert shows(stack, dm, board_picture(state(stack), [(crumb, me)]))
    assert name(crumb) not in stack.find(GROUP, r"Wunchunk · turn").plain_text, "never pending"
    assert stack.answer_to(stack.press(first, dm, button(dm, "End turn"))) == "Turn played."
    wait_for(lambda: stack.find(first, rf"Turn 1\b.*you placed {name(crumb)}\."), what="closed")

    # the other player: a stone of the first player's colour by buttons, undone, then a pass
    second, dm = turn_prompt(stack, users, 2)
    assert second == other
    group = wait_for(lambda: stack.find(GROUP, r"Wunchunk · turn 2"), what="the board, turn 2")
    assert f"Last stones: {name(crumb)}." in group.plain_text.replace("🔴", "").replace("🔵", "")
    game = state(stack)
    assert shows(stack, group, board_picture(game))
    colour = f"{me + 1}"
    assert stack.answer_to(stack.press(other, dm, button(dm, f" {colour}"))) == ""
    dm = wait_for(lambda: (m := stack.find(other, r"Turn 2\b")) and
                  any(t.startswith("✅") and t.endswith(f" {colour}") for t, _ in buttons(m))
                  and m, what="the colour ticked")  # fmt: skip
    target = lone_cell(game, [])
    row = name(target)[0]
    assert stack.answer_to(stack.press(other, dm, button(dm, row))) == ""
    places = wait_for(lambda: (m := stack.find(other, rf"Turn 2\b.*Row {row}"))
                      and m, what="the places")  # fmt: skip
    assert stack.answer_to(stack.press(other, places, button(places, name(target)))).endswith(
        f"on {name(target)}."
    )
    dm = wait_for(lambda: (m := stack.find(other, r"Turn 2\b.*Placed so far")) and m,
                  what="the pending stone")  # fmt: skip
    assert shows(stack, dm, board_picture(game, [(target, me)]))
    assert stack.answer_to(stack.press(other, dm, button(dm, "Undo"))) == "Stone taken back."
    dm = wait_for(lambda: (m := stack.find(other, r"Turn 2\b.*your turn"))
                  and "Placed so far" not in m.plain_text
                  and any("Pass" in t for t, _ in buttons(m)) and m)  # fmt: skip
    assert stack.answer_to(stack.press(other, dm, button(dm, "Pass"))) == "You passed."

    # the first player's second turn: joining its crumb would make a second chunk
    third, dm = turn_prompt(stack, users, 3)
    assert third == first and "Balancing rule" in dm.plain_text
    joined = next(c for c in hexes.neighbours(crumb, 5) if c not in state(stack).stones())
    stack.say(first, first, name(joined))
    dm = wait_for(lambda: (m := stack.find(first, r"Turn 3\b.*Placed so far")) and m)
    refused = stack.answer_to(stack.press(first, dm, button(dm, "End turn")))
    assert refused.startswith("Balancing rule: this turn may not end with more chunks"), refused
    assert state(stack).round.no == 3 and len(state(stack).round.pending) == 1
    assert stack.answer_to(stack.press(first, dm, button(dm, "Undo"))) == "Stone taken back."
    dm = wait_for(lambda: (m := stack.find(first, r"Turn 3\b.*your turn"))
                  and any("Pass" in t for t, _ in buttons(m)) and m)  # fmt: skip
    assert stack.answer_to(stack.press(first, dm, button(dm, "Pass"))) == "You passed."

    # both passed one after another (turn 2 and 3): the game is over
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the final")
    assert re.search(r"wins!|win together!", final.plain_text)
    assert "Standings" in final.plain_text and "chunk" in final.plain_text
    board = stack.find(GROUP, r"Wunchunk · turn")
    assert "Everybody passed" in board.plain_text or "Game over" in final.plain_text


def test_one_person_plays_a_whole_game_against_an_ai_player(stack: Stack) -> None:
    (ann,) = join_lobby(stack, ["Ann"], "wa", "/newgame wunchunk")
    lobby = stack.find(GROUP, "a new game is open")
    assert stack.answer_to(stack.press(ann, lobby, button(lobby, "Add AI"))) == \
        "An AI player took a seat."  # fmt: skip
    stack.say(ann, GROUP, "/settings size=5 timers=off reveal=2 level=1")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "board of 5" in m.plain_text and "Iris" in m.plain_text and m)
    assert stack.answer_to(stack.press(ann, lobby, button(lobby, "Start"))) == "The game starts!"
    passed: set[int] = set()
    deadline = time.monotonic() + 90
    while stack.find(GROUP, "Game over") is None:
        assert time.monotonic() < deadline, "the game did not end"
        game = state(stack)
        rnd = game.round
        if rnd is not None and rnd.seat == 0 and rnd.no not in passed and game.phase == "turn":
            prompt = stack.find(ann, rf"Turn {rnd.no}\b.*your turn")
            if prompt is not None and any("Pass" in t for t, _ in buttons(prompt)):
                assert stack.answer_to(stack.press(ann, prompt, button(prompt, "Pass"))) == \
                    "You passed."  # fmt: skip
                passed.add(rnd.no)
        time.sleep(0.05)
    final = stack.find(GROUP, "Game over")
    assert "Iris" in final.plain_text and "Ann" in final.plain_text
    ended = state(stack)
    assert ended.seats[1].turns >= 1 and len(passed) >= 1
    placed_by_ai = len(ended.stones()) - 4
    assert placed_by_ai > 0, "the AI placed stones"


def test_turns_that_time_out_pass_and_end_the_game(stack: Stack) -> None:
    users = join_lobby(stack, NAMES, "wt", "/newgame wunchunk")
    host = users[0]
    stack.say(host, GROUP, "/settings size=5 turn=15 reveal=2")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "a new game is open"))
                     and "turns " in m.plain_text and m, what="the timed settings")  # fmt: skip
    assert stack.answer_to(stack.press(host, lobby, button(lobby, "Start"))) == "The game starts!"
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the end by timeouts")
    assert "Standings" in final.plain_text
    for user in users:
        wait_for(lambda u=user: stack.find(u, r"Turn \d+\b.*time ran out, so your turn passed"),
                 what="the turn closed by its timer")  # fmt: skip
    ended = state(stack)
    assert ended.end_reason == "all_passed" and len(ended.stones()) == 4
    assert all(seat.missed == 1 for seat in ended.seats)


def test_a_game_in_german_goes_on_when_one_of_three_leaves_and_ends_when_two_have(
    stack: Stack,
) -> None:
    users = join_lobby(stack, ["Ann", "Bob", "Cy"], "wl", "/newgame wunchunk")
    host = users[0]
    stack.say(host, GROUP, "/language de")
    stack.say(host, GROUP, "/settings timers=off size=6")
    lobby = wait_for(lambda: (m := stack.find(GROUP, "ein neues Spiel ist offen"))
                     and "Timer aus" in m.plain_text and m, what="the German lobby")  # fmt: skip
    assert "2–4 Spieler" in lobby.plain_text and "Brett mit Seitenlänge 6" in lobby.plain_text
    stack.press(host, lobby, button(lobby, "Start"))
    board = wait_for(lambda: stack.find(GROUP, r"Wunchunk · Zug 1 · "), what="the German board")
    assert "Brocken" in board.plain_text and "Krümel" in board.plain_text
    on_turn = state(stack).round.seat
    leaver = users[on_turn]
    prompt = wait_for(lambda: stack.find(leaver, r"Zug 1\b"), what="the German turn message")
    assert any("Passen" in t for t, _ in buttons(prompt))
    stack.say(leaver, GROUP, "/leave")
    wait_for(lambda: stack.find(GROUP, f"{['Ann', 'Bob', 'Cy'][on_turn]} hat das Spiel verlassen"),
             what="the group told")  # fmt: skip
    wait_for(lambda: (m := stack.find(leaver, r"Zug 1\b")) and not buttons(m),
             what="the leaver's turn message closed")  # fmt: skip
    game = wait_for(lambda: (g := state(stack)).round.seat != on_turn and g, what="next turn")
    assert game.phase == "turn" and game.round.no == 2
    second = users[game.round.seat]
    stack.say(second, GROUP, "/leave")
    final = wait_for(lambda: stack.find(GROUP, "Weniger als 2 Spieler übrig"),
                     what="abandoned below two")  # fmt: skip
    assert "Kein Sieger" in final.plain_text
    assert state(stack).end_reason == "too_few_players"
