"""Callback data: compact, versioned, signed."""

import pytest

from tgbot.games.registry import LINEUP
from tgbot.table import callback
from tgbot.table.callback import MAX_BYTES, BadCallback, Callback, Codec

KEY = b"secret"
encode, decode = LINEUP.codec.encode, LINEUP.codec.decode
"""The bot's codec: the table's kinds and every game's (Hintrigue's `card`, `decoy`, `vote`)."""


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


OLD_KEY = b"hintrigue-old-buttons"
SENT_BEFORE = [
    # Written by the bot while the table's own codec still listed Hintrigue's kinds.
    ("1.card.-1001234567890.12.282.77~nb_n2POp", "card", (-1001234567890, 12, 282, 77)),
    ("1.card.-1001234567890.12.282~-vs7UYL2", "card", (-1001234567890, 12, 282)),
    (
        "1.card.-1001234567890.3.5.1073741823.2147483647~tcK4ALqB",
        "card",
        (-1001234567890, 3, 5, 1073741823, 2147483647),
    ),
    ("1.decoy.-1001234567890.4.199.9~F6SDanI_", "decoy", (-1001234567890, 4, 199, 9)),
    ("1.decoy.-1001234567890.4.199~FkRf3V_t", "decoy", (-1001234567890, 4, 199)),
    (
        "1.decoy.-1009999999999999.999999.999999.1073741823.77~F5A1NW3Y",
        "decoy",
        (-1009999999999999, 999999, 999999, 1073741823, 77),
    ),
    ("1.vote.2.212.9~Qza-CM9d", "vote", (2, 212, 9)),
    ("1.vote.2.212~E470lwOv", "vote", (2, 212)),
    ("1.vote.0.-1.1~XlUAscb1", "vote", (0, -1, 1)),
    # The table's own kinds, in their shorter, full and topic forms.
    ("1.join~78ooIpds", "join", ()),
    ("1.join.9~KwMIip5m", "join", (9,)),
    ("1.back.-1001234567890~w8QIVGNT", "back", (-1001234567890,)),
    ("1.back.-1001234567890.9~geszpkg8", "back", (-1001234567890, 9)),
    ("1.back.-1001234567890.9.77~On2de8eJ", "back", (-1001234567890, 9, 77)),
    ("1.stop.1.14~oUch-rmF", "stop", (1, 14)),
    ("1.stop.0.14.9~VAQ65u0f", "stop", (0, 14, 9)),
    ("1.set.3.1~mV0nWmrq", "set", (3, 1)),
    ("1.set.3.1.9~w7NfZYvQ", "set", (3, 1, 9)),
]


@pytest.mark.parametrize(("data", "kind", "args"), SENT_BEFORE)
def test_buttons_already_sent_decode_and_encode_as_before(data, kind, args):
    # With or without the game id (buttons sent before games had ids), with the forum topic.
    assert decode(OLD_KEY, data) == Callback(kind, args)
    assert encode(OLD_KEY, kind, *args) == data


@pytest.mark.parametrize(
    ("kind", "args"),
    [
        ("vote", (1, 2, 3, 4)),  # a group button carries no topic
        ("vote", (1,)),
        ("card", (1, 2)),
        ("card", (1, 2, 3, 4, 5, 6)),
        ("decoy", (1, 2)),
        ("join", (1, 2)),
        ("info", ()),  # sent with its one field only
    ],
)
def test_a_kind_with_a_number_of_fields_it_never_had_is_refused(kind, args):
    with pytest.raises(ValueError):
        encode(KEY, kind, *args)
    with pytest.raises(BadCallback):
        decode(KEY, _signed(".".join(["1", kind, *map(str, args)])))


def test_the_table_codec_knows_the_table_kinds_alone():
    assert callback.decode(KEY, callback.encode(KEY, "back", -1001, 7, 77)).kind == "back"
    with pytest.raises(ValueError):
        callback.encode(KEY, "card", -1001, 12, 282, 77)
    with pytest.raises(BadCallback):
        callback.decode(KEY, encode(KEY, "card", -1001, 12, 282, 77))


def test_a_game_shapes_only_its_own_kinds():
    own = {"tick": 2}
    codec = Codec.with_games([(own, frozenset({"tick"}), frozenset({"tick"}))])
    assert [codec.fits("tick", n) for n in range(5)] == [False, True, True, True, False]
    plain = Codec.with_games([(own, frozenset(), frozenset())])
    assert [plain.fits("tick", n) for n in range(5)] == [False, False, True, False, False]
    for private, older in [({"join"}, set()), (set(), {"info"}), (set(), {"tock"})]:
        with pytest.raises(ValueError, match="not the game's own"):
            Codec.with_games([(own, frozenset(private), frozenset(older))])
    for games in [[({"join": 1}, frozenset(), frozenset())], [(own, frozenset(), frozenset())] * 2]:
        with pytest.raises(ValueError, match="taken"):
            Codec.with_games(games)
