"""Translations: one gettext catalog per language, and the language being spoken right now.

The language is a context variable, set per handled update (and per rendered message: a
group's messages in the group's language, a player's private ones in that player's), never a
process-wide global, so two updates handled at once never speak each other's language.

The catalogs are the `.po` files under `locale/`, compiled in memory with Babel the first time
a language is used (a fresh clone needs no build step); `python -m tgbot.i18n.catalogs` extracts and
updates them.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from io import BytesIO
from pathlib import Path
from typing import Any, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "hintrigue"
LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "en"
# Our languages, each by the name its speakers give it; the source texts are English.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt": "Português (Brasil)",
    "ru": "Русский",
}
# The catalog of each language other than English, by Babel's locale name.
CATALOGS: dict[str, str] = {
    "it": "it",
    "es": "es",
    "fr": "fr",
    "de": "de",
    "pt": "pt_BR",
    "ru": "ru",
}

_speaking: ContextVar[str] = ContextVar("language", default=DEFAULT)


def supported(code: str | None) -> str | None:
    """Our language for a Telegram `language_code` or a name a player typed, matched on its
    primary subtag (`pt-PT` → `pt`); None when we do not speak it."""
    if not code:
        return None
    primary = code.strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def pick(*choices: str | None) -> str:
    """The first of `choices` that we speak, else English."""
    for choice in choices:
        language = supported(choice)
        if language is not None:
            return language
    return DEFAULT


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the source texts themselves)."""
    if language not in CATALOGS:
        return gettext.NullTranslations()
    path = LOCALE_DIR / CATALOGS[language] / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as po:
        messages = read_po(po, locale=CATALOGS[language], domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, messages)  # fuzzy or empty translations are left out: English shows
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def load_all() -> None:
    """Compile every catalog now (a process that forks per job does it once, before)."""
    for language in LANGUAGES:
        catalog(language)


def current() -> str:
    """The language being spoken."""
    return _speaking.get()


@contextmanager
def use(language: str | None) -> Iterator[None]:
    """Speak `language` (one of ours; anything else: English) inside the block."""
    token = _speaking.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _speaking.reset(token)


def speak(language: str) -> None:
    """Speak `language` from now on in this context (an update's handling has its own)."""
    _speaking.set(language if language in LANGUAGES else DEFAULT)


def _(message: str) -> str:
    """`message` in the language being spoken."""
    return catalog(_speaking.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` of a message, by the plural rule of the language being spoken."""
    return catalog(_speaking.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a text for the catalogs where it is defined; it is translated where it is used."""
    return message


K = TypeVar("K")


class Texts(Mapping[K, str]):
    """Texts marked with `N_` where they are defined, translated each time they are read."""

    def __init__(self, messages: Mapping[K, str]) -> None:
        self._messages = dict(messages)

    def __getitem__(self, key: K) -> str:
        return _(self._messages[key])

    def __iter__(self) -> Iterator[K]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    def joined(self, *others: Texts[Any]) -> Texts[Any]:
        """These texts and the `others`' (a key given twice is a mistake)."""
        merged: dict[Any, str] = dict(self._messages)
        for other in others:
            if set(merged) & set(other._messages):
                raise ValueError(f"texts given twice: {sorted(set(merged) & set(other._messages))}")
            merged.update(other._messages)
        return Texts(merged)
