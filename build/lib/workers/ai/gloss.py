"""A word-for-word English gloss of a hint typed in another language, so that the
English-centric model can read it.

The dictionary comes from data the AI ships: `words.tsv` (about 130 words that hints often
say, with their common forms, in the seven languages), the `emoji` package's one-word emoji
names with their English names (`balena` → `whale`), and the vocabulary's one-word concepts,
in that order of trust. A word is found as it is or, for the first two, by its first five
letters (`дракона` → `дракон` → `dragon`); a word not found stays as it is.
"""

from __future__ import annotations

import threading
from functools import cache
from importlib import resources

import emoji

from workers.ai.model import emoji_name
from workers.ai.vocab import LANGUAGES, concepts, words

PREFIX = 5
_lock = threading.Lock()


@cache
def _common_words() -> tuple[dict[str, str], ...]:
    text = resources.files(__package__).joinpath("words.tsv").read_text(encoding="utf-8")
    lines = text.splitlines()
    if tuple(lines[0].split("\t")) != LANGUAGES:
        raise ValueError(f"words.tsv: the header names {LANGUAGES}")
    tables: tuple[dict[str, str], ...] = tuple({} for _ in LANGUAGES)
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(LANGUAGES) or not all(cells):
            raise ValueError(f"words.tsv line {number}: one cell per language")
        for table, cell in zip(tables, cells, strict=True):
            for form in cell.split("/"):
                for word in words(form):
                    table.setdefault(word, cells[0].split("/")[0])
    return tables


@cache
def dictionary(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """Words of a language → English: by whole word, and by the first `PREFIX` letters."""
    common = dict(_common_words()[LANGUAGES.index(language)])
    with _lock:
        symbols = list(emoji.EMOJI_DATA)
    names: dict[str, str] = {}
    for symbol in symbols:
        local, english = emoji_name(symbol, language), emoji_name(symbol, "en")
        said = words(local)
        if len(said) == 1 and local != english and ":" not in english:
            names.setdefault(said[0], english)
    prefixes: dict[str, str] = {}
    for table in (common, names):
        for word, english in table.items():
            if len(word) >= PREFIX:
                prefixes.setdefault(word[:PREFIX], english)
    whole = {**names, **common}
    for concept in concepts():
        said = words(concept.texts[language])
        if len(said) == 1:
            whole.setdefault(said[0], concept.english)
    return whole, prefixes


def gloss(text: str, language: str) -> str | None:
    """The English gloss of a text in a language, or None when no word of it is known."""
    if language == "en":
        return None
    whole, prefixes = dictionary(language)
    out: list[str] = []
    known = False
    for word in words(text):
        english = whole.get(word)
        if english is None and len(word) >= PREFIX:
            english = prefixes.get(word[:PREFIX])
        known = known or english is not None
        out.append(english or word)
    return " ".join(out) if known else None
