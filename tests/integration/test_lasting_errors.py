"""An update whose handler keeps failing while Redis answers (a key of the wrong type, a bug) is
set aside after a few tries, its sender is told, and the room's later updates go on; an update
with a lone surrogate in its text is answered like any other."""

from __future__ import annotations

import json

import httpx
import pytest

from engine.games.hintrigue.commands import ChooseCard
from engine.games.hintrigue.model import own_seats, round_of
from engine.store import keys
from tests.integration.test_bad_input import Table, stack  # noqa: F401 - shared fixture
from tgbot.ingress.web import SECRET_HEADER
from workers.jobs import TRIES


@pytest.fixture
def table(stack) -> Table:  # noqa: F811
    return Table(stack)


def test_a_room_whose_state_has_the_wrong_type_sets_the_update_aside_and_goes_on(table: Table):
    client = table.stack.client
    client.set(keys.room(table.chat), "not a hash")  # every command here meets WRONGTYPE
    table.say(table.users[0], table.chat, "/newgame")
    table.group_message("Sorry, something went wrong with that, and it was noted")
    failed = client.lrange(keys.failed_updates(table.chat), 0, -1)
    assert [json.loads(raw)["message"]["text"] for raw in failed] == ["/newgame"]
    # The room's next updates are handled: nothing is stuck behind the failed one.
    table.say(table.users[0], table.chat, "/rules")
    table.group_message("How to play Hintrigue")
    assert not client.exists(keys.inbox(table.chat))
    assert TRIES == 3


def test_a_hint_with_a_lone_surrogate_is_taken_with_the_character_replaced(table: Table):
    room = table.started()
    teller = room.seats[round_of(room).storyteller]
    card = own_seats(room)[round_of(room).storyteller].hand[0]
    table.run(ChooseCard(user_id=teller.user_id, card=card))
    update = table.stack.world.user_message(teller.user_id, teller.user_id, "moon")
    body = json.dumps(update).replace('"moon"', '"moon \\ud800 light"')
    response = httpx.post(table.stack.config.webhook_url, content=body.encode(),
                          headers={SECRET_HEADER: table.stack.config.secret})  # fmt: skip
    assert response.status_code == 200
    table.stack.settle()
    table.dm(teller.user_id, "Hint given")
    assert round_of(table.room()).hint == "moon \ufffd light"
