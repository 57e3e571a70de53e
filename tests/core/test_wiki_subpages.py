"""Splitting an entity page into subpages: k-means on summary vectors, then balanced sizes."""

from __future__ import annotations

import numpy as np

from arborwiki.core.config import WikiConfig
from arborwiki.core.wiki.subpages import balance, balanced_subpages, subpage_bounds


def grouped_vectors(group_of_row: list[int], noise: float = 0.01) -> np.ndarray:
    """Unit vectors near orthogonal axis `g` for each row: the clusters are known by hand."""
    rng = np.random.default_rng(7)
    rows = np.zeros((len(group_of_row), 256))
    for i, g in enumerate(group_of_row):
        rows[i, g] = 1.0
    rows += rng.normal(scale=noise, size=rows.shape)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_bounds_are_subpage_size_plus_minus_one_unless_infeasible() -> None:
    assert subpage_bounds(13, 4, 4) == (3, 5)
    assert subpage_bounds(7, 2, 4) == (3, 5)
    assert subpage_bounds(5, 2, 4) == (2, 5)  # 5 into 2 cannot keep both at ≥ 3


def test_thirteen_rows_in_four_known_groups_become_those_four_subpages() -> None:
    groups = [i % 4 for i in range(13)]  # sizes 4, 3, 3, 3, interleaved in time
    subpages = balanced_subpages(grouped_vectors(groups), WikiConfig())
    assert subpages == [[0, 4, 8, 12], [1, 5, 9], [2, 6, 10], [3, 7, 11]]


def test_lopsided_clusters_are_balanced_into_three_to_five_and_repeatable() -> None:
    groups = [0] * 7 + [1] * 2 + [2] * 2 + [3] * 2  # k-means alone gives 7, 2, 2, 2
    vectors = grouped_vectors(groups)
    first = balanced_subpages(vectors, WikiConfig())
    again = balanced_subpages(vectors, WikiConfig())  # KMEANS_SEED: the same subpages
    assert first == again
    assert len(first) == 4
    assert sorted(r for s in first for r in s) == list(range(13))
    assert all(3 <= len(s) <= 5 for s in first)


def test_balance_moves_the_point_closest_to_the_underfull_centroid() -> None:
    labels = np.array([0, 0, 0, 0, 1])
    # extra distance of moving each point to centroid 1: 0.9, 0.2, 0.5, 0.7 → point 1 moves
    dist = np.array([[0.1, 1.0], [0.3, 0.5], [0.2, 0.7], [0.1, 0.8], [0.9, 0.1]])
    assert balance(labels, dist, low=2, high=3).tolist() == [0, 1, 0, 0, 1]
