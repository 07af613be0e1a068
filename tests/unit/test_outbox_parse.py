"""An outbox entry's head is parsed once, however often its room's deliveries read it while it
waits for its chat's limit (`delivery._parse`); its whole message only when it is sent
(`delivery._message`)."""

from __future__ import annotations

from tgbot.egress import delivery
from tgbot.egress.outgoing import Button, Head, Outgoing
from tgbot.games.registry import LINEUP


def test_an_entry_read_again_is_not_parsed_again(head_parses) -> None:
    raw = Outgoing(chat_id=-1001, key="table", game=3, text="<b>Round 2</b>", fresh=True,
                   settle_until=12.5, once="help").model_dump_json().encode()  # fmt: skip
    first = delivery._parse(raw)
    again = delivery._parse(raw)
    assert first is again and first == Head(chat_id=-1001, key="table", game=3, fresh=True,
                                            settle_until=12.5, once="help")  # fmt: skip
    assert head_parses == [raw]
    other = Outgoing(chat_id=-1002, key="table", text="<b>Round 3</b>").model_dump_json()
    assert delivery._parse(other) == Head(chat_id=-1002, key="table")
    assert head_parses == [raw, other]


def test_a_head_has_the_fields_of_the_message_it_heads() -> None:
    """Delivery orders entries by their heads: a field of that name must mean the same."""
    for name, field in Head.model_fields.items():
        assert name in Outgoing.model_fields, name
        assert Outgoing.model_fields[name].annotation == field.annotation, name
        assert Outgoing.model_fields[name].default == field.default, name


def test_the_whole_message_is_read_when_it_is_sent(head_parses) -> None:
    sent = Outgoing(chat_id=7, key="dm:7:1", text="Pick a card",
                    buttons=[[Button(text="1", data="c:1")]], lang="de")  # fmt: skip
    assert delivery._message(sent.model_dump_json(), LINEUP.pictures) == sent
    assert head_parses == []  # no head needed for it


def test_a_broken_entry_is_dropped_each_time_and_kept_nowhere(head_parses, caplog) -> None:
    assert delivery._parse(b'{"chat_id": "no"}') is None
    assert delivery._parse(b'{"chat_id": "no"}') is None
    assert len(head_parses) == 2 and delivery._parsed == {}
    assert delivery._message(b'{"chat_id": 7}', LINEUP.pictures) is None  # no text
    assert delivery._message(b'{"chat_id": 7, "text": "x", "picture": {"kind": "nope"}}',
                             LINEUP.pictures) is None  # fmt: skip
    assert sum("does not parse" in r.getMessage() for r in caplog.records) == 4


def test_the_entries_kept_are_the_latest_few(head_parses, monkeypatch) -> None:
    monkeypatch.setattr(delivery, "PARSED_KEPT", 3)
    raws = [Outgoing(chat_id=7, text=f"m{i}", key=f"k{i}").model_dump_json() for i in range(5)]
    for raw in raws:
        delivery._parse(raw)
    assert list(delivery._parsed) == raws[2:]
    delivery._parse(raws[0])  # forgotten: parsed anew
    assert head_parses == [*raws, raws[0]]
    assert list(delivery._parsed) == [*raws[3:], raws[0]]


def test_an_entry_that_left_the_outbox_is_forgotten(head_parses) -> None:
    raws = [Outgoing(chat_id=7, text=f"m{i}", key=f"k{i}").model_dump_json() for i in range(3)]
    for raw in raws:
        delivery._parse(raw)
    delivery._forget(raws[:2])
    assert list(delivery._parsed) == raws[2:]
