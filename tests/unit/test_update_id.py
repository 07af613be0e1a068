"""A drain reads an update's id for its log lines from the update's first bytes, as Telegram
sends it, without parsing the whole update (the handler parses it once, `Update.de_json`)."""

from __future__ import annotations

import json

import pytest

from workers import jobs


def test_the_leading_id_is_read_without_parsing_the_update(monkeypatch) -> None:
    def parsed(_raw: object) -> object:
        raise AssertionError("the whole update was parsed")

    monkeypatch.setattr(jobs.json, "loads", parsed)
    assert jobs._update_id(b'{"update_id":123456789,"message":{"text":"/help"}}') == 123456789
    assert jobs._update_id(b'{ "update_id" : 7 }') == 7


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        (json.dumps({"message": {"text": "hi"}, "update_id": 5}).encode(), 5),  # not first
        (b'{"update_id":"5"}', None),
        (b'{"update_id":1.5}', None),
        (b"not json", None),
        (b"[1, 2]", None),
    ],
)
def test_any_other_update_is_parsed_for_its_id(raw: bytes, found: int | None) -> None:
    assert jobs._update_id(raw) == found
