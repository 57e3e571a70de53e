"""One user's rows searched in memory: BM25 (bm25s) and exact vector distance, fused by
reciprocal rank the way lancedb fuses its hybrid search.

Why in memory: a question only ever searches its own user's rows. A Lance search over the
whole table, filtered to the user, costs a few milliseconds of planning and scanning per leg
whatever the user holds, and its full-text leg walks every user's postings, so it grows with
the store. A serving replica already keeps the user's rows; over them a 200-message user is
searched in a tenth of a millisecond, a 1M-message store costs what a 100K one does, and the
term statistics (document frequencies, average length) are the user's own, so another
user's archive never moves this user's scores or order.

Text analysis follows Lance's default full-text tokenizer: words split on anything that is
not a letter or digit, lower-cased, ASCII-folded, tokens over `MAX_TOKEN_CHARS` dropped,
stop words removed, Snowball English stems (PyStemmer, the stemmer Lance's tokenizer uses),
after a word that can only be a verb's form is read as that verb ("met" → "meet", "bought"
→ "buy": `core.words.verb_form_lemma`; a stemmer leaves irregular forms apart).
Lance's stop list is not exposed, so the query side's own function words stand in for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import bm25s
import numpy as np
import Stemmer

from arborwiki.core.query.fusion import RRF_K, reciprocal_rank
from arborwiki.core.words import FUNCTION_WORDS, verb_form_lemma

MAX_TOKEN_CHARS = 40
BM25_K1, BM25_B = 1.2, 0.75
"""BM25's term-frequency saturation and length normalisation: Lucene's (and Lance's) values,
never tuned on our sets; `tests/core/test_user_search.py` computes scores with them by hand."""
_TOKEN = re.compile(r"[^\W_]+")
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=1 << 16)  # the same words come back in every message and question
def _analyze_word(word: str) -> str | None:
    folded = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode() or word
    if len(folded) > MAX_TOKEN_CHARS or folded in FUNCTION_WORDS:
        return None
    return _STEMMER.stemWord(verb_form_lemma(folded))


def analyze(text: str) -> list[str]:
    """The terms `text` is indexed (or queried) by, in order, repeats kept."""
    terms = (_analyze_word(w) for w in _TOKEN.findall(text.lower()))
    return [t for t in terms if t]


class RowScore(NamedTuple):
    """A row of the searched set (its position in it) and its score: BM25 for text, minus
    the squared L2 distance for vectors, the fused reciprocal-rank score for hybrid."""

    row: int
    score: float


class UserSearch:
    """BM25 and vector search over one user's rows (row i = texts[i] = vectors[i])."""

    def __init__(
        self,
        texts: Sequence[str],
        vectors: np.ndarray,
        terms: Sequence[list[str]] | None = None,
    ) -> None:
        """`terms`: each text's `analyze` terms when known (a re-read keeps the unchanged
        rows' terms), else analyzed here."""
        if len(vectors) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(vectors)} vectors")
        if terms is not None and len(terms) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(terms)} term lists")
        self.size = len(texts)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self._bm25 = bm25s.BM25(k1=BM25_K1, b=BM25_B, method="lucene")
        self.terms = list(terms) if terms is not None else [analyze(t) for t in texts]
        self._has_terms = any(self.terms)  # bm25s cannot index a corpus without a single term
        if self._has_terms:
            self._bm25.index(self.terms, show_progress=False)

    def text(self, query: str, limit: int, allowed: np.ndarray | None = None) -> list[RowScore]:
        """Rows sharing a term with `query`, best BM25 first (ties: row order)."""
        vocabulary = self._bm25.vocab_dict if self._has_terms else {}
        terms = [t for t in analyze(query) if t in vocabulary]
        if not terms or limit <= 0:
            return []
        scores = self._bm25.get_scores(terms).astype(np.float64)
        matched = scores > 0
        if allowed is not None:
            matched &= allowed
        return _best(np.flatnonzero(matched), scores, limit)

    def lexical_reach(self, query: str) -> float:
        """The largest share of `query`'s term weight that one row holds: each distinct
        query term weighs its IDF over these rows (Lucene's, as BM25 scores with; a term no
        row holds weighs the most), a row holds the terms it contains. Near 1: some message
        says what the question says, in its words, and full text can find it; near 0: the
        question is put in other words than the archive's, which only vectors can match."""
        terms = list(dict.fromkeys(analyze(query)))
        if not terms or not self._has_terms:  # no row holds a term (or there is no row)
            return 0.0
        vocabulary = self._bm25.vocab_dict
        indptr, indices = (self._bm25.scores[k] for k in ("indptr", "indices"))
        held = np.zeros(self.size, dtype=np.float64)
        total = 0.0
        for term in terms:
            tid = vocabulary.get(term)
            docs = indices[indptr[tid] : indptr[tid + 1]] if tid is not None else indices[:0]
            weight = float(np.log1p((self.size - docs.size + 0.5) / (docs.size + 0.5)))
            total += weight
            held[docs] += weight
        return float(held.max() / total)

    def vector(
        self, query: Sequence[float], limit: int, allowed: np.ndarray | None = None
    ) -> list[RowScore]:
        """The `limit` nearest rows by squared L2 distance (ties: row order)."""
        if not self.size or limit <= 0:
            return []
        diff = self.vectors - np.asarray(query, dtype=np.float32)
        negative_distance = -np.einsum("ij,ij->i", diff, diff).astype(np.float64)
        rows = np.arange(self.size) if allowed is None else np.flatnonzero(allowed)
        return _best(rows, negative_distance, limit)

    def hybrid(
        self,
        text: str,
        vector: Sequence[float],
        limit: int,
        allowed: np.ndarray | None = None,
    ) -> list[RowScore]:
        """Both legs at `limit`, fused by reciprocal rank (1 / (rank + k), ranks from 1);
        equal fused scores keep the vector leg's rows first, then the text leg's, as
        lancedb's RRF reranker orders them."""
        vector_leg = self.vector(vector, limit, allowed)
        text_leg = self.text(text, limit, allowed)
        legs = ((1.0, [hit.row for hit in leg]) for leg in (vector_leg, text_leg))
        fused = reciprocal_rank(legs, RRF_K, first_rank=1)
        order = sorted(fused, key=lambda row: -fused[row])  # stable: first-seen order on ties
        return [RowScore(row, fused[row]) for row in order[:limit]]


def _best(rows: np.ndarray, scores: np.ndarray, limit: int) -> list[RowScore]:
    """The `limit` rows of `rows` with the highest scores, ties broken by row order."""
    if rows.size == 0:
        return []
    order = rows[np.lexsort((rows, -scores[rows]))][:limit]
    # tolist() converts in one call what int()/float() per numpy scalar converts one by one
    return [RowScore(r, s) for r, s in zip(order.tolist(), scores[order].tolist(), strict=True)]
