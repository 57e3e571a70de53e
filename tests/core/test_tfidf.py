"""The one TF-IDF rule (core/tfidf.py), pinned by hand-computed numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import sparse

from arborwiki.core.tfidf import column_idf, smoothed_idf, unit_tfidf


def test_smoothed_idf_of_a_rare_and_an_everywhere_term() -> None:
    assert (
        smoothed_idf(20, 1)
        == pytest.approx(math.log(21 / 2) + 1)
        == pytest.approx(3.3514, abs=1e-4)
    )
    assert smoothed_idf(20, 20) == 1.0


def test_column_idf_and_unit_rows() -> None:
    counts = sparse.csr_matrix(np.array([[1, 0], [2, 0], [0, 1], [0, 0]]))
    idf = column_idf(counts)  # n = 4 documents; df = [2, 1]
    assert idf == pytest.approx([math.log(5 / 3) + 1, math.log(5 / 2) + 1])
    rows = unit_tfidf(counts, idf).toarray()
    assert rows[0] == pytest.approx([1.0, 0.0]) and rows[2] == pytest.approx([0.0, 1.0])
    assert rows[3] == pytest.approx([0.0, 0.0])  # an empty document stays empty
    mixed = unit_tfidf(sparse.csr_matrix(np.array([[1, 1]])), idf).toarray()[0]
    # log(2)·idf per column, scaled to unit length: the rarer term weighs more
    assert mixed == pytest.approx(np.array(idf) / np.linalg.norm(idf))
