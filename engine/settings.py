"""Room settings: bounds, and parsing changes given by buttons or as text."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import N_, ErrorCode, RuleError
from engine.games.base import Game
from engine.model import Settings

# The languages a group can be told in (the bot's catalogs; English first).
LANGUAGES = ("en", "it", "es", "fr", "de", "pt", "ru")

BOUNDS: dict[str, tuple[int, int]] = {
    "max_seats": (3, 10),
    "join_s": (0, 600),
}

ALIASES = {
    "seats": "max_seats",
    "max_seats": "max_seats",
    "players": "max_seats",
    "timers": "timers",
    "join": "join_s",
    "join_s": "join_s",
    "language": "language",
    "lang": "language",
    "pictures": "pictures",
    "ai": "ai",
}

_TRUE = {"on", "yes", "true", "1"}
_FALSE = {"off", "no", "false", "0"}


def parse_changes(text: str, games: Iterable[Game]) -> dict[str, int | bool | str]:
    """Parse `rotations=2 hint=60 timers=off` into setting changes, refusing keys that are
    neither the table's nor one of `games`' own."""
    aliases = dict(ALIASES)
    switches = {"timers", "pictures"}
    words = {"language"}
    for game in games:
        aliases.update(game.setting_aliases)
        switches |= game.switches
        words |= game.words
    changes: dict[str, int | bool | str] = {}
    for token in text.split():
        key, sep, raw = token.partition("=")
        name = aliases.get(key.strip().lower())
        if not sep or name is None:
            raise RuleError(ErrorCode.BAD_SETTING, token)
        value = raw.strip().lower()
        if name in switches:
            if value not in _TRUE | _FALSE:
                raise RuleError(ErrorCode.BAD_SETTING, token)
            changes[name] = value in _TRUE
        elif name in words:
            changes[name] = value
        elif name == "join_s" and value in _FALSE:
            changes[name] = 0  # no join timer
        else:
            try:
                changes[name] = int(value)
            except ValueError:
                raise RuleError(ErrorCode.BAD_SETTING, token) from None
    if not changes:
        raise RuleError(ErrorCode.BAD_SETTING, N_("no change given"))
    return changes


def apply_changes(settings: Settings, changes: dict[str, int | bool | str]) -> Settings:
    """Return new settings with `changes` applied, or raise if any is out of bounds."""
    for name, value in changes.items():
        if name in BOUNDS:
            low, high = BOUNDS[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleError(
                    ErrorCode.BAD_SETTING,
                    N_("{setting} must be {low}–{high}"),
                    setting=name,
                    low=low,
                    high=high,
                )
        elif name == "timers":
            if not isinstance(value, bool):
                raise RuleError(ErrorCode.BAD_SETTING, N_("timers must be on or off"))
        elif name == "pictures":
            if not isinstance(value, bool):
                raise RuleError(ErrorCode.BAD_SETTING, N_("pictures must be on or off"))
        elif name == "language":
            check_language(value)
        else:
            raise RuleError(ErrorCode.BAD_SETTING, N_("unknown setting {name}"), name=name)
    return settings.model_copy(update=changes)


def check_language(value: object, optional: bool = False) -> None:
    """Refuse a language the bot does not speak (None too, unless `optional`)."""
    if value is None and optional:
        return
    if value not in LANGUAGES:
        raise RuleError(
            ErrorCode.BAD_SETTING,
            N_("language must be one of {languages}"),
            languages=", ".join(LANGUAGES),
        )
