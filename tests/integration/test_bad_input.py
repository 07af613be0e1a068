"""Every wrong action gets a short, specific answer and changes nothing (SPEC section 8)."""

from __future__ import annotations

import itertools

import pytest

from engine.commands import ChangeSettings, GiveHint, Join, OpenLobby, StartGame
from engine.games.hintrigue.commands import ChooseCard, PlayDecoy
from engine.games.hintrigue.decks import scene
from engine.games.hintrigue.model import Phase, own_seats, phase_of, round_of
from engine.games.registry import GAMES
from engine.model import Room
from engine.store import keys
from tests.conftest import test_redis_url
from tests.harness import (
    Stack,
    button,
    buttons,
    running_stack,
    wait_for,
    without_join_timer,
)
from tgbot.bootstrap import build_service
from tgbot.games.registry import LINEUP
from workers.dispatch import RqDispatch

_chats = itertools.count(-1002000000001, -1)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    import redis

    redis.Redis.from_url(test_redis_url()).flushdb()
    with running_stack(test_redis_url(), tmp_path_factory.mktemp("bad")) as running:
        yield running


class Table:
    """One group with four players who opened a private chat, set up through the service."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.chat = next(_chats)
        stack.world.add_chat(self.chat, "supergroup", title="Bad input", bot_status="member")
        without_join_timer(stack.client, self.chat)
        self.users = [stack.world.add_user(first_name=f"P{i}").id for i in range(4)]
        for user in self.users:
            stack.deliver(stack.world.start_private(user))
        self.service = build_service(
            stack.config,
            stack.client,
            "hintrigue_bot",
            RqDispatch(stack.client, stack.config.queue, GAMES),
        )

    def run(self, command) -> Room:
        outcome = self.service.run(self.chat, command)
        assert outcome.room is not None
        return outcome.room

    def room(self) -> Room:
        room = self.service.store.load(self.chat)
        assert room is not None
        return room

    def lobby(self, players: int = 4, seed: int = 11 << 40) -> Room:
        self.run(
            OpenLobby(
                chat_id=self.chat,
                title="Bad input",
                user_id=self.users[0],
                name="P0",
                seed=seed,
                timer_scale=1.0,
                settings={"join_s": 0},
            )
        )
        for user in self.users[1:players]:
            self.run(Join(user_id=user, name=f"P{self.users.index(user)}"))
        return self.run(ChangeSettings(user_id=self.users[0], changes={"timers": False}))

    def started(self, seed: int = 11 << 40) -> Room:
        self.lobby(seed=seed)
        return self.run(StartGame(user_id=self.users[0]))

    def in_decoys(self, started: Room | None = None) -> Room:
        """Up to the decoys, from a game started here (`started`) or a new default one."""
        room = started or self.started()
        teller = room.seats[round_of(room).storyteller]
        card = own_seats(room)[round_of(room).storyteller].hand[0]
        self.run(ChooseCard(user_id=teller.user_id, card=card))
        return self.run(GiveHint(user_id=teller.user_id, text="night"))

    def in_voting(self, started: Room | None = None) -> Room:
        room = self.in_decoys(started)
        for index in round_of(room).participants:
            if index != round_of(room).storyteller:
                seat = room.seats[index]
                card = own_seats(room)[index].hand[0]
                room = self.run(PlayDecoy(user_id=seat.user_id, card=card))
        assert phase_of(room) is Phase.VOTING
        return room

    def group_message(self, pattern: str):
        return wait_for(lambda: self.stack.find(self.chat, pattern), what=pattern)

    def dm(self, user: int, pattern: str):
        return wait_for(lambda: self.stack.find(user, pattern), what=pattern)

    def press(self, user: int, message, data: str) -> str:
        update = self.stack.world.press(user, message.chat_id, message.message_id, data, force=True)
        self.stack.deliver(update)
        return self.stack.answer_to(update)

    def say(self, user: int, chat: int, text: str) -> None:
        self.stack.say(user, chat, text)

    def user_of(self, room: Room, seat: int) -> int:
        return room.seats[seat].user_id


@pytest.fixture
def table(stack) -> Table:
    return Table(stack)


def unchanged(table: Table, before: Room) -> None:
    assert table.room().model_dump_json() == before.model_dump_json()


def test_a_vote_for_your_own_decoy_is_refused(table: Table):
    room = table.in_voting()
    voter = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    message = table.group_message(r"The table · round 1")
    own = round_of(room).plays[voter]
    data = next(d for text, d in buttons(message) if text.endswith(scene("default", own)))
    assert (
        table.press(table.user_of(room, voter), message, data)
        == "You cannot vote for your own card."
    )
    unchanged(table, room)


def test_the_storyteller_cannot_vote(table: Table):
    room = table.in_voting()
    message = table.group_message(r"The table · round 1")
    teller = table.user_of(room, round_of(room).storyteller)
    assert table.press(teller, message, buttons(message)[0][1]) == "The storyteller does not vote."
    unchanged(table, room)


def test_a_button_pressed_by_someone_not_in_the_game_is_refused(table: Table):
    room = table.in_voting()
    message = table.group_message(r"The table · round 1")
    stranger = table.stack.world.add_user(first_name="Stranger").id
    assert table.press(stranger, message, buttons(message)[0][1]) == "You are not in this game."
    unchanged(table, room)


def test_a_button_from_an_older_round_is_refused(table: Table):
    room = table.in_voting()
    voter = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    message = table.group_message(r"The table · round 1")
    key = table.stack.config.signing_key
    old = LINEUP.codec.encode(key, "vote", 0, round_of(room).table[0], room.game_id)
    assert table.press(table.user_of(room, voter), message, old) == "That is over already."
    unchanged(table, room)


def test_forged_callback_data_is_refused(table: Table):
    room = table.in_voting()
    message = table.group_message(r"The table · round 1")
    voter = table.user_of(room, round_of(room).participants[0])
    genuine = buttons(message)[0][1]
    forged = genuine.replace(".vote.1.", ".vote.1.0") if ".vote.1." in genuine else genuine[:-1]
    for data in [forged, "garbage", "1.vote.1.5~AAAAAAAA", "2.vote.1.5"]:
        assert table.press(voter, message, data) == "This button is not valid."
    unchanged(table, room)


def test_playing_a_decoy_twice_is_refused(table: Table):
    room = table.in_decoys()
    seat = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    user = table.user_of(room, seat)
    prompt = table.dm(user, "Choose a decoy")
    first, second = buttons(prompt)[0][1], buttons(prompt)[1][1]
    assert table.press(user, prompt, first).startswith("Decoy played")
    after = table.room()
    assert table.press(user, prompt, second) == "You have already played your card this round."
    unchanged(table, after)


def test_answered_prompts_keep_their_buttons_and_each_later_press_says_why(table: Table):
    """A pressed card is confirmed by the press's answer, not by editing its prompt: the
    prompt's buttons stay, and a press on them later changes nothing and says why."""
    room = table.started()
    teller = table.user_of(room, round_of(room).storyteller)
    told = table.dm(teller, "you are the storyteller")
    label, data = buttons(told)[1]
    assert table.press(teller, told, data) == f"Chosen: {label}. Now send your hint as a message."
    table.say(teller, teller, "night")
    given = table.dm(teller, "Hint given")
    assert f"Your card {label} with the hint «night» is on the table." in given.plain_text
    assert given.message_id > told.message_id  # below the typed hint
    after = table.room()
    assert phase_of(after) is Phase.DECOYS
    assert (table.press(teller, told, buttons(told)[0][1])
            == "You have already played your card this round.")  # fmt: skip
    unchanged(table, after)
    decoys = {}
    for seat in (i for i in round_of(after).participants if i != round_of(after).storyteller):
        user = table.user_of(after, seat)
        prompt = table.dm(user, "Choose a decoy")
        label, data = buttons(prompt)[0]
        assert table.press(user, prompt, data) == (
            f"Decoy played: {label}. Vote on the table in the group once every card is in."
        )
        decoys[user] = prompt
    table.group_message(r"The table · round 1")  # voting is open
    for user, prompt in decoys.items():
        shown = table.stack.world.message(user, prompt.message_id)
        assert shown.edits == [] and len(buttons(shown)) == len(buttons(prompt))
        after = table.room()
        assert (table.press(user, prompt, buttons(prompt)[1][1])
                == "You have already played your card this round.")  # fmt: skip
        unchanged(table, after)


