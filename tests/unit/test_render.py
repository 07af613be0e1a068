"""Rendering: secrets stay private, user text is escaped, keyboards fit Telegram's limits."""

from engine.games.hintrigue.decks import scene
from engine.games.hintrigue.model import Phase, own_seats, phase_of
from tests.builders import a_room
from tgbot.games.hintrigue.group import reveal, table
from tgbot.games.registry import LINEUP
from tgbot.table.callback import MAX_BYTES
from tgbot.table.effects import outgoing_for
from tgbot.table.render import Look, lobby, names

LOOK = Look(bot_username="hintrigue_bot", key=b"k", lineup=LINEUP)


def test_names_that_clash_are_told_apart_and_escaped():
    game = a_room().with_players(3).in_lobby()
    for seat in game.room.seats:
        seat.name = "<i>Al</i>"
    game.room.seats[1].username = "al_two"
    shown = names(game.room)
    assert shown[1] == "&lt;i&gt;Al&lt;/i&gt; (@al_two)"
    assert shown[0] == "&lt;i&gt;Al&lt;/i&gt; #1"


def test_the_group_never_sees_hands_or_who_owns_a_table_card_before_the_reveal():
    game = a_room().in_voting()
    group_texts = [o.text for o in outgoing_for(game.room, game.events, LOOK) if o.chat_id < 0]
    shown = table(game.room, LOOK).text
    hands = [scene("default", c) for s in own_seats(game.room) for c in s.hand]
    for text in [*group_texts, shown]:
        assert not any(card in text for card in hands)
    voted_line = next(line for line in shown.splitlines() if line.startswith("Vote for"))
    assert voted_line.startswith(f"Vote for P{game.storyteller()}'s card")


def test_the_reveal_names_each_cards_owner_and_voters():
    game = a_room().in_voting()
    teller = game.storyteller()
    for seat in game.others():
        game.vote(seat, teller)
    assert phase_of(game.room) is Phase.REVEAL
    text = reveal(game.room, LOOK).text
    assert f"{scene('default', game.card_of(teller))} — <b>P{teller} (storyteller)</b>" in text


def test_every_button_carries_valid_data_within_64_bytes():
    game = a_room().with_players(8).in_voting()
    messages = [lobby(game.room, LOOK, settings_mode=True), table(game.room, LOOK)]
    messages += outgoing_for(game.room, game.events, LOOK)
    for message in messages:
        for row in message.buttons:
            for button in row:
                assert button.data is not None and len(button.data.encode()) <= MAX_BYTES
                LINEUP.codec.decode(LOOK.key, button.data)


def test_a_hint_with_html_is_escaped_everywhere_it_is_shown():
    game = a_room().in_hint().give_hint("<script>&</script>").play_decoys()
    texts = [o.text for o in outgoing_for(game.room, game.events, LOOK)]
    texts.append(table(game.room, LOOK).text)
    assert all("<script>" not in t for t in texts)
    assert any("&lt;script&gt;&amp;&lt;/script&gt;" in t for t in texts)
