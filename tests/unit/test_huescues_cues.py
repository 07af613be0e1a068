"""Hues and Cues: forbidden cues in every language (SPEC 11.3) — each language's basic colour
words in every form, English ones everywhere, derived words allowed."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.huescues.cues import check_cue, colour_words, languages
from engine.settings import LANGUAGES

FORBIDDEN = {
    "en": ["red", "Reds", "GREY", "grey", "gray", "grays", "black", "blue", "brown", "green",
           "orange", "pink", "purple", "white", "yellows", "blue-green", "sky-blue"],
    "it": ["rosso", "rossa", "rossi", "rosse", "nero", "nere", "blu", "azzurro", "azzurre",
           "marrone", "marroni", "grigio", "grigie", "verdi", "arancione", "arancioni", "rosa",
           "viola", "bianche", "gialli", "l'azzurro", "l’azzurro", "Rosso"],
    "es": ["rojo", "rojas", "negro", "azules", "marrón", "marron", "gris", "grises", "verde",
           "naranja", "rosado", "morada", "púrpura", "blancos", "amarillas"],
    "fr": ["rouge", "rouges", "noir", "noires", "bleue", "bleus", "marron", "brune", "grise",
           "vertes", "orange", "roses", "violette", "violets", "blanche", "jaunes"],
    "de": ["rot", "rote", "roten", "Schwarz", "schwarzes", "blau", "braune", "grau", "grün",
           "grüne", "gruen", "orange", "orangene", "rosa", "pink", "lila", "violett", "weiß",
           "WEISS", "weisse", "weißen", "gelber"],
    "pt": ["vermelho", "vermelhas", "preto", "pretas", "azul", "azuis", "marrom", "cinza",
           "cinzento", "verdes", "laranja", "rosa", "cor-de-rosa", "roxo", "roxas", "brancas",
           "amarelo"],
    "ru": ["красный", "красная", "красного", "красен", "чёрный", "черный", "ЧЁРНЫЕ", "синий",
           "синяя", "синего", "голубой", "голубые", "голубую", "коричневый", "серый", "серая",
           "зелёный", "зеленый", "оранжевые", "розовый", "фиолетовый", "белый", "белое",
           "жёлтый", "желтый", "ЖЁЛТЫХ"],
}  # fmt: skip

DERIVED = {
    "en": ["reddish", "bluish", "greenery", "blackberry", "lavender", "pinkish", "redwood"],
    "it": ["rossiccio", "rossastro", "azzurrino", "bluastro", "verdognolo", "lavanda"],
    "es": ["rojizo", "azulado", "verdoso", "negruzco", "lavanda"],
    "fr": ["rougeâtre", "bleuté", "verdâtre", "noirci", "lavande"],
    "de": ["rötlich", "bläulich", "grünlich", "rotkehlchen", "lavendel"],
    "pt": ["avermelhado", "azulado", "esverdeado", "lavanda"],
    "ru": ["красноватый", "голубоватый", "зеленоватый", "синева", "лаванда"],
}


def refusal(text: str, language: str, second: bool = False) -> ErrorCode | None:
    try:
        check_cue(text, language, second, [])
    except RuleError as error:
        return error.code
    return None


def test_every_language_of_the_bot_ships_its_colour_words():
    assert languages() == sorted(LANGUAGES)
    for language in LANGUAGES:
        assert len(colour_words(language)) >= 22, language


@pytest.mark.parametrize(
    ("language", "word"), [(lang, word) for lang, words in FORBIDDEN.items() for word in words]
)
def test_a_form_of_a_basic_colour_word_of_the_room_s_language_is_refused(language, word):
    assert refusal(word, language) is ErrorCode.CUE_COLOUR_WORD
    assert refusal(f"sea {word}", language, second=True) is ErrorCode.CUE_COLOUR_WORD


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("word", ["red", "Grey", "GRAY", "blues", "white"])
def test_english_colour_words_are_refused_in_every_language(language, word):
    assert refusal(word, language) is ErrorCode.CUE_COLOUR_WORD


@pytest.mark.parametrize(
    ("language", "word"), [(lang, word) for lang, words in DERIVED.items() for word in words]
)
def test_derived_words_are_allowed(language, word):
    assert refusal(word, language) is None


@pytest.mark.parametrize(
    ("language", "word"), [("en", "rosso"), ("en", "синий"), ("it", "rot"), ("ru", "azul")]
)
def test_another_language_s_colour_words_are_not_the_room_s(language, word):
    assert refusal(word, language) is None


def test_forms_are_compared_after_nfkc_and_case_folding():
    assert refusal("ＲＥＤ", "en") is ErrorCode.CUE_COLOUR_WORD  # full-width letters
    assert refusal("WEIẞ", "de") is ErrorCode.CUE_COLOUR_WORD  # capital sharp s
    assert refusal("Rossa", "it") is ErrorCode.CUE_COLOUR_WORD


def test_every_data_file_lists_each_form_once_and_in_lower_case():
    from importlib import resources

    for language in LANGUAGES:
        text = resources.files("engine.games.huescues").joinpath("colours", f"{language}.txt")
        lines = [
            line.strip()
            for line in text.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        ]
        assert len(lines) == len(set(lines)), language
        assert all(line == line.lower() for line in lines), language