def test_a_card_not_in_your_hand_is_refused(table: Table):
    room = table.in_decoys()
    seat = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    user = table.user_of(room, seat)
    prompt = table.dm(user, "Choose a decoy")
    foreign = own_seats(room)[round_of(room).storyteller].hand[0]
    key = table.stack.config.signing_key
    data = LINEUP.codec.encode(key, "decoy", table.chat, 1, foreign, room.game_id)
    assert table.press(user, prompt, data) == "That card is not in your hand."
    unchanged(table, room)


@pytest.mark.parametrize(
    ("hint", "answer"),
    [
        ("   ", "The hint is empty"),
        ("x" * 201, "The hint is too long"),
    ],
)
def test_an_empty_or_too_long_hint_is_refused(table: Table, hint: str, answer: str):
    room = table.started()
    teller = table.user_of(room, round_of(room).storyteller)
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    room = table.run(ChooseCard(user_id=teller, card=card))
    table.say(teller, teller, hint)
    table.dm(teller, answer)
    unchanged(table, room)


def test_a_hint_before_choosing_a_card_is_refused(table: Table):
    room = table.started()
    teller = table.user_of(room, round_of(room).storyteller)
    table.say(teller, teller, "moonlight")
    table.dm(teller, "Choose your card first")
    unchanged(table, room)


