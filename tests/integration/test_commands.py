"""Group and private commands, the settings keyboard, /stop's confirmation, late joining."""

from __future__ import annotations

import re
import time

import pytest

from engine.commands import ChangeSettings, Skip, StartGame, StopGame
from engine.errors import ErrorCode
from engine.games.hintrigue.decks import scene
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.hintrigue.settings import settings_of
from engine.games.registry import GAMES
from engine.model import Phase as TablePhase
from engine.store import keys
from tests.harness import button, buttons, wait_for
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture
from tgbot.i18n import texts
from tgbot.table.handlers.group import SKIP_GRACE


@pytest.fixture
def table(stack) -> Table:  # noqa: F811
    return Table(stack)


def test_rules_and_help_answer_in_the_group_and_in_private(table: Table):
    user = table.users[0]
    table.say(user, table.chat, "/rules")
    table.group_message("How to play Hintrigue")
    table.say(user, table.chat, "/help")
    table.group_message(r"/newgame — open a lobby")
    table.say(user, user, "/help")
    table.dm(user, "Add me to a group")


def test_the_settings_keyboard_changes_a_setting_and_closes(table: Table):
    table.lobby()
    lobby = table.group_message("a new game is open")

    def lobby_with(label: str):
        current = table.stack.world.message(table.chat, lobby.message_id)
        return current if any(label in text for text, _ in buttons(current)) else None

    assert table.press(table.users[0], lobby, button(lobby, "Settings")) == ""
    menu = wait_for(lambda: lobby_with("max players: 8"), what="the settings keyboard")
    assert table.press(table.users[0], menu, button(menu, "+")) == "Settings changed."
    assert table.room().settings.max_seats == 9
    menu = wait_for(lambda: lobby_with("max players: 9"), what="the changed setting")
    table.press(table.users[0], menu, button(menu, "Done"))
    wait_for(lambda: lobby_with("Join"), what="the lobby keyboard again")


def test_stop_asks_for_a_confirmation_then_ends_the_game_without_a_winner(table: Table):
    table.started()
    table.say(table.users[0], table.chat, "/stop")
    confirm = table.group_message("End this game now")
    assert table.press(table.users[1], confirm, button(confirm, "Yes")) == \
        "Only the game's host or a group admin can do that."
    assert phase_of(table.room()) is Phase.HINT
    assert table.press(table.users[0], confirm, button(confirm, "Yes")) == "The game is stopped."
    table.group_message("The game was stopped. No winner")
    assert table.room().phase is TablePhase.ABANDONED
    decided = wait_for(lambda: decided_question(table, confirm), what="the question decided")
    assert decided.plain_text == "/stop: the game was stopped."


def decided_question(table: Table, question):
    """The confirmation message once edited into its decision (no buttons left), or None."""
    now = table.stack.world.message(question.chat_id, question.message_id)
    return now if now is not None and not buttons(now) else None


def test_stop_answered_no_by_the_host_lets_the_game_go_on_quietly(table: Table):
    room = table.started()
    table.say(table.users[0], table.chat, "/stop")
    confirm = table.group_message("End this game now")
    assert table.press(table.users[2], confirm, button(confirm, "No")) == \
        "Only the game's host or a group admin can do that."
    assert buttons(table.stack.world.message(confirm.chat_id, confirm.message_id))
    before = len(table.stack.world.bot_messages(table.chat))
    assert table.press(table.users[0], confirm, button(confirm, "No")) == "The game goes on."
    decided = wait_for(lambda: decided_question(table, confirm), what="the question decided")
    assert decided.plain_text == "/stop: the game goes on."
    assert len(table.stack.world.bot_messages(table.chat)) == before  # an edit, no new message
    assert table.room().model_dump_json() == room.model_dump_json()


def test_score_shows_the_standings_of_the_current_game(table: Table):
    table.started()
    table.say(table.users[1], table.chat, "/score")
    message = table.group_message("This game")
    assert "Standings" in message.plain_text and "0 points" in message.plain_text


