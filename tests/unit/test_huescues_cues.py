"""Hues and Cues: forbidden cues in every language (SPEC 11.3) — each language's basic colour
words in every form, English ones everywhere, derived words allowed."""

from __future__ import annotations

import pytest

from engine.errors import ErrorCode, RuleError
from engine.games.huescues.cues import check_cue, colour_words, languages
from engine.games.huescues.errors import Refusal
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
    assert refusal(word, language) is Refusal.CUE_COLOUR_WORD
    assert refusal(f"sea {word}", language, second=True) is Refusal.CUE_COLOUR_WORD


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("word", ["red", "Grey", "GRAY", "blues", "white"])
def test_english_colour_words_are_refused_in_every_language(language, word):
    assert refusal(word, language) is Refusal.CUE_COLOUR_WORD


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
    assert refusal("ＲＥＤ", "en") is Refusal.CUE_COLOUR_WORD  # full-width letters
    assert refusal("WEIẞ", "de") is Refusal.CUE_COLOUR_WORD  # capital sharp s
    assert refusal("Rossa", "it") is Refusal.CUE_COLOUR_WORD


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


# Look-alike letters and invisible marks: a cue that reads as a forbidden word is refused as one.
# Each is a form of the room's language written with letters of another script (Cyrillic for the
# Latin ones, Latin for the Cyrillic ones), or with invisible marks inside.
CGJ, VS16 = "\u034f", "\ufe0f"  # COMBINING GRAPHEME JOINER, VARIATION SELECTOR-16
LOOK_ALIKES = {
    "en": ["r\u0435d", "R\u0415D", "gr\u0435\u0443", "\u0440ink", "bl\u0430ck", "whit\u0435",
           "\u043erange", "bIue", "b1ue", f"re{CGJ}d", f"blue{VS16}", "gr\u0435\u0435n-sea"],
    "it": ["r\u043ess\u043e", "R\u041eSSA", "\u0430zzurro", "n\u0435ro", "bl\u03c5",
           "gi\u0430llo", f"ros{CGJ}so", f"viola{VS16}", "l'\u0430zzurro"],
    "es": ["r\u043ej\u043e", "n\u0435gro", "\u0430zul", "v\u0435rde", f"gr{CGJ}is",
           "\u0430m\u0430rillo", "ROJ\u041e"],
    "fr": ["r\u043euge", "n\u043eir", "bl\u0435u", "v\u0435rt", f"gr{CGJ}ise", "j\u0430une",
           "BL\u0415UE"],
    "de": ["r\u043et", "bl\u0430u", "gr\u0430u", "\u0455chwarz", f"ge{CGJ}lb", "gr\u00fcn\u0435",
           "WEI\u0405S"],
    "pt": ["\u0430zul", "pr\u0435to", "v\u0435rd\u0435", f"ver{CGJ}melho", "r\u043exo",
           "cinz\u0430", "cor-d\u0435-rosa"],
    "ru": ["cepый", "CEPЫЙ", "бeлый", "CИHИЙ", "CиHий", "кpacный", "KPACHЫЙ", f"си{CGJ}ний",
           f"чёрный{VS16}", "чЁpный", "гoлубой", "жeлтый", "зeлёный"],
}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "word"), [(lang, word) for lang, words in LOOK_ALIKES.items() for word in words]
)
def test_a_look_alike_of_a_form_of_the_room_s_language_is_refused(language, word):
    assert refusal(word, language) is Refusal.CUE_COLOUR_WORD
    assert refusal(f"sea {word}", language, second=True) is Refusal.CUE_COLOUR_WORD


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("word", ["r\u0435d", "R\u0415D", "dark r\u0435d", f"re{CGJ}d",
                                  f"red{VS16}", "gr\u0435y", "bIue", "wh\u0456te"])  # fmt: skip
def test_english_look_alikes_are_refused_in_every_language(language, word):
    assert refusal(word, language, second=" " in word) is Refusal.CUE_COLOUR_WORD


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("word", ["\u0397", "\u0397" + "15", "15\u0397", "\u0391", "\u039f7",
                                  "\u039a-3", f"H{CGJ}15", "\u041d15", "\u0399"])  # fmt: skip
def test_a_row_or_a_cell_written_with_look_alikes_is_refused(language, word):
    assert refusal(word, language) is Refusal.CUE_COORDINATE


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("text", [CGJ * 3, VS16, f"{CGJ} {VS16}", "\u0301\u0301", "\u200b"])
def test_a_cue_of_invisible_marks_is_empty(language, text):
    assert refusal(text, language) is Refusal.CUE_EMPTY
    assert refusal(text, language, second=True) is Refusal.CUE_EMPTY


@pytest.mark.parametrize(
    ("language", "text"),
    [("ru", "морской"), ("ru", "море"), ("ru", "сирень"), ("ru", "небо"), ("ru", "рассвет"),
     ("ru", "ЗАКАТ"), ("ru", "об"), ("ru", "об море"), ("ru", "морская волна"),
     ("en", "морской"), ("it", "морской"),
     ("es", "el mar"), ("it", "il mare"), ("pt", "um mar"), ("fr", "le ciel"), ("de", "Meer"),
     ("en", "sea"), ("en", "sky"), ("en", "lo"), ("it", "io"), ("en", "cloud")],
)  # fmt: skip
def test_words_that_only_resemble_a_form_or_a_cell_are_allowed(language, text):
    assert refusal(text, language, second=True) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cue_given_before_written_with_look_alikes_is_repeated(language):
    earlier = ["lavender", "нота"]
    for text in ["l\u0430vender", f"laven{CGJ}der", "LAV\u0415NDER", "HOTA", "нoтa"]:
        with pytest.raises(RuleError) as caught:
            check_cue(text, language, True, earlier)
        assert caught.value.code is Refusal.CUE_REPEATED, text
    assert check_cue("lavender fields", language, True, earlier) == "lavender fields"
