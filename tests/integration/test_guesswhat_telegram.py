"""Guess What! played only through Telegram updates POSTed to the webhook: the lobby's game,
the board in the group, picks, the redraw, the clue and the guesses in private, the reveal,
the final standings, the figures afterwards."""

from __future__ import annotations

import io
import re

from PIL import Image

from engine.games.guesswhat.model import State
from engine.games.registry import GAMES
from engine.roomid import RoomId
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
    without_join_timer,
)
from tests.integration.test_topics import FORUM, find_in, in_topic, players, say_in
from tgbot import pictures
from tgbot.games.guesswhat.pictures import GuessBoardPicture

NAMES = ["Ann", "Bob", "Cy"]
CLUE = "<i>sea</i> & shore"


def seat_players(stack: Stack, command: str = "/newgame guesswhat") -> list[int]:
    """Three players open private chats; one opens a lobby of Guess What!, the others join."""
    return join_lobby(stack, NAMES, "gw", command)


def state(stack: Stack) -> State:
    return play_state(stack, State)


def active_prompt(stack: Stack, users: list[int], number: int):
    """The active player of a round and its private prompt with the board's buttons."""
    return prompt_of(stack, users, number, "it is your turn", "the active player")


def pick(stack: Stack, user: int, pattern: str, row: int):
    """Press the icons of one board row, column by column, each answered with its column and
    icon and shown ticked before the next."""
    for column in range(3):
        prompt = wait_for(lambda: stack.find(user, pattern), what="a prompt with the board")
        label, data = buttons(prompt)[row * 3 + column]
        assert label.startswith("ABC"[column] + " ")
        assert stack.answer_to(stack.press(user, prompt, data)) == label.replace(" ", ": ", 1)
        wait_for(
            lambda c=column: (
                (m := stack.find(user, pattern)) and sum("✅" in t for t, _ in buttons(m)) == c + 1
            ),
            what=f"{label} ticked",
        )
    return stack.find(user, pattern)


def play_round(stack: Stack, users: list[int], number: int, redraw: bool = False) -> dict[int, int]:
    """One round: the active player picks the first row, the first guesser finds it, the
    second picks the second row. Returns the points by the rules: active +1, first +1."""
    active, dm = active_prompt(stack, users, number)
    if redraw:
        dm = redraw_three(stack, active, dm)
    dm = pick(stack, active, rf"Round {number}\b.*it is your turn", 0)
    assert "Your picks: A " in dm.plain_text and "—" not in dm.plain_text.split("Your picks:")[1]
    stack.say(active, active, CLUE)
    assert wait_for(lambda: stack.find(active, "Clue given. The others are guessing now."))
    board = wait_for(lambda: stack.find(GROUP, rf"round {number} · .*Clue: «"), what="the clue")
    assert CLUE in board.plain_text and "Waiting for" in board.plain_text
    stack.deliver(stack.world.start_private(active))  # nothing waits for the active player
    assert wait_for(lambda: stack.find(active, f"Nothing waits for you.*guessing «{CLUE}»"))
    first, second = [u for u in users if u != active]
    for user, row in ((first, 0), (second, 1)):
        prompt = wait_for(lambda u=user: stack.find(u, rf"Round {number}\b.*clue is"),
                          what="a guess prompt")  # fmt: skip
        assert CLUE in prompt.plain_text
        prompt = pick(stack, user, rf"Round {number}\b.*clue is", row)
        assert (
            stack.answer_to(stack.press(user, prompt, button(prompt, "Confirm")))
            == "Your guess is recorded."
        )
        recorded = wait_for(lambda u=user: stack.find(u, rf"Round {number}\b.*guess is recorded"),
                            what="the guess recorded")  # fmt: skip
        assert not buttons(recorded)
    reveal = wait_for(lambda: stack.find(GROUP, rf"Round {number}: the answer"),
                      what="the reveal")  # fmt: skip
    assert f"✅ {NAMES[users.index(first)]}" in reveal.plain_text
    assert f"❌ {NAMES[users.index(second)]}" in reveal.plain_text
    return {active: 1, first: 1, second: 0}


