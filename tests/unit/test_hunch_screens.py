"""Hunch!'s Telegram side without Telegram: whole games rendered event by event (every event
renders, every button decodes and fits Telegram's 64 bytes with six seats, the longest words
and a forum topic, at most 100 buttons a message), the group never sees a secret or a hunch
before its reveal (its messages are the same whatever the secrets and hunches are), captions
fit 1024 characters, and the lobby's rows and texts."""

from __future__ import annotations

from typing import Any

import pytest

from engine.commands import ChangeSettings, Join, OpenLobby, StartGame, Timeout
from engine.games.hunch import deck
from engine.games.hunch.model import Phase, State
from engine.model import OVER_PHASES, Room
from engine.roomid import RoomId
from engine.rules import apply as apply_at
from tests.hunch_builders import TABLE, next_move
from tgbot.egress.outgoing import MAX_CAPTION, Outgoing, caption_length
from tgbot.games.hunch import hunches, private
from tgbot.games.registry import LINEUP
from tgbot.table.callback import MAX_BYTES
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look
from tgbot.table.render import lobby as lobby_message

decode = LINEUP.codec.decode
LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP, now=0.0)
CHAT = -1001234567890
LONG = "Ludwig van Beethoven the Second of His Name"


def apply(room: Room | None, command: Any, now: float) -> tuple[Room, list[Any]]:
    return apply_at(room, command, now, TABLE)


def lobby(players: int, topic: int = 0, language: str = "en", **settings: object) -> Room:
    opened = OpenLobby(chat_id=CHAT, user_id=1, name="Ann", seed=5, game="hunch",
                       room=RoomId(CHAT, topic), game_settings=settings)  # fmt: skip
    room, _ = apply(None, opened, 0.0)
    for user in range(2, players + 1):
        name = ("Bob", "Cy", "Dee", "Ed", LONG)[user - 2]
        room, _ = apply(room, Join(user_id=user, name=name), 0.0)
    if language != "en":
        room, _ = apply(room, ChangeSettings(user_id=1, changes={"language": language}), 0.0)
    return room


def play(room: Room, seen: list[tuple[Room, list[Any], list[Outgoing]]]) -> Room:
    """Play the room's game to its end with sensible seats, rendering every command."""
    room, events = apply(room, StartGame(user_id=1), 1.0)
    seen.append((room, events, outgoing_for(room, events, LOOK.at(1.0))))
    now = 1.0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, State)
        command, at = next_move(state, now)
        now = max(now, at) + 1
        if command.kind == "timeout":
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        room, events = apply(room, command, now)
        seen.append((room, events, outgoing_for(room, events, LOOK.at(now))))
    return room


def all_buttons(message: Outgoing) -> list[Any]:
    return [button for row in message.buttons for button in row]


@pytest.mark.parametrize(("players", "language"), [(3, "en"), (6, "de"), (4, "ru")])
def test_every_event_renders_and_every_button_fits(players: int, language: str) -> None:
    seen: list[tuple[Room, list[Any], list[Outgoing]]] = []
    room = play(lobby(players, topic=987654, language=language), seen)
    assert room.phase.value == "finished"
    kinds = {event.kind for _, events, _ in seen for event in events}
    assert {"hunch_bid_made", "hunch_auction_won", "hunch_clue_placed", "hunch_bargain_turn",
            "hunch_hunches_revealed", "game_finished"} <= kinds  # fmt: skip
    pressed = 0
    for _room, _events, out in seen:
        for message in out:
            assert message.text
            assert len(all_buttons(message)) <= 100
            for button in all_buttons(message):
                assert button.data is not None and len(button.data.encode()) <= MAX_BYTES
                decode(LOOK.key, button.data)
                pressed += 1
            if message.picture is not None:
                assert caption_length(message.text) <= MAX_CAPTION, message.key
    assert pressed > 100


def test_the_final_tells_every_secret_and_the_group_result() -> None:
    seen: list[tuple[Room, list[Any], list[Outgoing]]] = []
    room = play(lobby(3), seen)
    final = next(m for m in seen[-1][2] if m.key == "final")
    assert "The secrets" in final.text and "Together you guessed" in final.text
    state = room.play
    assert isinstance(state, State)
    for seat in state.seats:
        for secret in seat.secrets:
            assert deck.word("en", secret.word_id) in final.text


