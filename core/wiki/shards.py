"""Split an oversized entity page: k-means on summary vectors, then balance the sizes (SPEC §5)."""

from __future__ import annotations

import math
import warnings

import numpy as np
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from arborwiki.core.config import WikiConfig


def shard_bounds(n: int, k: int, shard_size: int) -> tuple[int, int]:
    """Sizes allowed: shard_size ± 1, widened only when n/k leaves no other choice."""
    return min(shard_size - 1, n // k), max(shard_size + 1, math.ceil(n / k))


def _move_cheapest(
    labels: np.ndarray, dist: np.ndarray, sources: list[int], targets: list[int]
) -> None:
    """Move the one point (from a source cluster to a target) that costs the least distance;
    ties go to the lowest point index, then the lowest target."""
    points = np.flatnonzero(np.isin(labels, sources))
    assert len(points) and targets, "balancing found no move; bounds are always feasible"
    cost = dist[np.ix_(points, targets)] - dist[points, labels[points]][:, None]
    row, col = np.unravel_index(int(np.argmin(cost)), cost.shape)
    labels[points[row]] = targets[col]


def balance(labels: np.ndarray, dist: np.ndarray, low: int, high: int) -> np.ndarray:
    """Reassign points from over-full clusters to the nearest under-full centroid, and back-fill
    clusters below `low` from those that can spare one; ties go to the lowest index."""
    labels = labels.copy()
    k = dist.shape[1]
    while True:
        sizes = np.bincount(labels, minlength=k)
        over = [c for c in range(k) if sizes[c] > high]
        under = [c for c in range(k) if sizes[c] < low]
        if over:
            _move_cheapest(labels, dist, over[:1], [c for c in range(k) if sizes[c] < high])
        elif under:
            _move_cheapest(labels, dist, [c for c in range(k) if sizes[c] > low], under[:1])
        else:
            return labels


def balanced_shards(vectors: np.ndarray, cfg: WikiConfig) -> list[list[int]]:
    """Row indices per shard; k = ceil(n / shard_size); same seed → same shards.

    Shards come back ordered by their first row, each sorted, so callers that pass rows in
    time order get shards in time order.
    """
    n = len(vectors)
    k = math.ceil(n / cfg.shard_size)
    if k <= 1:
        return [list(range(n))]
    model = KMeans(n_clusters=k, random_state=cfg.seed, n_init=cfg.kmeans_n_init)
    # One thread: pages have tens of rows, where BLAS/OpenMP start-up costs ~15× the work.
    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore", ConvergenceWarning)  # duplicate vectors: fewer centres
        labels = model.fit_predict(vectors)
    dist = np.linalg.norm(vectors[:, None, :] - model.cluster_centers_[None, :, :], axis=2)
    low, high = shard_bounds(n, k, cfg.shard_size)
    labels = balance(labels, dist, low, high)
    shards = [sorted(np.flatnonzero(labels == c).tolist()) for c in range(k)]
    return sorted((s for s in shards if s), key=lambda s: s[0])