def redraw_three(stack: Stack, active: int, dm, answered: str = "Icons replaced. Now send your "
                 "clue."):  # fmt: skip
    """The active player replaces the three icons of column A (`answered`: what the press of
    Replace is answered)."""
    before = state(stack).board
    stack.answer_to(stack.press(active, dm, button(dm, "Replace three icons")))

    def selection(count: int):
        found = stack.find(active, "Choose three icons to replace")
        marked = found and sum("♻️" in text for text, _ in buttons(found))
        return found if found and marked == count else None

    for chosen in range(3):
        dm = wait_for(lambda n=chosen: selection(n), what=f"{chosen} icons chosen")
        data = next(d for t, d in buttons(dm) if t.startswith("A "))
        stack.answer_to(stack.press(active, dm, data))
    dm = wait_for(lambda: selection(3), what="three icons chosen")
    assert stack.answer_to(stack.press(active, dm, button(dm, "Replace"))) == answered
    after = state(stack).board
    assert after[3:] == before[3:] and not set(after[:3]) & set(before[:3])
    wait_for(lambda: stack.find(GROUP, "replaced three icons"), what="the redraw in the group")
    return wait_for(
        lambda: (
            (found := stack.find(active, "it is your turn"))
            and "Your picks" in found.plain_text
            and found
        ),
        what="the picks again",
    )


def test_a_whole_game_of_guess_what_through_the_webhook(stack: Stack):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings rotations=1 timers=off target=9")
    lobby = wait_for(
        lambda: (
            (found := stack.find(GROUP, "a new game is open"))
            and "up to 9 points" in found.plain_text
            and found
        ),
        what="the settings",
    )
    assert "timers off" in lobby.plain_text
    changed = wait_for(lambda: stack.find(GROUP, "Settings changed:"), what="the settings' answer")
    assert "timers: off" in changed.plain_text and "target points: 9" in changed.plain_text
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    expected = dict.fromkeys(users, 0)
    for number in range(1, 4):
        for user, points in play_round(stack, users, number, redraw=number == 1).items():
            expected[user] += points
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the final standings")
    room = Store(stack.client, GAMES).load(GROUP)
    assert room is not None and room.phase.value == "finished" and room.game == "guesswhat"
    assert {seat.user_id: seat.score for seat in room.seats} == expected
    winners = [u for u, p in expected.items() if p == max(expected.values())]
    assert ("win together" in final.plain_text) == (len(winners) > 1)
    for seat in room.play.seats:
        assert re.search(rf"{seat.score} points? · {seat.correct} correct guess", final.plain_text)
    # Quiet: per round one board message and one reveal, besides the lobby and the final.
    boards = [m for m in stack.group_messages() if re.search(r"round \d+ · ", m.plain_text or "")]
    assert len(boards) == 3
    # The figures of the game: /stats and its own /top board.
    stack.say(users[0], GROUP, "/stats")
    stats = wait_for(lambda: stack.find(GROUP, "Guess What!</b>:|Guess What!:"), what="/stats")
    assert f"{expected[users[0]]} point" in stats.plain_text and "correct guess" in stats.plain_text
    stack.say(users[0], GROUP, "/top")
    assert wait_for(lambda: stack.find(GROUP, "Guess What!, the last 90 days"), what="/top")
    # Every picture of the game (boards and reveals) is a valid PNG under 300 KB.
    uploads = list(stack.world.uploads.values())
    assert len(uploads) >= 4  # the boards of the first two turns (a redraw between), reveals
    for upload in uploads:
        with Image.open(io.BytesIO(upload.content)) as image:
            image.verify()
            assert image.format == "PNG" and image.width >= 600
        assert len(upload.content) < pictures.MAX_BYTES


