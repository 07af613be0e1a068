"""The catalogs: every text of the code translated into every language, placeholders and HTML
tags as in the original, every plural form filled; a text added to the code and not to the
catalogs fails here."""

from __future__ import annotations

import re
import string
from collections import Counter

import pytest
from babel.messages.catalog import Catalog, Message

from engine.settings import LANGUAGES
from tgbot import i18n
from tgbot.i18n import catalogs

TRANSLATED = sorted(i18n.CATALOGS)
TAG = re.compile(r"</?[a-zA-Z][^>]*>")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.extract()


def texts(message: Message) -> tuple[list[str], list[str]]:
    """The original's forms and the translation's."""
    ids = list(message.id) if isinstance(message.id, tuple) else [message.id]
    strings = message.string
    forms = list(strings) if isinstance(strings, tuple) else [strings]
    return ids, forms


def fields(text: str) -> Counter[str]:
    return Counter(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_every_language_of_the_rules_has_a_catalog() -> None:
    assert tuple(i18n.LANGUAGES) == LANGUAGES
    assert set(i18n.CATALOGS) == set(LANGUAGES) - {i18n.DEFAULT}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_holds_every_text_of_the_code(language: str, template: Catalog) -> None:
    catalog = catalogs.read(language)
    missing = [m.id for m in template if m.id and m.id not in catalog]
    assert not missing, f"run `python -m tgbot.i18n.catalogs` and translate: {missing[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_is_translated_with_every_plural_form(language: str) -> None:
    catalog = catalogs.read(language)
    assert catalog.num_plurals >= 2
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids, forms = texts(message)
        if message.fuzzy:
            problems.append(("fuzzy", ids[0]))
        expected = catalog.num_plurals if message.pluralizable else 1
        if len(forms) != expected or not all(form.strip() for form in forms):
            problems.append(("untranslated", ids[0]))
    assert not problems, problems[:10]


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_and_tags_are_those_of_the_original(language: str) -> None:
    catalog = catalogs.read(language)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids, forms = texts(message)
        for form in filter(None, forms):
            if all(fields(form) != fields(original) for original in ids):
                problems.append(("placeholders", ids[0], form))
            if Counter(TAG.findall(form)) != Counter(TAG.findall(ids[0])):
                problems.append(("tags", ids[0], form))
            if form.count("\n") != ids[0].count("\n"):
                problems.append(("lines", ids[0], form))
    assert not problems, problems[:10]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_compiles_and_is_spoken(language: str) -> None:
    catalog = catalogs.read(language)
    sample = next(m for m in catalog if m.id and not m.pluralizable)
    with i18n.use(language):
        assert i18n._(str(sample.id)) == sample.string
        assert i18n.ngettext("{n} point", "{n} points", 1) != ""
    with i18n.use("en"):
        assert i18n._(str(sample.id)) == sample.id


def test_a_text_missing_from_a_catalog_is_found(template: Catalog) -> None:
    """The check above can fail: a catalog without one of the code's texts is caught."""
    catalog = catalogs.read("it")
    first = next(m for m in template if m.id)
    catalog.delete(first.id)
    assert [m.id for m in template if m.id and m.id not in catalog] == [first.id]
