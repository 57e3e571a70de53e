"""Word patterns: any script's letters, and the ASCII fast path finding the same words."""

from __future__ import annotations

import re

import pytest

from arborwiki.core.words import LETTER, LOWER, UPPER, Words


@pytest.mark.parametrize(
    "text",
    [
        "I'm at it. Yes, ok it's a b cd efg",
        "Caroline went to the LGBTQ support group on 7 May 2023; Melanie's kids loved it!",
        "don't-stop   x_y__z 42abc abc42 'quoted' words''",
    ],
)
@pytest.mark.parametrize("least", [1, 3])
def test_the_ascii_path_finds_what_any_script_finds(text: str, least: int) -> None:
    anywhere = re.compile(rf"{LETTER}(?:{LETTER}|['’]){{{least - 1},}}")
    assert Words(least).findall(text) == anywhere.findall(text)


def test_words_of_any_script_are_whole() -> None:
    found = Words().findall("Ciarán's café wasn't José’s")
    assert found == ["Ciarán's", "café", "wasn't", "José’s"]
    assert Words(3).findall("Zoë is at the łąka") == ["Zoë", "the", "łąka"]


def test_capitals_and_small_letters_of_latin_greek_and_cyrillic() -> None:
    assert all(re.fullmatch(UPPER, c) for c in "AZÉÅŁŽΩЖ")
    assert not any(re.fullmatch(UPPER, c) for c in "aéł1_'")
    assert all(re.fullmatch(LOWER, c) for c in "azéåłžωж")