def test_the_lobbys_game_is_chosen_by_command_or_button_and_rules_follow_it(stack: Stack):
    users = seat_players(stack, "/newgame")  # a new group's first lobby: Hintrigue
    lobby = stack.find(GROUP, "a new game is open")
    assert lobby.plain_text.startswith("Hintrigue — a new game is open!")
    # (Commands come from several players: one sending more than 5 in 10 s would be ignored.)
    stack.say(users[1], GROUP, "/rules")
    assert wait_for(lambda: stack.find(GROUP, "How to play Hintrigue"))
    # The host switches with the Game button; a player who is not the host cannot.
    press = stack.press(users[1], lobby, button(lobby, "Game:"))
    assert "host" in stack.answer_to(press)
    press = stack.press(users[0], lobby, button(lobby, "Game:"))
    assert stack.answer_to(press) == "The lobby is for Guess What! now."
    lobby = wait_for(lambda: stack.find(GROUP, "Guess What!.*a new game is open"))
    assert len(Store(stack.client, GAMES).load(GROUP).seats) == 3
    stack.deliver(stack.world.start_private(users[1]))  # /start in private: where it stands
    assert wait_for(lambda: stack.find(users[1], "When it starts, you pick your icons"))
    stack.say(users[2], GROUP, "/rules")
    rules = wait_for(lambda: stack.find(GROUP, "How to play Guess What!"))
    assert rules.plain_text.rstrip().splitlines()[-3] == "Differences from the printed game"
    stack.say(users[2], GROUP, "/help")
    assert wait_for(lambda: stack.find(GROUP, "connoisseurs=on"), what="the game's /help")
    stack.say(users[0], GROUP, "/newgame hintrigue")
    assert wait_for(lambda: stack.find(GROUP, "The lobby is for Hintrigue now."))
    stack.say(users[1], GROUP, "/newgame chess")
    assert wait_for(lambda: stack.find(GROUP, "There is no game called chess here"))
    stack.say(users[0], GROUP, "/newgame guesswhat")
    assert wait_for(lambda: stack.find(GROUP, "The lobby is for Guess What! now."))
    # The group's last game is what a bare /newgame opens next time.
    stack.say(users[0], GROUP, "/stop")
    question = wait_for(lambda: stack.find(GROUP, "End this lobby now?"))
    stack.press(users[0], question, button(question, "Yes"))
    wait_for(lambda: Store(stack.client, GAMES).load(GROUP) is None, what="the lobby closed")
    stack.say(users[1], GROUP, "/newgame")
    lobby = wait_for(lambda: stack.find(GROUP, "Guess What!.*a new game is open"))
    assert "connoisseurs" not in lobby.plain_text and "up to 12 points" in lobby.plain_text


def test_guess_what_in_a_forum_topic_plays_there_and_ends_when_the_topic_is_deleted(stack: Stack):
    world = stack.world
    world.add_chat(FORUM, "supergroup", title="Board Games", bot_status="left", is_forum=True)
    without_join_timer(stack.client, FORUM)
    topic = world.create_topic(FORUM, "Icons")
    users = players(stack, NAMES)
    stack.deliver(world.bot_added(FORUM, users[0]))
    say_in(stack, users[0], topic, "/newgame guesswhat")
    lobby = wait_for(lambda: find_in(stack, topic, "Guess What! — a new game is open"))
    for user in users[1:]:
        assert (
            stack.answer_to(stack.press(user, lobby, button(lobby, "Join")))
            == "You joined the game."
        )
    say_in(stack, users[0], topic, "/settings timers=off")
    wait_for(lambda: "timers off" in find_in(stack, topic, "a new game is open").plain_text)
    stack.press(users[0], lobby, button(lobby, "Start"))
    # The private buttons name the topic's room: the picks act on its game.
    active, _dm = active_prompt(stack, users, 1)
    pick(stack, active, r"Round 1\b.*it is your turn", 0)
    stack.say(active, active, CLUE)
    board = wait_for(lambda: find_in(stack, topic, r"round 1 · .*Clue: «"), what="the clue")
    assert CLUE in board.plain_text
    assert not [m for m in in_topic(stack, None) if "round 1" in m.plain_text]
    first = next(u for u in users if u != active)
    pick(stack, first, r"Round 1\b.*clue is", 0)
    world.delete_topic(FORUM, topic)  # Telegram tells the bot nothing
    prompt = stack.find(first, r"Round 1\b.*clue is")
    stack.press(first, prompt, button(prompt, "Confirm"))  # the board is to be edited
    final = wait_for(lambda: find_in(stack, None, "Game over"), what="the end, in General")
    assert "The topic of this game was deleted" in final.plain_text
    store = Store(stack.client, GAMES)
    assert store.load(RoomId(FORUM, topic)).phase.value == "abandoned"
    assert [store.room_of_player(u) for u in users] == [None] * 3