def group_texts(out: list[Outgoing]) -> list[str]:
    """What the group sees of a command: texts, buttons' labels, pictures' data."""
    shown = []
    for message in out:
        if message.chat_id != CHAT:
            continue
        shown.append(message.text)
        shown += [button.text for button in all_buttons(message)]
        if message.picture is not None:
            shown.append(message.picture.model_dump_json())
    return shown


def test_the_group_never_sees_a_secret_or_a_hunch_before_its_reveal() -> None:
    """Two games alike but for every secret chosen and every hunch's word: the group's messages
    are the same until a reveal tells what it reveals."""
    first: list[tuple[Room, list[Any], list[Outgoing]]] = []
    second: list[tuple[Room, list[Any], list[Outgoing]]] = []
    play(lobby(4), first)
    play_varied(lobby(4), second)
    compared = 0
    for (room_a, _, out_a), (room_b, _, out_b) in zip(first, second, strict=False):
        state_a, state_b = room_a.play, room_b.play
        assert isinstance(state_a, State) and isinstance(state_b, State)
        if state_a.phase in (Phase.REVEAL, Phase.FINISHED) or state_a.revealed:
            break
        assert group_texts(out_a) == group_texts(out_b)
        compared += 1
    assert compared > 20


def play_varied(room: Room, seen: list[tuple[Room, list[Any], list[Outgoing]]]) -> Room:
    """Like `play`, but every secret is another word of its card and every hunch another word
    (the same steps, the same timing)."""
    from engine.games.hunch.commands import ChooseSecret, PlaceHunch

    room, events = apply(room, StartGame(user_id=1), 1.0)
    seen.append((room, events, outgoing_for(room, events, LOOK.at(1.0))))
    now = 1.0
    while room.phase not in OVER_PHASES:
        state = room.play
        assert isinstance(state, State)
        if state.phase is Phase.REVEAL:
            break
        command, at = next_move(state, now)
        now = max(now, at) + 1
        if isinstance(command, ChooseSecret):
            command = command.model_copy(update={"word": (command.word + 1) % 3})
        elif isinstance(command, PlaceHunch):
            words = sorted(w for w in _matrix_words(state) if w != command.word)
            command = command.model_copy(update={"word": words[0]})
        if command.kind == "timeout":
            command = Timeout(round_no=command.round_no, phase=command.phase.value)
        room, events = apply(room, command, now)
        seen.append((room, events, outgoing_for(room, events, LOOK.at(now))))
    return room


def _matrix_words(state: State) -> list[int]:
    from engine.games.hunch.turns import matrix_words

    return list(matrix_words(state))


def test_the_longest_buttons_fit_with_six_seats_in_a_forum_topic() -> None:
    room = lobby(6, topic=2_147_483_647)
    room, _ = apply(room, StartGame(user_id=1), 1.0)
    state = room.play
    assert isinstance(state, State)
    longest = max(len(w) for card in deck.targets("en") for w in card)
    assert longest >= 11
    messages = [private.secrets_dm(room, 5, LOOK)]
    for index in range(6):
        for card in range(len(state.seats[index].secrets)):
            room, _ = apply(room, _choose(room, index, card), 2.0)
    state = room.play
    assert isinstance(state, State) and state.phase is Phase.CLUES
    messages.append(private.clues_dm(room, 5, LOOK))
    for target in range(18):
        messages.append(hunches.hunch_dm(room, 0, LOOK, target))
    for message in messages:
        for button in all_buttons(message):
            assert len(button.data.encode()) <= MAX_BYTES, button.data


def _choose(room: Room, index: int, card: int) -> Any:
    from engine.games.hunch.commands import ChooseSecret

    return ChooseSecret(user_id=room.seats[index].user_id, card=card, word=2)


def test_the_lobby_shows_hunch_settings_and_its_rows_keep_their_indices() -> None:
    room = lobby(3)
    message = lobby_message(room, LOOK, settings_mode=True)
    assert "Hunch!" in message.text and "3–6 players" in message.text
    labels = " ".join(b.text for b in all_buttons(message))
    assert "advanced rules" in labels and "bid time" in labels
    assert LINEUP.setting("hunch", "clue_s").index == LINEUP.setting("guesswhat", "clue_s").index
    assert LINEUP.aliases["hunch!"] == "hunch"
