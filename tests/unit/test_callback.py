"""Callback data: compact, versioned, signed."""

import pytest

from tgbot.table.callback import MAX_BYTES, BadCallback, Callback, decode, encode

KEY = b"secret"


def test_callback_data_round_trips():
    data = encode(KEY, "card", -1001234567890, 12, 282, 77)
    assert decode(KEY, data) == Callback("card", (-1001234567890, 12, 282, 77))


def test_a_button_sent_before_games_had_ids_still_decodes_without_one():
    body = "1.card.-1001234567890.12.282"
    from tgbot.table.callback import _mac

    assert decode(KEY, f"{body}~{_mac(KEY, body)}") == Callback("card", (-1001234567890, 12, 282))


def test_the_longest_callback_data_fits_in_64_bytes():
    data = encode(KEY, "decoy", -1009999999999999, 999999, 999999, (1 << 30) - 1)
    assert len(data.encode()) <= MAX_BYTES


@pytest.mark.parametrize("data", [None, "", "garbage", "1.vote.1.2", "1.vote.1~AAAAAAAA", "x" * 80])
def test_malformed_data_is_refused(data):
    with pytest.raises(BadCallback):
        decode(KEY, data)


def test_data_signed_with_another_key_is_refused():
    with pytest.raises(BadCallback):
        decode(KEY, encode(b"other", "vote", 1, 2, 3))


def test_an_altered_field_is_refused():
    data = encode(KEY, "vote", 1, 2, 3)
    body, mac = data.split("~")
    with pytest.raises(BadCallback):
        decode(KEY, body.replace(".2", ".3") + "~" + mac)


def test_a_kind_with_the_wrong_number_of_fields_cannot_be_encoded():
    with pytest.raises(ValueError):
        encode(KEY, "vote", 1)


def _signed(body: str) -> str:
    from tgbot.table.callback import _mac

    return f"{body}~{_mac(KEY, body)}"


@pytest.mark.parametrize("char", ["é", "ё", "€", "\u200b", "\x00", "\udc80", "🌙", "Ａ"])
@pytest.mark.parametrize("at", [0, 3, 7])
def test_a_signature_holding_a_non_ascii_character_is_refused(char, at):
    data = encode(KEY, "vote", 1, 2, 3)
    body, mac = data.split("~")
    with pytest.raises(BadCallback):
        decode(KEY, f"{body}~{mac[:at]}{char}{mac[at + 1 :]}")
    with pytest.raises(BadCallback):
        decode(KEY, f"{body}~{mac}{char}")


@pytest.mark.parametrize(
    "data",
    [
        "1.vote.1.2.3~",  # no signature
        "1.vote.1.2.3~AAAA",  # a signature too short
        "1.vote.1.2.3~AAAAAAAAA",  # too long
        "1.vote.1.2.3~AAAA+/AA",  # not URL-safe base64
        "1.vote.1.2.3~~AAAAAAAA",
        "1.vote.١.2.3~AAAAAAAA",  # an Arabic-Indic digit
        "1.vote.é.2.3~AAAAAAAA",
        "1.vote..2.3~AAAAAAAA",
        "1.VOTE.1.2.3~AAAAAAAA",
    ],
)
def test_data_not_of_the_shape_encode_writes_is_refused_before_comparing(data):
    with pytest.raises(BadCallback):
        decode(KEY, data)


@pytest.mark.parametrize("field", ["+1", " 1", "1_0", "1 ", "--1", "0x1", "١"])
def test_a_signed_field_that_is_no_plain_integer_is_refused(field):
    with pytest.raises(BadCallback):
        decode(KEY, _signed(f"1.vote.{field}.2.3"))


def test_negative_fields_decode_as_encode_writes_them():
    assert decode(KEY, encode(KEY, "card", -1001, 2, -1, 7)) == Callback("card", (-1001, 2, -1, 7))
