"""The one TF-IDF weighting: smoothed IDF, log term frequency, unit rows.

idf(t) = log((N + 1) / (df(t) + 1)) + 1 over the N documents compared (scikit-learn's
`smooth_idf`): a term in every document weighs 1, a rare one more, none is ever zero.
Episodes (exchanges, episodes), thread profiles (trajectories) and the forest's term
scores (snapshots) all weigh words this way; what a "document" is differs, the rule does not.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse
from sklearn.preprocessing import normalize


def smoothed_idf(documents: int, document_frequency: int) -> float:
    """idf of a term named by `document_frequency` of `documents` documents."""
    return math.log((documents + 1) / (document_frequency + 1)) + 1.0


def column_idf(rows: sparse.csr_matrix) -> np.ndarray:
    """`smoothed_idf` of every column over the rows of a count matrix (a row: a document)."""
    df = np.bincount(rows.indices, minlength=rows.shape[1])
    return np.log((rows.shape[0] + 1) / (df + 1)) + 1.0


def unit_tfidf(counts: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    """Rows of log(1 + count) · idf scaled to unit length (an empty row stays empty)."""
    return normalize(counts.log1p() @ sparse.diags(idf)).tocsr()
