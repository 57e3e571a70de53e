"""In-memory per-user search: BM25 and vector scores pinned by hand, reciprocal-rank fusion
in lancedb's order, filters."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arborwiki.core.query.user_search import UserSearch, analyze

TEXTS = ["dog park", "dogs and dogs, cat", "bird"]
VECTORS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=np.float32)


def _search(texts: list[str] = TEXTS, vectors: np.ndarray = VECTORS) -> UserSearch:
    return UserSearch(texts, vectors)


def test_analysis_folds_stems_and_drops_function_words() -> None:
    assert analyze("The Dogs were RUNNING in Zürich!") == ["dog", "run", "zurich"]
    assert analyze("x" * 41 + " ok") == ["ok"]  # longer than 40 characters: not a term
    # "now" asks for the latest state; as a term it found "for now" and "it's upside down now"
    assert analyze("What is his job now, currently?") == ["job"]


def test_an_irregular_verb_form_is_searched_as_its_verb() -> None:
    """ "When did Maria meet Jean?" must find "I met this amazing woman": a stemmer leaves
    "met" and "meet" apart. A form that also names a thing ("left", "saw") stays itself."""
    assert analyze("I met her, bought a car and went hiking") == [
        "meet",
        "buy",
        "car",
        "go",
        "hike",
    ]
    assert analyze("the saw on the left") == ["saw", "left"]
    search = UserSearch(["I met this amazing woman", "we should meet up"], VECTORS[:2])
    assert {h.row for h in search.text("When did Maria meet Jean?", limit=10)} == {0, 1}


def test_bm25_scores_by_hand() -> None:
    # N = 3 rows of 2, 3 ("and" is a function word) and 1 terms: avgdl = 2. "dog" is in 2.
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    row0 = idf * 1 / (1 + 1.2 * (0.25 + 0.75 * 2 / 2))  # tf 1, dl 2
    row1 = idf * 2 / (2 + 1.2 * (0.25 + 0.75 * 3 / 2))  # tf 2 ("dogs" stems to dog), dl 3
    got = _search().text("Where is the dog?", limit=10)
    assert [h.row for h in got] == [1, 0]  # the bird matches nothing and is left out
    assert [h.score for h in got] == pytest.approx([row1, row0], rel=1e-6)
    assert _search().text("the and of", limit=10) == []  # only function words
    assert _search().text("zebra", limit=10) == []  # no such term
    assert [h.row for h in _search().text("dog", limit=1)] == [1]


def test_lexical_reach_by_hand() -> None:
    """The largest share of the question's IDF weight one row holds."""
    dog = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # in rows 0 and 1
    cat = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))  # in row 1
    park = cat  # in row 0
    zebra = math.log(1 + (3 - 0 + 0.5) / (0 + 0.5))  # in no row: the heaviest
    search = _search()
    assert search.lexical_reach("the dog and the cat") == pytest.approx(1.0)  # row 1 holds both
    assert search.lexical_reach("dog park cat") == pytest.approx(
        max(dog + park, dog + cat) / (dog + park + cat)
    )
    assert search.lexical_reach("a cat or a zebra") == pytest.approx(cat / (cat + zebra))
    assert search.lexical_reach("zebra") == 0.0
    assert search.lexical_reach("the and of") == 0.0  # no term at all
    assert _search([], np.zeros((0, 2), dtype=np.float32)).lexical_reach("dog") == 0.0
    termless = _search(["the and of", "it is"], VECTORS[:2])  # rows with no term at all
    assert termless.lexical_reach("dog park") == 0.0


def test_vector_distances_by_hand() -> None:
    got = _search().vector([1.0, 0.2], limit=3)
    # squared L2: row0 0.04, row2 0.64, row1 1.64
    assert [h.row for h in got] == [0, 2, 1]
    assert [h.score for h in got] == pytest.approx([-0.04, -0.64, -1.64], rel=1e-5)
    tied = _search(vectors=np.zeros((3, 2), dtype=np.float32)).vector([1.0, 0.0], limit=3)
    assert [h.row for h in tied] == [0, 1, 2]  # equal distances: row order


def test_hybrid_fuses_reciprocal_ranks_vector_leg_first_on_ties() -> None:
    # vector leg for [0, 1]: row1 (distance 0), row2 (1), row0 (2). Text leg for "cat park":
    # both terms are in one row (same idf), "park" in the shorter row0: row0, then row1.
    got = _search().hybrid("cat park", [0.0, 1.0], limit=3)
    fused = {1: 1 / 61 + 1 / 62, 0: 1 / 63 + 1 / 61, 2: 1 / 62}
    assert [h.row for h in got] == [1, 0, 2]
    assert [h.score for h in got] == pytest.approx([fused[1], fused[0], fused[2]])
    # equal fused scores: the vector leg's row before the text leg's
    tie = _search().hybrid("bird", [1.0, 0.0], limit=1)
    assert [h.row for h in tie] == [0]


def test_allowed_rows_filter_every_leg() -> None:
    allowed = np.array([False, True, True])
    assert [h.row for h in _search().text("dog park", 10, allowed)] == [1]
    assert [h.row for h in _search().vector([1.0, 0.0], 10, allowed)] == [2, 1]
    assert {h.row for h in _search().hybrid("dog", [1.0, 0.0], 10, allowed)} == {1, 2}
    nothing = np.zeros(3, dtype=bool)
    assert _search().hybrid("dog", [1.0, 0.0], 10, nothing) == []


def test_no_rows_searches_to_nothing() -> None:
    empty = _search([], np.zeros((0, 2), dtype=np.float32))
    assert empty.text("dog", 5) == [] and empty.vector([1.0, 0.0], 5) == []
    assert empty.hybrid("dog", [1.0, 0.0], 5) == []
    wordless = _search(["the", "and of", ""], np.zeros((3, 2), dtype=np.float32))
    assert wordless.text("dog", 5) == [] and wordless.text("the", 5) == []
    assert [h.row for h in wordless.hybrid("dog", [1.0, 0.0], 5)] == [0, 1, 2]  # vectors still
    with pytest.raises(ValueError, match="2 texts but 3 vectors"):
        _search(["a", "b"], VECTORS)