def test_a_newcomer_joins_a_lobby_of_guess_what_by_its_deep_link(stack: Stack):
    ann = stack.world.add_user(first_name="Ann").id  # no private chat with the bot yet
    stack.deliver(stack.world.bot_added(GROUP, ann))
    stack.say(ann, GROUP, "/newgame guesswhat")
    lobby = wait_for(lambda: stack.find(GROUP, "a new game is open"), what="the lobby")
    assert "that is where the icons are picked and the guesses made" in lobby.plain_text
    bob = stack.world.add_user(first_name="Bob").id
    stack.deliver(stack.world.start_private(bob, f"j{GROUP}"))  # the Join button's deep link
    joined = wait_for(lambda: stack.find(bob, "You joined the game"), what="the join")
    assert "you pick your icons and your guesses here" in joined.plain_text


def test_missed_clues_pass_the_turn_on_the_same_board_by_the_workers_timers(stack: Stack):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings rotations=1")  # timers on: 60 s × 0.02 for a clue
    wait_for(lambda: "1 rotation ·" in stack.find(GROUP, "a new game is open").plain_text)
    lobby = stack.find(GROUP, "a new game is open")
    stack.press(users[0], lobby, button(lobby, "Start"))
    board = state(stack).board
    # Nobody gives a clue: each turn times out, the next player's starts on the same board
    # (30 s), and the missed last turn ends the game with everybody on 0.
    final = wait_for(lambda: stack.find(GROUP, "Game over"), what="the end by the timers")
    assert "win together" in final.plain_text
    for number in (1, 2, 3):
        assert stack.find(GROUP, rf"round {number} · .*did not give a clue in time")
    ended = state(stack)
    assert ended.board == board and [s.score for s in ended.seats] == [0, 0, 0]
    assert [s.missed for s in ended.seats] == [1, 1, 1]
    for user in users:  # every active player's prompt is closed, saying why
        assert stack.find(user, "time ran out before your clue")
    # The same board three times: uploaded once (into its message, sent as text first), then
    # sent again by its file_id.
    boards = [stack.find(GROUP, rf"round {number} · ") for number in (1, 2, 3)]
    assert boards[0] is not None
    assert len(edits_of(stack, "editMessageMedia", boards[0].message_id)) == 1
    sent = [call for call in stack.world.calls_of("sendPhoto") if call.ok]
    assert len(sent) == 2
    for again in sent:
        assert isinstance(again.params["photo"], str)
        assert not again.params["photo"].startswith("attach://")
    assert all(b is not None and b.photo for b in boards)
    assert len({b.photo[-1]["file_unique_id"] for b in boards if b and b.photo}) == 1


def started(stack: Stack, settings: str, shown: str) -> list[int]:
    """Three players in a game of Guess What! started with these settings."""
    users = seat_players(stack)
    stack.say(users[0], GROUP, f"/settings {settings}")
    lobby = wait_for(lambda: (found := stack.find(GROUP, "a new game is open"))
                     and shown in found.plain_text and found, what="the settings")  # fmt: skip
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    return users


def edits_of(stack: Stack, method: str, message_id: int) -> list:
    return [call for call in stack.world.calls_of(method)
            if call.ok and int(call.params["message_id"]) == message_id]  # fmt: skip