def test_a_late_player_joins_with_join_and_plays_from_the_next_round(table: Table):
    room = table.started()
    late = table.stack.world.add_user(first_name="Late").id
    table.stack.deliver(table.stack.world.start_private(late))
    table.say(late, table.chat, "/join")
    table.group_message("Late joined the game and plays from the next round")
    after = table.room()
    index = after.seat_of(late)
    assert index is not None and index not in round_of(after).participants
    assert len(own_seats(after)[index].hand) == settings_of(room).hand_size


def test_a_second_newgame_points_to_the_game_already_there(table: Table):
    room = table.lobby()
    table.say(table.users[1], table.chat, "/newgame")
    table.group_message("A game is already open in this group")
    assert table.room().model_dump_json() == room.model_dump_json()


def test_start_in_private_sends_again_what_the_game_waits_for(table: Table):
    room = table.started()
    teller = table.user_of(room, round_of(room).storyteller)
    first = table.dm(teller, "you are the storyteller")
    hand = buttons(first)
    table.say(teller, teller, "/start")
    again = wait_for(
        lambda: next((m for m in reversed(table.stack.dm(teller))
                      if "you are the storyteller" in m.plain_text
                      and m.message_id > first.message_id), None),
        what="the storyteller's hand sent again")
    assert buttons(again) == hand
    # The old copy points to the new one, without its buttons.
    old = table.stack.world.message(teller, first.message_id)
    assert old.plain_text == "⬇️ Sent again below." and buttons(old) == []
    label, data = buttons(again)[0]
    answer = table.press(teller, again, data)
    assert answer.startswith("Chosen:") and label.strip() in answer
    # The press's answer names the card; asked again, the prompt shows it chosen.
    table.say(teller, teller, "/start")
    third = wait_for(
        lambda: next((m for m in reversed(table.stack.dm(teller))
                      if "you are the storyteller" in m.plain_text
                      and m.message_id > again.message_id), None),
        what="the hand sent again, its card chosen")  # fmt: skip
    assert "Chosen:" in third.plain_text and label.strip() in third.plain_text
    assert buttons(third)[0][0] == "✅ " + label.strip()


def test_every_group_command_gets_a_visible_answer(table: Table):
    table.lobby()
    host, other = table.users[0], table.users[1]
    table.say(host, table.chat, "/settings rotations=1 hint=60")
    table.group_message(r"Settings changed: rotations: 1, hint time: 1 min\.")
    table.say(other, table.chat, "/settings rotations=2")
    table.group_message(r"Only the game's host or a group admin can do that\.")
    table.say(table.users[3], table.chat, "/leave")
    table.group_message(r"P3 left the lobby\.")
    table.say(table.users[3], table.chat, "/join")
    table.group_message(r"P3 joined the lobby \(4 players\)\.")


def test_stop_is_refused_to_a_player_who_is_not_the_host_and_asked_again_at_the_bottom(
    table: Table,
):
    table.started()
    table.say(table.users[2], table.chat, "/stop")
    table.group_message(r"Only the game's host or a group admin can stop it\.")
    assert table.stack.find(table.chat, "End this game now") is None
    table.say(table.users[0], table.chat, "/stop")
    first = table.group_message("End this game now")
    table.say(table.users[0], table.chat, "/stop")
    again = wait_for(lambda: next((m for m in reversed(table.stack.world.bot_messages(table.chat))
                                   if "End this game now" in m.plain_text
                                   and m.message_id > first.message_id), None),
                     what="the question asked again")  # fmt: skip
    assert buttons(again)
    assert buttons(table.stack.world.message(table.chat, first.message_id)) == []


def test_two_managers_skipping_at_once_skip_one_turn(table: Table):
    room = table.started()
    time.sleep(SKIP_GRACE)
    admin = table.stack.world.add_user(first_name="Admin").id
    table.stack.world.set_member_status(table.chat, admin, "administrator")
    table.say(table.users[0], table.chat, "/skip")
    table.say(admin, table.chat, "/skip")
    table.group_message(re.escape(texts.ERRORS[ErrorCode.JUST_STARTED]))
    after = table.room()
    # Only the first storyteller's turn was skipped: the next one's stands.
    assert round_of(after).no == round_of(room).no + 1 and phase_of(after) is Phase.HINT


