"""An outbox entry is parsed once, however often its room's deliveries read it while it waits
for its chat's limit (`delivery._parse`)."""

from __future__ import annotations

import pytest

from tgbot.egress import delivery
from tgbot.egress.outgoing import Outgoing
from tgbot.games.registry import LINEUP


@pytest.fixture
def parses(monkeypatch) -> list[bytes | str]:
    monkeypatch.setattr(delivery, "_parsed", {})
    seen: list[bytes | str] = []
    original = Outgoing.parse.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Outgoing], raw: bytes | str, pictures: object) -> Outgoing:
        seen.append(raw)
        return original(cls, raw, pictures)

    monkeypatch.setattr(Outgoing, "parse", classmethod(counted))
    return seen


def test_an_entry_read_again_is_not_parsed_again(parses) -> None:
    raw = Outgoing(chat_id=-1001, key="table", text="<b>Round 2</b>").model_dump_json().encode()
    first = delivery._parse(raw, LINEUP.pictures)
    again = delivery._parse(raw, LINEUP.pictures)
    assert first is again and first is not None and first.text == "<b>Round 2</b>"
    assert parses == [raw]
    other = Outgoing(chat_id=-1001, key="table", text="<b>Round 3</b>").model_dump_json()
    assert delivery._parse(other, LINEUP.pictures).text == "<b>Round 3</b>"  # type: ignore[union-attr]
    assert parses == [raw, other]
    delivery._parse(raw, {})  # read with other kinds of picture: parsed with those
    assert len(parses) == 3


def test_a_broken_entry_is_dropped_each_time_and_kept_nowhere(parses, caplog) -> None:
    assert delivery._parse(b'{"chat_id": "no"}', LINEUP.pictures) is None
    assert delivery._parse(b'{"chat_id": "no"}', LINEUP.pictures) is None
    assert len(parses) == 2 and delivery._parsed == {}
    assert sum("does not parse" in r.getMessage() for r in caplog.records) == 2


def test_the_entries_kept_are_the_latest_few(parses, monkeypatch) -> None:
    monkeypatch.setattr(delivery, "PARSED_KEPT", 3)
    raws = [Outgoing(chat_id=7, text=f"m{i}").model_dump_json() for i in range(5)]
    for raw in raws:
        delivery._parse(raw, LINEUP.pictures)
    assert list(delivery._parsed) == raws[2:]
    delivery._parse(raws[0], LINEUP.pictures)  # forgotten: parsed anew
    assert parses == [*raws, raws[0]]


def test_an_entry_that_left_the_outbox_is_forgotten(parses) -> None:
    raws = [Outgoing(chat_id=7, text=f"m{i}").model_dump_json() for i in range(3)]
    for raw in raws:
        delivery._parse(raw, LINEUP.pictures)
    delivery._forget(raws[:2])
    assert list(delivery._parsed) == raws[2:]
