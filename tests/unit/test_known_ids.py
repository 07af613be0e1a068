"""The message ids a delivery looks up for what it read of an outbox (`delivery._known_ids`):
one HMGET a game, whatever the number of messages and of renderings of each."""

from __future__ import annotations

import fakeredis

from engine.store import keys
from tgbot.egress import delivery
from tgbot.egress.outgoing import Outgoing

ROOM = -1001


def test_ids_are_found_per_game_each_key_once_and_unsent_ones_left_out() -> None:
    client = fakeredis.FakeRedis()
    client.hset(keys.message_ids(ROOM, 1), mapping={"table:1": 11, "round:1": 12})
    client.hset(keys.message_ids(ROOM, 2), mapping={"table:1": 21})
    batch = [
        Outgoing(chat_id=ROOM, game=1, key="table:1", text="a"),
        Outgoing(chat_id=ROOM, game=2, key="table:1", text="b"),  # the same key, another game
        Outgoing(chat_id=ROOM, game=1, key="table:1", text="c"),  # a later rendering
        Outgoing(chat_id=ROOM, game=1, key="round:2", text="d"),  # not sent yet
        Outgoing(chat_id=ROOM, game=1, key="round:1", text="e"),
        Outgoing(chat_id=ROOM, text="no key"),
        None,  # an entry that did not parse
    ]
    assert delivery._known_ids(client, ROOM, batch) == {
        (1, "table:1"): 11, (1, "round:1"): 12, (2, "table:1"): 21,
    }  # fmt: skip
    assert delivery._known_ids(client, ROOM, [batch[5], None]) == {}


def test_one_game_costs_one_command_for_all_its_messages() -> None:
    client = fakeredis.FakeRedis()
    client.hset(keys.message_ids(ROOM, 3), mapping={f"dm:{i}:1": 100 + i for i in range(30)})
    batch = [Outgoing(chat_id=i, game=3, key=f"dm:{i}:1", text="x") for i in range(40)]
    sent: list[list[object]] = []
    client.hmget = _recording(client.hmget, sent)  # type: ignore[method-assign]
    known = delivery._known_ids(client, ROOM, batch)
    assert known == {(3, f"dm:{i}:1"): 100 + i for i in range(30)}
    assert len(sent) == 1 and len(sent[0]) == 40


def _recording(hmget, sent):
    def recorded(name, names, *more):
        sent.append(list(names))
        return hmget(name, names, *more)

    return recorded