def test_skip_says_who_was_skipped(table: Table):
    room = table.in_decoys()
    time.sleep(SKIP_GRACE)  # a /skip sooner is taken for one meant for the phase before
    table.say(table.users[0], table.chat, "/skip")
    waiting = [room.seats[i].name for i in round_of(room).participants
               if i != round_of(room).storyteller]  # fmt: skip
    table.group_message(r"/skip: decoys were chosen at random for " + ", ".join(waiting[:-1]))
    table.group_message(r"skipped: a decoy was chosen at random")
    for user in table.users:
        if user != room.seats[round_of(room).storyteller].user_id:
            table.dm(user, r"chosen for you: skipped")


def test_a_host_who_never_opened_a_private_chat_is_named_with_the_link_until_they_do(
    table: Table,
):
    world = table.stack.world
    host = world.add_user(first_name="Nomad").id
    table.say(host, table.chat, "/newgame")
    lobby = table.group_message("a new game is open")
    assert re.search(r"Nomad \(host\) — must open @\w+ first", lobby.plain_text)
    (link,) = [e["url"] for e in lobby.entities if e["type"] == "text_link"]
    assert re.fullmatch(r"https://t\.me/\w+\?start=r-\d+", link)
    for user in table.users[1:3]:
        assert table.press(user, lobby, button(lobby, "Join")) == "You joined the game."
    update = world.press(host, lobby.chat_id, lobby.message_id, button(lobby, "Start"))
    table.stack.deliver(update)
    answer = wait_for(lambda: world.callback_answer(update["callback_query"]["id"]))
    assert answer.text.startswith("First open a private chat with me and press Start there")
    assert re.fullmatch(r"https://t\.me/\S+\?start=r-\d+", answer.url or "")
    assert table.room().phase is TablePhase.LOBBY
    table.stack.deliver(world.start_private(host, f"r{table.chat}"))
    table.dm(host, r"You are connected to the game in Bad input\. Press Start in the group")
    wait_for(lambda: "must open" not in world.message(table.chat, lobby.message_id).plain_text,
             what="the lobby without the link")  # fmt: skip
    assert table.press(host, lobby, button(lobby, "Start")) == "The game starts!"


def test_start_with_nothing_pending_says_what_the_game_waits_for(table: Table):
    room = table.started()
    other = next(s.user_id for i, s in enumerate(room.seats) if i != round_of(room).storyteller)
    teller = room.seats[round_of(room).storyteller].name
    table.say(other, other, "/start")
    table.dm(other, rf"Nothing waits for you here right now: {teller} is choosing a card")


def test_a_long_vote_gets_its_table_edited_to_show_the_time_left_before_the_end(table: Table):
    from rq import Queue
    from rq.registry import ScheduledJobRegistry

    from workers.dispatch import REMIND_BEFORE, RqDispatch

    table.lobby()
    table.run(ChangeSettings(user_id=table.users[0], changes={"timers": True, "vote_s": 600}))
    room = table.in_voting(table.run(StartGame(user_id=table.users[0])))
    queue = Queue(table.stack.config.queue, connection=table.stack.client)
    # The vote's timer and its reminder are scheduled, the reminder 30 s before the end.
    RqDispatch(table.stack.client, table.stack.config.queue, GAMES).schedule_reminder(
        table.chat, round_of(room).no, "voting", room.deadline
    )
    scheduled = ScheduledJobRegistry(queue=queue)
    job_id = f"{keys.job_prefix()}remind_{table.chat}_{round_of(room).no}_voting"
    assert job_id in scheduled.get_job_ids()
    assert abs(scheduled.get_expiration_time(queue.fetch_job(job_id)).timestamp()
               - (room.deadline - REMIND_BEFORE)) < 1.5  # fmt: skip
    # Fired (now, rather than in ten minutes), it edits the table to show the time left.
    shown = table.group_message(r"The table · round 1")
    assert "(10 min left)" in shown.plain_text
    time.sleep(1.1)
    queue.enqueue("workers.jobs.remind", table.chat, round_of(room).no, "voting")
    wait_for(lambda: re.search(r"\(9 min \d+ s left\)", table.stack.world.message(
        table.chat, shown.message_id).plain_text), what="the time left on the table")


