"""Hunch!'s decks and its clue check in each language: matrix words and the words beginning
with one of four letters or more are refused, after NFKC, case-folding and dropping accents."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.games.hunch import deck
from engine.games.hunch.errors import Refusal
from engine.games.hunch.turns import matrix_words
from engine.games.hunch.words import fold, matrix_word_in
from engine.settings import LANGUAGES
from tests.hunch_builders import Game, a_game


def test_every_language_has_the_same_target_cards_of_three_single_words() -> None:
    assert set(deck.languages()) == set(LANGUAGES) == {"en", "it", "es", "fr", "de", "pt", "ru"}
    counts = {language: len(deck.targets(language)) for language in deck.languages()}
    assert len(set(counts.values())) == 1 and counts["en"] >= 64
    for language in deck.languages():
        words = [fold(word) for card in deck.targets(language) for word in card]
        assert all(word.isalpha() for word in words), language
        assert len(set(words)) == len(words), f"a word twice in {language}"


def test_the_clue_cards_are_48_over_sixteen_categories_each_on_three_or_more() -> None:
    cards = deck.clue_cards()
    assert len(cards) == 48
    categories = set(cards)
    assert {deck.FREE_CHOICE, deck.QUESTION} <= categories
    assert len(categories - {deck.FREE_CHOICE, deck.QUESTION}) >= 14
    assert all(cards.count(category) >= 3 for category in categories)
    assert all(category.isidentifier() for category in categories)  # stable keys


CASES = {
    # language: (matrix word, refused clues, allowed clues)
    "en": ("rose", ["Roses", "ROSE", "rosebud"], ["prose", "ros", "red flower"]),
    "it": ("gatto", ["Gattone", "GATTO!", "gattò"], ["gatti", "micio"]),
    "es": ("flor", ["florero", "Flores", "flór"], ["flo", "planta"]),
    "fr": ("château", ["CHATEAUX", "chateau", "châteaux forts"], ["chat", "castel"]),
    "de": ("Straße", ["Strasse", "STRASSEN", "Straßenbahn"], ["Stra", "Weg"]),
    "pt": ("maçã", ["macas", "Maçãs", "MAÇA"], ["mac", "fruta"]),
    "ru": ("ёлка", ["ЕЛКА", "елками", "Ёлкам"], ["ель", "ёлочка", "ёлки"]),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_matrix_word_and_its_derivatives_are_refused_in_each_language(language: str) -> None:
    word, refused, allowed = CASES[language]
    for clue in refused:
        assert matrix_word_in(f"so {clue} it is", [word]) == word, clue
    for clue in allowed:
        assert matrix_word_in(clue, [word]) is None, clue


def test_folding_drops_accents_case_and_invisible_code_points() -> None:
    assert fold("ÉTOILE") == fold("etoile") == fold("e\u0301toile") == "etoile"
    assert fold("Ёж") == "еж" and fold("Straße") == "strasse"
    assert fold("ro\u200bse") == "rose" and fold("ｒｏｓｅ") == "rose"


def test_a_short_matrix_word_refuses_only_itself() -> None:
    assert matrix_word_in("cats and dogs", ["cat"]) is None
    assert matrix_word_in("a cat", ["cat"]) == "cat"


@pytest.mark.parametrize("language", ["en", "ru", "de"])
def test_the_game_checks_clues_against_the_words_of_its_own_language(language: str) -> None:
    game = a_game().in_language(language).in_clues()
    assert game.state.language == language
    longest = max((w for w in _words(game)), key=len)
    with pytest.raises(RuleError) as error:
        game.write(0, 0, longest.upper() + "x")
    assert error.value.code is Refusal.CLUE_NAMES_MATRIX_WORD


def _words(game: Game) -> list[str]:
    return list(matrix_words(game.state).values())


def test_a_language_without_a_deck_plays_with_english_words() -> None:
    assert deck.deck_language("nl") == "en"
    assert a_game().in_language("nl").started().state.language == "en"
