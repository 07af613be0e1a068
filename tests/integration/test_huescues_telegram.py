"""Hues and Cues played only through Telegram updates POSTed to the webhook: the lobby's game,
the board in the group, the card and the cues in private (a refused cue and its reason, "No
second cue"), cones typed in several forms or chosen by row and column with their close-up,
the second-cone refusal, the reveal with every cone and the frame, the points and the final."""

from __future__ import annotations

import io
import re
import time

from PIL import Image

from engine.games.huescues import board
from engine.games.huescues.model import State
from engine.games.registry import GAMES
from engine.store import Store
from tests.harness import (
    GROUP,
    Stack,
    button,
    buttons,
    join_lobby,
    play_state,
    prompt_of,
    start_untimed,
    stop_and_wait_closed,
    wait_for,
)
from tgbot import pictures
from tgbot.games.huescues.picture_parts import Cone
from tgbot.games.huescues.pictures import HuesBoardPicture, HuesCardPicture, HuesCloseupPicture
from tgbot.table.handlers.group import SKIP_GRACE

NAMES = ["Ann", "Bob", "Cy"]
CYRILLIC = {"A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О",
            "P": "Р"}  # fmt: skip


def seat_players(stack: Stack, command: str = "/newgame huescues") -> list[int]:
    """Three players open private chats; one opens a lobby of Hues and Cues, the others join."""
    return join_lobby(stack, NAMES, "hc", command)


def state(stack: Stack) -> State:
    return play_state(stack, State)