def test_buttons_of_an_earlier_games_lobby_are_refused(table: Table):
    table.lobby()
    first = table.group_message("a new game is open")
    # The buttons as they were (the closed lobby's message loses them).
    pressed = {label: button(first, label) for label in ("Join", "Leave", "Start", "Settings")}
    table.service.run(table.chat, StopGame(user_id=table.users[0]))
    table.lobby(seed=21 << 40)
    for data in pressed.values():
        assert table.press(table.users[1], first, data) == \
            "This button belongs to an earlier game."  # fmt: skip
    assert table.room().phase is TablePhase.LOBBY and len(table.room().seats) == 4


def test_settings_alone_brings_the_settings_keyboard_to_the_bottom_for_the_host(table: Table):
    table.lobby()
    lobby = table.group_message("a new game is open")
    table.say(table.users[2], table.chat, "/settings")
    table.group_message(r"The host or a group admin changes them")
    table.say(table.users[0], table.chat, "/settings")
    menu = wait_for(lambda: next((m for m in reversed(table.stack.world.bot_messages(table.chat))
                                  if m.message_id > lobby.message_id and any(
                                      "max players" in text for text, _ in buttons(m))), None),
                    what="the settings keyboard below")  # fmt: skip
    assert "a new game is open" in menu.plain_text


def test_join_after_the_last_turn_started_says_so_at_once(table: Table):
    table.lobby()
    table.run(ChangeSettings(user_id=table.users[0], changes={"rotations": 1}))
    room = table.run(StartGame(user_id=table.users[0]))
    while not round_of(room).last:  # each storyteller misses one hint: nobody sits out
        room = table.run(Skip(user_id=table.users[0]))
    late = table.stack.world.add_user(first_name="Late").id
    table.say(late, table.chat, "/join")
    table.group_message(r"Too late to join: the last turn has started\.")


def test_the_next_lobby_starts_from_the_settings_of_the_last_one(table: Table):
    host, other = table.users[:2]
    table.say(host, table.chat, "/newgame")
    first = table.group_message("a new game is open")
    table.say(host, table.chat, "/settings rotations=3 hint=60 timers=off")
    table.group_message("Settings changed: rotations: 3")
    table.say(host, table.chat, "/stop")
    question = table.group_message("End this lobby now")
    table.press(host, question, button(question, "Yes"))
    wait_for(lambda: "closed" in table.stack.world.message(table.chat, first.message_id)
             .plain_text, what="the lobby closed")  # fmt: skip
    table.say(other, table.chat, "/newgame")  # somebody else opens the next one
    wait_for(lambda: any(m.message_id > first.message_id and "a new game is open" in m.plain_text
                         for m in table.stack.world.bot_messages(table.chat)),
             what="the next lobby")  # fmt: skip
    settings, own = table.room().settings, settings_of(table.room())
    assert (own.rotations, own.hint_s, settings.timers) == (3, 60, False)


def test_forcestart_starts_the_lobby_for_the_host_only(table: Table):
    table.lobby(players=3)
    table.say(table.users[1], table.chat, "/forcestart")
    table.group_message(re.escape(texts.ERRORS[ErrorCode.NOT_ALLOWED]))
    assert table.room().phase is TablePhase.LOBBY
    table.say(table.users[0], table.chat, "/forcestart")
    table.group_message(r"Round 1\b.*storyteller")
    assert phase_of(table.room()) is Phase.HINT


def test_settings_ai_is_applied_and_answered_in_the_group(table: Table):
    table.lobby(players=1)
    table.say(table.users[0], table.chat, "/settings ai=2")
    table.group_message(r"Settings changed: AI players: 2\.")
    assert len(table.room().ai_seats()) == 2
    table.say(table.users[0], table.chat, "/settings ai=0 rotations=3")
    table.group_message(r"Settings changed: AI players: 0, rotations: 3\.")
    assert table.room().ai_seats() == []


