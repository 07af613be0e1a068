"""Callback data: compact, versioned, signed strings of at most 64 bytes.

Format: `1.<kind>.<field>.<field>…~<mac>` where the MAC is 8 characters of an HMAC-SHA256 of
the rest, so a forged or altered button is refused before it reaches the rules.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

VERSION = "1"
MAX_BYTES = 64
_MAC_LEN = 8

# The table's own kinds → number of integer fields (each game brings its own: `Codec.with_games`).
# The last field of a game's buttons is the game's id; the shorter form (without it) is what
# buttons sent before games had ids carry.
KINDS = {
    "join": 1,  # lobby: join (game)
    "leave": 1,  # lobby: leave (game)
    "start": 1,  # lobby: start the game (game)
    "menu": 1,  # lobby: open the settings keyboard (game)
    "done": 1,  # lobby: close the settings keyboard (game)
    "set": 3,  # lobby: setting index, value, game
    "info": 1,  # lobby: what a setting is (its label on the settings keyboard)
    "lang": 1,  # private: a language for the player's messages (its index in i18n.LANGUAGES)
    "back": 2,  # chat: spectator comes back, game[, topic]
    "stop": 3,  # group: 1 confirm / 0 cancel (+2: a lobby's question), the room version the
    # question was asked at, game
    "notify": 1,  # group final message: tell me when the next game opens (game)
    "addai": 1,  # lobby: seat an AI player (game)
    "rmai": 1,  # lobby: free the last AI seat (game)
    "game": 2,  # lobby: choose the game (its index in the bot's line-up of games), game
}
WITHOUT_GAME = {"back", "stop", "join", "leave", "start", "menu", "done", "set"}
"""The table's kinds whose buttons sent before games had ids lack the game id."""
# Private buttons name their room: a room that is a forum topic adds the topic after the game.
WITH_TOPIC = {"back"}


class BadCallback(ValueError):
    """Callback data that is malformed, from another version, or not signed by us."""


@dataclass(frozen=True)
class Callback:
    """A decoded button press."""

    kind: str
    args: tuple[int, ...] = ()


GameKinds = tuple[Mapping[str, int], frozenset[str], frozenset[str]]
"""A game's own kinds with their number of fields, those of them on private messages, and
those of them whose buttons sent before games had ids lack the game id."""


@dataclass(frozen=True)
class Codec:
    """The kinds of buttons a bot knows, with their number of fields: the table's, and those
    each game brings (`tgbot.table.screens.Lineup`)."""

    kinds: Mapping[str, int]
    with_topic: frozenset[str]
    """Kinds on private messages: they name their room's forum topic, if any, after the game."""
    without_game: frozenset[str]
    """Kinds whose buttons sent before games had ids lack the game id (their last field), and
    are still taken."""

    @classmethod
    def with_games(cls, games: Iterable[GameKinds]) -> Codec:
        """The table's kinds and each game's own (its kinds, those of them on private messages,
        and those of them whose older buttons lack the game id); a kind is never taken twice,
        and a game shapes only its own."""
        kinds, with_topic, without_game = dict(KINDS), set(WITH_TOPIC), set(WITHOUT_GAME)
        for own, private, older in games:
            for kind, fields in own.items():
                if not re.fullmatch(r"[a-z]+", kind):
                    raise ValueError(f"callback kind {kind!r}: lower-case ASCII letters only")
                if kind in kinds:
                    raise ValueError(f"callback kind {kind} is taken")
                kinds[kind] = fields
            if not_own := (private | older) - set(own):
                raise ValueError(f"callback kinds {sorted(not_own)} are not the game's own")
            with_topic |= private
            without_game |= older
        return cls(kinds, frozenset(with_topic), frozenset(without_game))

    def fits(self, kind: str, count: int) -> bool:
        """Whether a button of this kind may carry `count` fields."""
        expected = self.kinds.get(kind)
        if expected is None:
            return False
        return count in (
            expected,
            expected - (kind in self.without_game),
            expected + (kind in self.with_topic),
        )

    def encode(self, key: bytes, kind: str, *args: int) -> str:
        """Return signed callback data for a button."""
        if not self.fits(kind, len(args)):
            raise ValueError(f"bad callback {kind}{args}")
        body = ".".join([VERSION, kind, *(str(a) for a in args)])
        data = f"{body}~{_mac(key, body)}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data longer than {MAX_BYTES} bytes: {data}")
        return data

    def decode(self, key: bytes, data: str | None, earlier: tuple[bytes, ...] = ()) -> Callback:
        """Parse and verify callback data, signed with `key` or one of the `earlier` keys.

        Raises:
            BadCallback: malformed (not the shape `encode` writes: any other character, an
                empty or non-decimal field, a signature of another length, a kind this bot
                does not know), another version, or a signature that does not match.
        """
        if not data or not data.isascii() or len(data) > MAX_BYTES:
            raise BadCallback("malformed")
        shape = _SHAPE.fullmatch(data)
        if shape is None:
            raise BadCallback("malformed")
        body, mac = shape.groups()
        given = mac.encode("ascii")
        keys = (key, *earlier)
        if not any(hmac.compare_digest(given, _mac(k, body).encode("ascii")) for k in keys):
            raise BadCallback("bad signature")
        version, kind, *fields = body.split(".")
        if version != VERSION:
            raise BadCallback("old version")
        if not self.fits(kind, len(fields)):
            raise BadCallback("malformed")
        return Callback(kind, tuple(int(f) for f in fields))


def _mac(key: bytes, body: str) -> str:
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_LEN]


# What `encode` writes: ASCII only, a version, a kind, integers, and 8 characters of URL-safe
# base64. Anything else is refused before a signature is compared.
_SHAPE = re.compile(rf"(\d+\.[a-z]+(?:\.-?\d+)*)~([A-Za-z0-9_-]{{{_MAC_LEN}}})", re.ASCII)


TABLE = Codec(KINDS, frozenset(WITH_TOPIC), frozenset(WITHOUT_GAME))
"""The table's own kinds alone (a bot's codec adds its games' kinds)."""
encode = TABLE.encode
decode = TABLE.decode
