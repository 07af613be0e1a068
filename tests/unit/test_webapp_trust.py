"""The board app's trust (SPEC 16): `initData` checked against Telegram's published example,
and refused when tampered, re-signed with another token, stale, from the future, given a field
twice or malformed; fields in any order check the same. Room tokens name the room they were
signed for and no other."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest

from engine.roomid import RoomId
from tgbot.standin.miniapp import sign_init_data
from tgbot.webapp.trust import (
    MAX_AGE_S,
    check_init_data,
    read_room_token,
    room_token,
)

# Published by Telegram-Mini-Apps (docs/platform/init-data), signed by this test bot token.
TOKEN = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8"
PUBLISHED = (
    "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vla"
    "dislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22langua"
    "ge_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f7"
    "4ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2"
)
SIGNED_AT = 1662771648


def test_the_published_example_is_genuine_and_names_its_user() -> None:
    user = check_init_data(PUBLISHED, TOKEN, now=SIGNED_AT + 10)
    assert user is not None
    assert (user.id, user.first_name, user.language_code) == (279058397, "Vladislav", "ru")


def test_fields_in_another_order_check_the_same() -> None:
    pairs = parse_qsl(PUBLISHED)
    assert check_init_data(urlencode(list(reversed(pairs))), TOKEN, now=SIGNED_AT) is not None


@pytest.mark.parametrize(
    "change",
    [
        lambda raw: raw.replace("279058397", "279058398"),  # another user
        lambda raw: raw.replace("auth_date=1662771648", "auth_date=1662771649"),
        lambda raw: raw.replace("hash=c", "hash=d"),
        lambda raw: raw + "&start_param=x",  # a field the signature does not cover
        lambda raw: raw + "&auth_date=1662771648",  # a field twice
        lambda raw: raw.split("&hash=")[0],  # no hash
        lambda raw: "",
        lambda raw: "%%%",
        lambda raw: raw + "&" + "x" * 5000,
    ],
)
def test_tampered_or_malformed_data_is_refused(change) -> None:
    assert check_init_data(change(PUBLISHED), TOKEN, now=SIGNED_AT) is None


def test_data_signed_for_another_bot_is_refused() -> None:
    assert check_init_data(PUBLISHED, "123:another", now=SIGNED_AT) is None


def test_data_older_than_an_hour_or_from_the_future_is_refused() -> None:
    assert check_init_data(PUBLISHED, TOKEN, now=SIGNED_AT + MAX_AGE_S) is not None
    assert check_init_data(PUBLISHED, TOKEN, now=SIGNED_AT + MAX_AGE_S + 1) is None
    assert check_init_data(PUBLISHED, TOKEN, now=SIGNED_AT - 3600) is None


def test_data_we_sign_as_telegram_does_is_read_back_with_its_start_param() -> None:
    user = json.dumps({"id": 42, "first_name": "Ann", "language_code": "it"})
    raw = sign_init_data({"user": user, "auth_date": "1000", "start_param": "-5_0_3_x"}, TOKEN)
    read = check_init_data(raw, TOKEN, now=1000)
    assert read is not None and (read.id, read.start_param) == (42, "-5_0_3_x")
    assert check_init_data(raw.replace("Ann", "Bob"), TOKEN, now=1000) is None


def test_a_room_token_names_its_room_and_game_and_no_other() -> None:
    key = b"secret"
    token = room_token(key, RoomId(-1001234567890, 77), 5)
    assert len(token) <= 64 and token.replace("_", "").replace("-", "").isalnum()
    assert read_room_token(key, token) == (RoomId(-1001234567890, 77), 5)
    forged = token.replace("_77_", "_78_")
    assert read_room_token(key, forged) is None
    assert read_room_token(b"other", token) is None
    assert read_room_token(key, "") is None and read_room_token(key, "1_2_3") is None