def test_a_friend_who_pressed_join_without_a_private_chat_is_listed_as_waiting(table: Table):
    world = table.stack.world
    table.lobby(players=3)
    lobby = table.group_message("a new game is open")
    dee = world.add_user(first_name="Dee").id
    update = world.press(dee, table.chat, lobby.message_id, button(lobby, "Join"))
    table.stack.deliver(update)
    answer = wait_for(lambda: world.callback_answer(update["callback_query"]["id"]))
    assert answer.url == f"https://t.me/hintrigue_bot?start=j{table.chat}"
    shown = wait_for(lambda: re.search(r"⏳ waiting for Dee to open @hintrigue_bot",
                                       world.message(table.chat, lobby.message_id).plain_text),
                     what="Dee listed as waiting")  # fmt: skip
    assert shown and "3 players:" in world.message(table.chat, lobby.message_id).plain_text
    room = table.room()
    assert room.seat_of(dee) is None and [w.name for w in room.waiting] == ["Dee"]
    # Opening the chat before the start seats them as usual.
    table.stack.deliver(world.start_private(dee, f"j{table.chat}"))
    table.dm(dee, "You joined the game")
    wait_for(lambda: "waiting for Dee" not in world.message(table.chat, lobby.message_id)
             .plain_text and "4 players:" in world.message(table.chat, lobby.message_id)
             .plain_text, what="Dee seated")  # fmt: skip
    assert table.room().waiting == [] and table.room().seat_of(dee) is not None


def test_a_waiting_friend_who_finds_the_bot_by_name_and_presses_start_is_seated(table: Table):
    # Not through the link: Telegram's Start button in a chat opened by searching the bot
    # sends a plain /start.
    world = table.stack.world
    table.lobby(players=3)
    lobby = table.group_message("a new game is open")
    dee, eve = world.add_user(first_name="Dee").id, world.add_user(first_name="Eve").id
    table.stack.deliver(world.press(dee, table.chat, lobby.message_id, button(lobby, "Join")))
    wait_for(lambda: "waiting for Dee" in world.message(table.chat, lobby.message_id).plain_text,
             what="Dee listed as waiting")  # fmt: skip
    table.stack.deliver(world.start_private(dee))
    table.dm(dee, "You joined the game")
    wait_for(lambda: "4 players:" in world.message(table.chat, lobby.message_id).plain_text,
             what="Dee seated")  # fmt: skip
    assert table.room().seat_of(dee) is not None and table.room().waiting == []
    # Someone who never pressed Join gets the usual greeting, and no seat.
    table.stack.deliver(world.start_private(eve))
    table.dm(eve, "Add me to a group")
    assert table.room().seat_of(eve) is None


def test_the_lobby_starts_without_a_waiting_friend_and_tells_the_group_who_was_left_out(
    table: Table,
):
    world = table.stack.world
    table.lobby(players=3)
    lobby = table.group_message("a new game is open")
    dee = world.add_user(first_name="Dee").id
    table.say(dee, table.chat, "/join")
    table.group_message(r"To play, open @hintrigue_bot")
    wait_for(lambda: "waiting for Dee" in world.message(table.chat, lobby.message_id).plain_text,
             what="Dee listed as waiting")  # fmt: skip
    assert table.press(table.users[0], lobby, button(lobby, "Start")) == "The game starts!"
    notice = table.group_message(r"The game started without Dee: they never opened a private "
                                 r"chat with me")  # fmt: skip
    assert any(e.get("url", "").endswith(f"start=j{table.chat}") for e in notice.entities)
    room = table.room()
    assert phase_of(room) is Phase.HINT and room.seat_of(dee) is None and room.waiting == []
    # The lobby's edit and the notice are two deliveries: the edit may land after the notice.
    wait_for(lambda: "waiting for Dee" not in world.message(table.chat, lobby.message_id)
             .plain_text, what="the lobby without Dee")  # fmt: skip


def test_a_stop_question_is_closed_when_its_game_ends_and_a_late_press_says_so(table: Table):
    from engine.commands import Leave

    table.started()
    table.say(table.users[0], table.chat, "/stop")
    question = table.group_message("End this game now")
    no, yes = button(question, "No"), button(question, "Yes")
    for user in table.users[2:]:  # two leave: too few remain, the game is abandoned
        table.run(Leave(user_id=user))
    assert table.room().phase is TablePhase.ABANDONED
    closed = wait_for(lambda: decided_question(table, question), what="the question closed")
    assert closed.plain_text == "/stop: the game is over."
    assert table.press(table.users[0], question, no) == "That game is over."
    assert table.press(table.users[0], question, yes) == "That game is over."
    assert table.room().phase is TablePhase.ABANDONED