def shows(stack: Stack, message, picture) -> bool:
    """Whether a photo message shows exactly this picture (drawn as delivery draws it), once
    its picture is in: a new picture is uploaded into its message, sent as text just before."""
    png = pictures.render(picture, "en")
    deadline = time.monotonic() + 10
    while stack.world.photo_bytes(message) != png:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def points(colour: int, cells: list[int]) -> int:
    """A guesser's points by the rules' words: 3, 2, 1 at distance 0, 1, 2."""

    def distance(a: int, b: int) -> int:
        return max(abs(a // 30 - b // 30), abs(a % 30 - b % 30))

    return sum({0: 3, 1: 2, 2: 1}.get(distance(colour, cell), 0) for cell in cells)


def giver_points(colour: int, cells: list[int], guessers: int) -> int:
    close = sum(max(abs(colour // 30 - c // 30), abs(colour % 30 - c % 30)) <= 1 for c in cells)
    return min(9, close * (2 if guessers == 2 else 1))


def giver_prompt(stack: Stack, users: list[int], number: int):
    return prompt_of(stack, users, number, "you give the cues", "the cue giver")


def neighbour(cell: int, rows: int, columns: int) -> int:
    """A cell `rows` and `columns` away, kept on the board."""
    row = min(15, max(0, cell // 30 + rows)) if 0 <= cell // 30 + rows <= 15 else cell // 30 - rows
    column = cell % 30 + columns if 0 <= cell % 30 + columns <= 29 else cell % 30 - columns
    return board.at(row, column)


def typed_forms(cell: int, number: int) -> str:
    """A cell typed the way round `number` types it: `h15`, `15H`, or with Cyrillic letters."""
    name = board.name(cell)
    letter, digits = name[0], name[1:]
    if number == 1:
        return name.lower()
    if number == 2:
        return f"{digits}{letter}"
    return f"{CYRILLIC.get(letter, letter)}{digits}"


def place_by_typing(stack: Stack, user: int, cell: int, number: int, pattern: str) -> None:
    stack.say(user, user, typed_forms(cell, number))
    name = board.name(cell)
    closeup = wait_for(lambda: (m := stack.find(user, pattern)) and f"You chose {name}." in
                       m.plain_text and m.photo and m, what="the close-up")  # fmt: skip
    assert (
        stack.answer_to(stack.press(user, closeup, button(closeup, "Confirm")))
        == f"Your cone is on {name}."
    )
    wait_for(lambda: stack.find(user, rf"Your cone is on {name}: final"), what="the cone placed")


def place_by_keyboard(stack: Stack, user: int, cell: int, pattern: str, first: dict[int, int],
                      detour: int | None = None) -> None:  # fmt: skip
    """Row, then column; with `detour`, a first choice changed before the real one."""
    shown = [Cone(cell=c, seat=s + 1) for s, c in sorted(first.items())]
    for target in ([detour] if detour is not None else []) + [cell]:
        prompt = wait_for(lambda: (m := stack.find(user, pattern)) and
                          any(t == "P" for t, _ in buttons(m)) and m, what="the rows")  # fmt: skip
        name = board.name(target)
        assert stack.answer_to(stack.press(user, prompt, button(prompt, name[0]))) == ""
        columns = wait_for(lambda n=name: (m := stack.find(user, pattern)) and
                           any(t.endswith(n) for t, _ in buttons(m)) and m,
                           what="the columns")  # fmt: skip
        assert f"Row {name[0]}" in columns.plain_text and button(columns, "Rows")
        data = next(d for t, d in buttons(columns) if t.lstrip("·") == name)
        assert (
            stack.answer_to(stack.press(user, columns, data)) == f"{name}: confirm it or change it."
        )
        closeup = wait_for(lambda n=name: (m := stack.find(user, pattern)) and
                           f"You chose {n}." in m.plain_text and m,
                           what="the close-up")  # fmt: skip
        assert shows(stack, closeup, HuesCloseupPicture(cell=target, cones=shown))
        taken = [t for t, _ in buttons(columns) if t.startswith("·")]
        assert taken == [board.name(c) for c in sorted(first.values()) if c // 30 == target // 30]

        if target == detour:
            assert stack.answer_to(stack.press(user, closeup, button(closeup, "Change"))) == ""
    closeup = stack.find(user, pattern)
    assert (
        stack.answer_to(stack.press(user, closeup, button(closeup, "Confirm")))
        == f"Your cone is on {board.name(cell)}."
    )


CUES = [("lavender", "candy floss"), ("pig", None), ("forest", "deep moss")]


def play_round(stack: Stack, users: list[int], number: int) -> dict[int, int]:
    """One round: the cue giver takes its card's first colour; the first guesser types its
    cells, the second uses the keyboard; round 2 has no second cue. Returns the points
    computed by the rules' words."""
    giver, dm = giver_prompt(stack, users, number)
    card = state(stack).card_cells()
    assert len(card) == 4 and shows(stack, dm, HuesCardPicture(cells=card))
    colour = card[0]
    assert (
        stack.answer_to(stack.press(giver, dm, button(dm, f"1 · {board.name(colour)}")))
        == f"Colour {board.name(colour)} chosen. Now send your cue here."
    )
    wait_for(
        lambda: (
            (m := stack.find(giver, rf"Round {number}\b.*you give the cues"))
            and f"Your colour: {board.name(colour)}" in m.plain_text
        ),
        what="the colour ticked",
    )
    first_cue, second_cue = CUES[number - 1]
    if number == 1:  # refused cues, each with its reason
        stack.say(giver, giver, "Grey")
        wait_for(lambda: stack.find(giver, "“Grey” is a basic colour word"), what="a refusal")
        stack.say(giver, giver, "H15")
        wait_for(lambda: stack.find(giver, "“H15” could name a place on the board"))
        stack.say(giver, giver, "candy floss")
        wait_for(lambda: stack.find(giver, "The first cue is one word only."))
    stack.say(giver, giver, first_cue)
    wait_for(lambda: stack.find(GROUP, rf"round {number} · .*Cue: «{first_cue}»"), what="the cue")
    if number == 3:  # an earlier game's cue may not come back
        assert stack.find(giver, "was already a cue") is None
    typist, clicker = [u for u in users if u != giver]
    seat = {u: users.index(u) for u in users}
    first = {
        typist: neighbour(colour, 0, 1) if number != 1 else colour,
        clicker: neighbour(colour, 2, 0),
    }
    pattern = rf"Round {number}\b.*cue: «{first_cue}»$|Round {number}\b.*cue: «{first_cue}»\n"
    place_by_typing(stack, typist, first[typist], number, pattern)
    placed = wait_for(lambda: stack.find(GROUP, rf"round {number} · .*Placed: "), what="who placed")
    assert f"Placed: {NAMES[users.index(typist)]}." in placed.plain_text
    assert f"Waiting for {NAMES[users.index(clicker)]}." in placed.plain_text
    assert board.name(first[typist]) not in placed.plain_text, "never where"
    place_by_keyboard(
        stack,
        clicker,
        first[clicker],
        pattern,
        {},
        detour=neighbour(colour, 5, 5) if number == 1 else None,
    )
    cones = {seat[u]: c for u, c in first.items()}
    shown = [Cone(cell=c, seat=s + 1) for s, c in sorted(cones.items())]
    group = wait_for(
        lambda: (
            (m := stack.find(GROUP, rf"round {number} · ")) and "First cones" in m.plain_text and m
        ),
        what="the first cones",
    )
    assert shows(stack, group, HuesBoardPicture(cones=shown))
    legend = " · ".join(f"{s + 1} {NAMES[s]} {board.name(c)}" for s, c in sorted(cones.items()))
    assert f"First cones: {legend}\n" in group.plain_text, "the caption says what the board shows"
    assert board.name(colour) not in group.plain_text.replace(legend, ""), "never the colour"
    giver_dm = wait_for(lambda: stack.find(giver, rf"Round {number}\b.*first cones are down"))
    assert shows(stack, giver_dm, HuesBoardPicture(cones=shown, frame=colour))
    second: dict[int, int] = {}
    if second_cue is None:
        assert (
            stack.answer_to(stack.press(giver, giver_dm, button(giver_dm, "No second cue")))
            == "No second cue: the colour is revealed in the group."
        )
    else:
        stack.say(giver, giver, second_cue)
        pattern2 = rf"Round {number}\b.*«{first_cue}» · «{second_cue}»"
        wait_for(lambda: stack.find(typist, pattern2), what="the second prompt")
        stack.say(typist, typist, board.name(first[clicker]))  # a first cone's cell
        wait_for(lambda: stack.find(typist, "A first cone stands on that cell"), what="refused")
        second = {
            typist: colour if number != 1 else neighbour(colour, 1, 0),
            clicker: neighbour(colour, 1, 1),
        }
        place_by_typing(stack, typist, second[typist], number, pattern2)
        place_by_keyboard(stack, clicker, second[clicker], pattern2, cones)
        kept = stack.find(typist, rf"Round {number}\b.*Your cone is on {board.name(first[typist])}")
        assert kept is not None, "the first guess's message stays as it was"
    # A new picture goes as its text first, then uploaded into it: wait for the picture.
    reveal = wait_for(lambda: (m := stack.find(GROUP, rf"Round {number}: the colour was "
                                               f"{board.name(colour)}")) and m.photo and m,
                      what="the reveal with its picture")  # fmt: skip
    everything = shown + [
        Cone(cell=c, seat=seat[u] + 1, second=True)
        for u, c in sorted(second.items(), key=lambda i: seat[i[0]])
    ]
    assert shows(stack, reveal, HuesBoardPicture(cones=everything, frame=colour))
    gained = {u: points(colour, [first[u], *([second[u]] if u in second else [])])
              for u in (typist, clicker)}  # fmt: skip
    gained[giver] = giver_points(colour, [*first.values(), *second.values()], 2)
    scored = wait_for(lambda: stack.find(GROUP, rf"Points of round {number}"), what="the points")
    for user, n in gained.items():
        assert (f"{NAMES[users.index(user)]} +{n}" in scored.plain_text) == (n > 0)
    return gained


def test_a_whole_game_of_hues_and_cues_through_the_webhook(stack: Stack):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings turns=1 timers=off pictures=off")
    lobby = wait_for(
        lambda: (
            (found := stack.find(GROUP, "a new game is open"))
            and "timers off" in found.plain_text
            and found
        ),
        what="the settings",
    )
    assert "each gives the cues 1 time" in lobby.plain_text
    stack.say(users[1], GROUP, "/rules")
    rules = wait_for(lambda: stack.find(GROUP, "How to play Hues and Cues"))
    assert rules.plain_text.rstrip().splitlines()[-4] == "Differences from the printed game"
    stack.say(users[2], GROUP, "/help")
    assert wait_for(lambda: stack.find(GROUP, "free=on|off"), what="the game's /help")
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    # The board is a picture even with pictures off (uploaded into its text, sent first).
    board_message = wait_for(lambda: (m := stack.find(GROUP, r"round 1 · cues by")) and m.photo
                             and m, what="the board with its picture")  # fmt: skip
    assert shows(stack, board_message, HuesBoardPicture())
    expected = dict.fromkeys(users, 0)
    for number in range(1, 4):
        for user, gained in play_round(stack, users, number).items():
            expected[user] += gained
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the final standings")
    room = Store(stack.client, GAMES).load(GROUP)
    assert room is not None and room.game == "huescues"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    tied = list(expected.values()).count(max(expected.values())) > 1
    assert room.phase.value == "finished" and (room.play.extra_done > 0) == tied
    if not tied:
        for seat in room.play.seats:
            assert re.search(rf"{seat.score} points? · {seat.exact} exact hits?", final.plain_text)
    assert final.photo is None, "pictures off: the final is text"
    stack.say(users[1], GROUP, "/score")
    assert wait_for(lambda: stack.find(GROUP, r"Standings.*exact hit"), what="/score")
    stack.say(users[2], GROUP, "/stats")
    stats = wait_for(lambda: stack.find(GROUP, "Hues and Cues</b>:|Hues and Cues:"), what="/stats")
    assert "exact hit" in stats.plain_text and "best round" in stats.plain_text
    # Every picture of the game (cards, boards, close-ups, reveals) is a valid PNG under 300 KB,
    # the boards at least 1280 pixels wide.
    uploads = list(stack.world.uploads.values())
    assert len(uploads) >= 10
    widths = []
    for upload in uploads:
        with Image.open(io.BytesIO(upload.content)) as image:
            image.verify()
            assert image.format == "PNG"
            widths.append(image.width)
        assert len(upload.content) < pictures.MAX_BYTES
    assert max(widths) >= 1280


def test_the_game_button_walks_to_hues_and_cues_and_rules_follow_it(stack: Stack):
    users = seat_players(stack, "/newgame")  # a new group's first lobby: Hintrigue
    lobby = stack.find(GROUP, "a new game is open")
    assert lobby.plain_text.startswith("Hintrigue — a new game is open!")
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Game:")))
        == "The lobby is for Guess What! now."
    )
    lobby = wait_for(lambda: stack.find(GROUP, "Guess What!.*a new game is open"))
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Game:")))
        == "The lobby is for Hues and Cues now."
    )
    lobby = wait_for(lambda: stack.find(GROUP, "Hues and Cues — a new game is open"))
    assert "everybody must open" not in lobby.plain_text.lower()
    stack.deliver(stack.world.start_private(users[1]))  # /start in private: where it stands
    assert wait_for(lambda: stack.find(users[1], "you give your cues and place your cones here"))
    stack.say(users[1], GROUP, "/rules")
    assert wait_for(lambda: stack.find(GROUP, "How to play Hues and Cues"))
    # The settings keyboard shows the game's own settings.
    assert stack.answer_to(stack.press(users[0], lobby, button(lobby, "Settings"))) == ""
    keyboard = wait_for(
        lambda: (
            (m := stack.find(GROUP, "Hues and Cues — a new game is open"))
            and any("free choice" in t for t, _ in buttons(m))
            and m
        )
    )
    labels = [t for t, _ in buttons(keyboard)]
    assert "cues per player: by player count" in labels
    assert any(t.startswith("second cue time: ") for t in labels)
    stack.press(users[0], keyboard, button(keyboard, "free choice of colour: off"))
    assert wait_for(
        lambda: (
            "free choice of colour"
            in stack.find(GROUP, "Hues and Cues — a new game is open").plain_text
        )
    )


def test_the_workers_timers_move_every_phase_on_to_the_co_winners(stack: Stack):
    """Timers on (× 0.02): round 1's cue comes, but no cone and no second cue; every other cue
    is missed. Each phase times out by the workers' timers; all tied at 0, tie-break rounds
    follow, given by the tied seats in turn, until a second missed cue makes a seat sit out and
    the game is abandoned below three active seats."""
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings turns=1 cue=300")  # 6 s for the first cue
    lobby = wait_for(
        lambda: (m := stack.find(GROUP, "a new game is open")) and "cue 6 s" in m.plain_text and m,
        what="the settings",
    )
    stack.press(users[0], lobby, button(lobby, "Start"))
    giver, dm = giver_prompt(stack, users, 1)
    stack.press(giver, dm, button(dm, "1 · "))
    wait_for(lambda: "Your colour:" in stack.find(giver, r"Round 1\b.*you give").plain_text)
    stack.say(giver, giver, "lavender")
    final = wait_for(lambda: stack.find(GROUP, "Game over"), timeout=120, what="the end")
    assert "the game is abandoned" in final.plain_text and "(sitting out)" in final.plain_text
    assert stack.find(GROUP, r"round 1 · .*Cue: «lavender».*No second cue this round")
    assert stack.find(GROUP, r"Points of round 1.*No points this round")
    for number in (2, 3):
        assert stack.find(GROUP, rf"round {number} · .*did not give a cue in time")
    assert stack.find(GROUP, "Tie-break round 2 of 3")
    assert not stack.find(GROUP, "Tie-break round 3 of 3")
    ended = state(stack)
    assert ended.extra_done == 1 and [s.score for s in ended.seats] == [0, 0, 0]
    givers = [users[i] for i in (ended.first_giver, (ended.first_giver + 1) % 3)]
    assert [s.missed for s in ended.seats if s.user_id == givers[1]] == [2]
    second = stack.find(giver, r"Round 1\b.*The reveal is in the group")
    assert second is not None and second.photo is not None
    assert any("first cones are down" in (edit.get("text") or "") for edit in second.edits)


def test_with_free_choice_the_cue_giver_picks_any_cell_by_row_and_column_or_by_typing(
    stack: Stack,
):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings free=on timers=off")
    lobby = wait_for(
        lambda: (
            (m := stack.find(GROUP, "a new game is open"))
            and "free choice of colour" in m.plain_text
            and m
        ),
        what="the settings",
    )
    stack.press(users[0], lobby, button(lobby, "Start"))
    giver, dm = giver_prompt(stack, users, 1)
    assert "Choose any colour of the board" in dm.plain_text
    assert shows(stack, dm, HuesBoardPicture())
    assert stack.answer_to(stack.press(giver, dm, button(dm, "K"))) == ""
    columns = wait_for(
        lambda: (
            (m := stack.find(giver, r"Round 1\b.*you give the cues"))
            and any(t == "K30" for t, _ in buttons(m))
            and m
        ),
        what="row K",
    )
    assert (
        stack.answer_to(stack.press(giver, columns, button(columns, "K12")))
        == "Colour K12 chosen. Now send your cue here."
    )
    chosen = wait_for(lambda: (m := stack.find(giver, r"Round 1\b.*Your colour: K12\."))
                      and m.photo and m, what="the close-up")  # fmt: skip
    assert shows(stack, chosen, HuesCloseupPicture(cell=board.at(10, 11)))
    stack.say(giver, giver, "р30")  # typed, in Cyrillic: the colour changes to P30
    wait_for(lambda: stack.find(giver, r"Round 1\b.*Your colour: P30\."), what="typed colour")
    stack.say(giver, giver, "aubergine")
    wait_for(lambda: stack.find(GROUP, r"round 1 · .*Cue: «aubergine»"), what="the cue")
    assert state(stack).round.colour == 479


def test_a_typed_cell_is_answered_below_it_kept_by_skip_and_skip_says_whom_it_skipped(
    stack: Stack,
):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings timers=off")
    lobby = wait_for(
        lambda: (
            (m := stack.find(GROUP, "a new game is open")) and "timers off" in m.plain_text and m
        ),
        what="the settings",
    )
    stack.press(users[0], lobby, button(lobby, "Start"))
    giver, dm = giver_prompt(stack, users, 1)
    stack.press(giver, dm, button(dm, "1 · "))
    wait_for(lambda: "Your colour:" in stack.find(giver, r"Round 1\b.*you give").plain_text)
    stack.say(giver, giver, "lavender")
    wait_for(lambda: stack.find(GROUP, r"round 1 · .*Cue: «lavender»"), what="one cue, singular")
    typist, idle = [u for u in users if u != giver]
    prompt = wait_for(lambda: stack.find(typist, r"Round 1\b.*'s cue: «lavender»"))
    stack.say(typist, typist, "n15")
    closeup = wait_for(lambda: stack.find(typist, r"You chose N15\."), what="the close-up")
    chat = stack.world.messages(typist)
    assert chat[-1].message_id == closeup.message_id, "the close-up is below the typed cell"
    assert closeup.message_id != prompt.message_id and button(closeup, "Confirm")
    retired = next(m for m in chat if m.message_id == prompt.message_id)
    assert "Sent again below" in retired.plain_text and not buttons(retired), "the older closed"
    assert stack.find(typist, "Got it") is None
    host, name = NAMES[0], {u: NAMES[users.index(u)] for u in users}
    waiting = sorted([typist, idle], key=users.index)
    time.sleep(SKIP_GRACE)  # a /skip sooner is taken for one meant for the phase before
    stack.say(users[0], GROUP, "/skip")
    wait_for(lambda: stack.find(GROUP, rf"^{host} skipped the guesses of {name[waiting[0]]} and "
                                rf"{name[waiting[1]]}\. The cell {name[typist]} chose counts "
                                r"as their cone\.$"), what="the skip told")  # fmt: skip
    kept = wait_for(lambda: stack.find(typist, "the cell you chose counts as your cone"))
    assert not buttons(kept)
    assert state(stack).round.cones == {users.index(typist): board.parse("N15")}
    group = wait_for(
        lambda: stack.find(
            GROUP,
            rf"First cones: {users.index(typist) + 1} "
            rf"{name[typist]} N15\n",
        ),
        what="the first cones' cells",
    )
    assert group.photo is not None
    time.sleep(SKIP_GRACE)
    stack.say(users[0], GROUP, "/skip")
    wait_for(lambda: stack.find(GROUP, rf"^{host} skipped {name[giver]}'s second cue\.$"))
    reveal = wait_for(lambda: stack.find(GROUP, "the colour was"), what="the reveal")
    assert f"{name[giver]}'s cue: «lavender»" in reveal.plain_text


def test_a_game_stopped_before_its_first_cue_shows_no_empty_cues_line(stack: Stack):
    users = seat_players(stack)
    start_untimed(stack, users[0])
    board = wait_for(lambda: stack.find(GROUP, r"round 1 · cues by"), what="the board")
    ended = stop_and_wait_closed(stack, users[0], board.message_id)
    assert "Cue:" not in ended.plain_text and "Cues:" not in ended.plain_text