def test_a_turns_board_and_reveal_are_photos_whose_captions_carry_the_facts(stack: Stack):
    users = started(stack, "rotations=1 timers=off", "timers off")
    play_round(stack, users, 1, redraw=True)
    board = stack.find(GROUP, r"round 1 · ")
    assert board is not None and board.photo, "the board is a photo"
    caption = board.plain_text
    assert f"Clue: «{CLUE}»" in caption and "Guessing is over" in caption
    rows = {line[0]: line.split()[1:] for line in caption.splitlines() if line[:3] in
            ("A  ", "B  ", "C  ")}  # fmt: skip
    assert sorted(rows) == ["A", "B", "C"] and all(len(r) == 3 for r in rows.values())
    shown = GuessBoardPicture(icons=[*rows["A"], *rows["B"], *rows["C"]])
    assert stack.world.photo_bytes(board) == pictures.render(shown, "en"), (
        "the picture shows the board the caption lists"
    )
    # Sent as its text, its new picture uploaded into it at once; then only the redraw changed
    # its picture, every other change (the clue, who confirmed, the guessing over) its caption
    # (who confirmed settles into the next caption when the guesses come within seconds).
    assert len([c for c in stack.world.calls_of("sendMessage")
                if "round 1 ·" in c.params["text"]]) == 1  # fmt: skip
    assert len(edits_of(stack, "editMessageMedia", board.message_id)) == 2
    assert len(edits_of(stack, "editMessageCaption", board.message_id)) >= 2
    assert not edits_of(stack, "editMessageText", board.message_id)
    reveal = stack.find(GROUP, r"Round 1: the answer")
    assert reveal is not None and reveal.photo, "the reveal is a photo"
    assert "✅" in reveal.plain_text and "❌" in reveal.plain_text
    assert "Points:" in reveal.plain_text
    data = stack.world.photo_bytes(reveal)
    assert data is not None and len(data) < pictures.MAX_BYTES
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.height > image.width  # the board, then guesses


def test_pictures_off_sends_guess_what_as_text(stack: Stack):
    users = started(stack, "rotations=1 timers=off pictures=off", "no pictures")
    play_round(stack, users, 1)
    board, reveal = stack.find(GROUP, r"round 1 · "), stack.find(GROUP, r"Round 1: the answer")
    assert board is not None and board.photo is None and "A  " in board.plain_text
    assert reveal is not None and reveal.photo is None
    assert not stack.world.calls_of("sendPhoto") and not stack.world.calls_of("editMessageMedia")


def test_a_game_stopped_before_its_clue_shows_no_empty_clue_line(stack: Stack):
    users = seat_players(stack)
    start_untimed(stack, users[0])
    board = wait_for(lambda: stack.find(GROUP, r"round 1 · "), what="the board")
    ended = stop_and_wait_closed(stack, users[0], board.message_id)
    assert "Clue" not in ended.plain_text and "«»" not in ended.plain_text


def test_the_redraw_says_the_clue_time_as_it_really_runs(stack: Stack):
    users = seat_players(stack)
    stack.say(users[0], GROUP, "/settings clue=900")
    lobby = wait_for(
        lambda: (
            (found := stack.find(GROUP, "a new game is open"))
            and "clue 18 s" in found.plain_text
            and found
        ),
        what="the settings",
    )
    assert (
        stack.answer_to(stack.press(users[0], lobby, button(lobby, "Start"))) == "The game starts!"
    )
    active, dm = active_prompt(stack, users, 1)
    stack.answer_to(stack.press(active, dm, button(dm, "Replace three icons")))
    for chosen in range(3):
        dm = wait_for(lambda n=chosen: (m := stack.find(active, "Choose three icons to replace"))
                      and sum("♻️" in t for t, _ in buttons(m)) == n and m,
                      what=f"{chosen} icons chosen")  # fmt: skip
        # TIMER_SCALE 0.02: the 30 s a redraw leaves run 0.6 s.
        assert "You then have 1 s for your clue." in dm.plain_text
        assert "30 seconds" not in dm.plain_text
        data = next(d for t, d in buttons(dm) if t.startswith("A "))
        stack.answer_to(stack.press(active, dm, data))
    dm = wait_for(
        lambda: (
            (m := stack.find(active, "Choose three icons to replace"))
            and sum("♻️" in t for t, _ in buttons(m)) == 3
            and m
        ),
        what="three chosen",
    )
    assert (
        stack.answer_to(stack.press(active, dm, button(dm, "Replace")))
        == "Icons replaced. You have 1 s for your clue."
    )