def test_a_lobby_stop_question_is_closed_when_the_lobby_closes(table: Table):
    from engine.commands import Leave

    table.lobby(players=2)
    table.say(table.users[0], table.chat, "/stop")
    question = table.group_message("End this lobby now")
    for user in table.users[:2]:
        table.service.run(table.chat, Leave(user_id=user))
    closed = wait_for(lambda: decided_question(table, question), what="the question closed")
    assert closed.plain_text == "/stop: the lobby was closed."


def test_a_refusal_across_groups_names_the_other_chat_and_links_to_its_game(table: Table):
    world = table.stack.world
    table.lobby()
    lobby = table.group_message("a new game is open")
    other = table.chat - 500
    world.add_chat(other, "supergroup", title="Elsewhere", bot_status="member")
    table.say(table.users[1], other, "/newgame")
    refused = wait_for(lambda: table.stack.find(other, "You are already playing in"),
                       what="the refusal")  # fmt: skip
    assert refused.plain_text == "You are already playing in Bad input. Leave that game first."
    (link,) = [e["url"] for e in refused.entities if e["type"] == "text_link"]
    assert link == f"https://t.me/c/{str(table.chat)[4:]}/{lobby.message_id}"
    assert "Scroll up" not in refused.plain_text


def test_message_links_by_username_internal_id_or_none():
    from tgbot.table.render import message_link

    assert message_link(-1001234567, 42) == "https://t.me/c/1234567/42"
    assert message_link(-1001234567, 42, "friday_games") == "https://t.me/friday_games/42"
    assert message_link(-4242, 42) is None  # a basic group's messages have no link


def test_the_hint_given_answer_stays_through_its_round_and_is_closed_when_the_game_ends(
    table: Table,
):
    from engine.games.hintrigue.commands import ChooseCard

    room = table.started()
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    table.say(teller.user_id, teller.user_id, "harbour")
    given = table.dm(teller.user_id, "Hint given. The others are choosing their decoys.")
    text = ("Hintrigue · Round 1 in Bad input: you are the storyteller.\n"
            "Hint given. The others are choosing their decoys.\n"
            f"Your card {scene('default', card)} with the hint «harbour» is on the table.")
    assert given.plain_text == text
    table.run(Skip(user_id=table.users[0]))  # decoys chosen at random
    table.run(Skip(user_id=table.users[0]))  # the vote closes: the round is scored
    assert phase_of(table.room()) is Phase.REVEAL
    table.group_message("Reveal")  # delivered: the round's messages are out
    answer = table.stack.world.message(teller.user_id, given.message_id)
    assert answer.plain_text == text
    assert not [call for call in table.stack.world.calls_of("editMessageText")
                if int(call.params["chat_id"]) == teller.user_id
                and int(call.params["message_id"]) == given.message_id]  # fmt: skip
    table.run(StopGame(user_id=table.users[0]))
    assert table.room().phase is TablePhase.ABANDONED  # in the reveal: no next prompt follows
    closed = wait_for(lambda: "this round is over" in (m := table.stack.world.message(
        teller.user_id, given.message_id)).plain_text and m, what="the answer closed")
    assert closed.plain_text == \
        "Hintrigue · Round 1 in Bad input: your hint «harbour» was given; this round is over."


def test_a_lobby_stop_question_is_closed_when_the_game_starts(table: Table):
    table.lobby()
    table.say(table.users[0], table.chat, "/stop")
    question = table.group_message("End this lobby now")
    yes = button(question, "Yes")
    table.run(StartGame(user_id=table.users[0]))
    closed = wait_for(lambda: decided_question(table, question), what="the question closed")
    assert closed.plain_text == "/stop: the game has started; send /stop again to end it."
    assert table.press(table.users[0], question, yes) == \
        "The game has started: send /stop again to end it."
    assert phase_of(table.room()) is Phase.HINT


def test_a_game_ended_without_a_stop_question_posts_no_closed_question(table: Table):
    table.started()
    table.run(StopGame(user_id=table.users[0]))
    table.group_message("The game was stopped. No winner")
    time.sleep(1)  # a closed question would have been sent by now
    assert table.stack.find(table.chat, "/stop: the game is over") is None