def test_a_hint_sent_after_its_time_ran_out_is_told_so(table: Table):
    table.lobby()
    table.run(ChangeSettings(user_id=table.users[0], changes={"timers": True, "hint_s": 15}))
    room = table.run(StartGame(user_id=table.users[0]))
    teller = table.user_of(room, round_of(room).storyteller)
    number = round_of(room).no
    wait_for(lambda: round_of(table.room()).no > number, what="the hint's time to run out")
    table.say(teller, teller, "a hint too late")
    table.dm(teller, "Too late: time ran out before your hint, so your turn passed.")
    assert round_of(table.room()).hint != "a hint too late"


def test_starting_with_fewer_than_three_players_is_refused(table: Table):
    room = table.lobby(players=2)
    lobby = table.group_message("a new game is open")
    assert (
        table.press(table.users[0], lobby, button(lobby, "Start"))
        == "At least 3 players are needed to start."
    )
    unchanged(table, room)


def test_a_group_command_in_a_private_chat_is_answered(table: Table):
    user = table.users[0]
    table.say(user, user, "/newgame")
    table.dm(user, "works in a group chat")
    assert table.service.store.load(table.chat) is None


def test_a_command_in_the_wrong_phase_is_answered(table: Table):
    room = table.started()
    player = table.user_of(room, (round_of(room).storyteller + 1) % 4)
    table.say(player, table.chat, "/back")
    table.group_message("You are already playing")
    table.say(table.users[0], table.chat, "/settings rotations=3")
    table.group_message("not possible right now")
    unchanged(table, room)


def test_settings_out_of_bounds_are_refused_with_the_bounds(table: Table):
    room = table.lobby()
    table.say(table.users[0], table.chat, "/settings rotations=9")
    table.group_message("rotations must be 1–5")
    unchanged(table, room)


def test_only_the_host_or_an_admin_may_start(table: Table):
    room = table.lobby()
    lobby = table.group_message("a new game is open")
    assert (
        table.press(table.users[1], lobby, button(lobby, "Start"))
        == "Only the game's host or a group admin can do that."
    )
    unchanged(table, room)
    table.stack.world.set_admin(table.chat, table.users[2])
    assert table.press(table.users[2], lobby, button(lobby, "Start")) == "The game starts!"


def test_an_update_delivered_twice_is_applied_once(table: Table):
    room = table.in_voting()
    voter = next(i for i in round_of(room).participants if i != round_of(room).storyteller)
    message = table.group_message(r"The table · round 1")
    target = round_of(room).plays[round_of(room).storyteller]
    data = next(d for text, d in buttons(message) if text.endswith(scene("default", target)))
    update = table.stack.world.press(
        table.user_of(room, voter), table.chat, message.message_id, data
    )
    assert table.stack.deliver(update) == 200
    once = table.room()
    assert table.stack.deliver(update) == 200
    unchanged(table, once)
    assert once.version == room.version + 1


def test_the_bot_removed_from_the_group_closes_the_game_and_cleans_up(table: Table):
    table.in_voting()
    table.stack.deliver(table.stack.world.bot_removed(table.chat, table.users[0]))
    assert table.service.store.load(table.chat) is None
    assert table.service.store.room_of_player(table.users[1]) is None
    leftovers = table.stack.client.keys(
        keys.room_prefix(table.chat).replace("{", "\\{").replace("}", "\\}") + "*"
    )
    assert leftovers == []


def test_a_player_who_never_opened_a_private_chat_gets_a_deep_link_and_joins_by_it(table: Table):
    table.lobby(players=3)
    newcomer = table.stack.world.add_user(first_name="New").id
    lobby = table.group_message("a new game is open")
    update = table.stack.world.press(newcomer, table.chat, lobby.message_id, button(lobby, "Join"))
    table.stack.deliver(update)
    answer = wait_for(lambda: table.stack.world.callback_answer(update["callback_query"]["id"]))
    assert answer.url == f"https://t.me/hintrigue_bot?start=j{table.chat}"
    assert table.room().seat_of(newcomer) is None
    table.stack.deliver(table.stack.world.start_private(newcomer, f"j{table.chat}"))
    table.dm(newcomer, "You joined the game")
    assert table.room().seat_of(newcomer) is not None


def test_a_player_who_blocked_the_bot_is_reported_and_the_game_goes_on(table: Table):
    room = table.started()
    blocker = table.user_of(room, (round_of(room).storyteller + 1) % 4)
    table.stack.world.block_bot(blocker)
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    table.run(GiveHint(user_id=teller.user_id, text="night"))
    notice = table.group_message("cannot write to")
    assert any(e.get("url", "").endswith(f"start=r{table.chat}") for e in notice.entities)
    index = table.room().seat_of(blocker)
    wait_for(lambda: index in round_of(table.room()).plays, what="the automatic decoy")
    assert index in round_of(table.room()).auto
