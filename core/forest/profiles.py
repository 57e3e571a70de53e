"""Term profiles of a user's trajectories and trees: where a live turn belongs.

The build places a window by its episode and thread (core/episodes.py), which a live turn
does not have. `localize` asks the same evidence the threads were grouped on, TF-IDF
vectors (log counts, IDF over the user's trajectories): a tree scores the turn's cosine to
its centroid (every trajectory of the thread, on any day) plus its cosine to the tree's
closest stored turn, so one rare name said once in a long visit ("Ciarán wants Patagonia")
is not outweighed by a visit that shares two common words; within the tree the trajectory
is chosen the same way, ties to the latest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

from arborwiki.core.tfidf import column_idf, unit_tfidf
from arborwiki.core.words import content_tokens


@dataclass(frozen=True)
class ThreadMatch:
    """The trajectory a turn continues, its score and its tree's (centroid + closest turn)."""

    trajectory_id: str
    score: float
    tree_score: float


class ThreadProfiles:
    """TF-IDF vectors of the stored turns, of the trajectories (their turns together) and
    of the trees (their trajectories' vectors summed), built once per rebuilt forest."""

    def __init__(self, turns: dict[str, list[str]], tree_of: dict[str, str]) -> None:
        """`turns`: trajectory id → the text of its messages, in order; `tree_of`: → root."""
        self.trajectory_ids = sorted(t for t in turns if turns[t])
        self._vectorizer: CountVectorizer | None = None
        texts = [text for t in self.trajectory_ids for text in turns[t]]
        owner = np.repeat(
            np.arange(len(self.trajectory_ids)), [len(turns[t]) for t in self.trajectory_ids]
        )
        vectorizer = CountVectorizer(analyzer=content_tokens)
        try:
            counts = vectorizer.fit_transform(texts).tocsr()
        except ValueError:  # no content word anywhere (or nothing stored)
            return
        self._vectorizer = vectorizer
        n = len(self.trajectory_ids)
        by_trajectory = sparse.csr_matrix(
            (np.ones(len(owner)), (owner, np.arange(len(owner)))), shape=(n, len(owner))
        )
        bags = (by_trajectory @ counts).tocsr()
        idf = column_idf(bags)
        self._idf = sparse.diags(idf)
        self._turns = unit_tfidf(counts, idf)
        self._turn_owner = owner
        self._profiles = unit_tfidf(bags, idf)
        self.roots = sorted({tree_of[t] for t in self.trajectory_ids})
        self.root_of = {t: tree_of[t] for t in self.trajectory_ids}
        self._tree_index = np.asarray([self.roots.index(tree_of[t]) for t in self.trajectory_ids])
        member = sparse.csr_matrix(
            (np.ones(n), (self._tree_index, np.arange(n))), shape=(len(self.roots), n)
        )
        self._trees = normalize(member @ self._profiles).tocsr()

    def _vector(self, turn: str) -> sparse.csr_matrix | None:
        """The turn's unit TF-IDF vector; None when it shares no content word with any
        stored turn (or nothing is stored)."""
        if self._vectorizer is None:
            return None
        vector = normalize(self._vectorizer.transform([turn]).log1p() @ self._idf)
        return vector if vector.nnz else None

    def tree_cosines(self, turn: str) -> dict[str, float]:
        """The turn's cosine to each tree's profile (its trajectories on every day), by the
        tree's root: a thread as the build's decoder weighs one, not one visit of it (empty
        when the turn shares no content word with any stored turn)."""
        vector = self._vector(turn)
        if vector is None:
            return {}
        found = (self._trees @ vector.T).toarray().ravel()
        return dict(zip(self.roots, found.tolist(), strict=True))

    def match(self, turn: str, order: Sequence[str] = ()) -> ThreadMatch | None:
        """The best tree for `turn`, then its best trajectory (ties: latest in `order`);
        None when the turn shares no content word with any stored turn."""
        vector = self._vector(turn)
        if vector is None:
            return None
        closest = self._closest(vector)
        if closest.max() <= 0.0:
            return None
        closest_in_tree = np.zeros(self._trees.shape[0])
        np.maximum.at(closest_in_tree, self._tree_index, closest)
        tree_scores = (self._trees @ vector.T).toarray().ravel() + closest_in_tree
        best_tree = int(tree_scores.argmax())
        best, score = self._member(vector, closest, best_tree, order)
        return ThreadMatch(best, score, float(tree_scores[best_tree]))

    def in_tree(self, turn: str, root: str, order: Sequence[str] = ()) -> str:
        """The trajectory of `root`'s tree that `turn` continues, chosen as `match` chooses
        one (its profile's cosine plus its closest turn's; ties: latest in `order`)."""
        vector = self._vector(turn)
        if vector is None:
            raise ValueError("the turn shares no word with any stored turn")
        return self._member(vector, self._closest(vector), self.roots.index(root), order)[0]

    def _closest(self, vector: sparse.csr_matrix) -> np.ndarray:
        """Each trajectory's highest cosine of one of its stored turns to the turn."""
        closest = np.zeros(len(self.trajectory_ids))
        np.maximum.at(closest, self._turn_owner, (self._turns @ vector.T).toarray().ravel())
        return closest

    def _member(
        self, vector: sparse.csr_matrix, closest: np.ndarray, tree: int, order: Sequence[str]
    ) -> tuple[str, float]:
        own = (self._profiles @ vector.T).toarray().ravel() + closest
        rank = {t: i for i, t in enumerate(order)}
        members = np.flatnonzero(self._tree_index == tree)
        best = max(members, key=lambda i: (own[i], rank.get(self.trajectory_ids[i], -1)))
        return self.trajectory_ids[best], float(own[best])
