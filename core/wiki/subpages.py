"""Split an oversized entity page into subpages: k-means on the trajectories' summary
vectors, then balance the sizes so every subpage holds about `wiki.subpage_size` of them.

("Subpage", not "shard": a shard is the Ray build's group of users, `cluster/sharding.py`.)
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from arborwiki.core.config import WikiConfig

KMEANS_RESTARTS, KMEANS_SEED = 4, 0
"""k-means restarts per split, and its seed: the same subpages every build."""


def subpage_bounds(n: int, k: int, subpage_size: int) -> tuple[int, int]:
    """Sizes allowed: subpage_size ± 1, widened only when n/k leaves no other choice."""
    return min(subpage_size - 1, n // k), max(subpage_size + 1, math.ceil(n / k))


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


def balanced_subpages(vectors: np.ndarray, cfg: WikiConfig) -> list[list[int]]:
    """Row indices per subpage; k = ceil(n / subpage_size); same seed → same subpages.

    Subpages come back ordered by their first row, each sorted, so callers that pass rows
    in time order get subpages in time order.
    """
    n = len(vectors)
    k = math.ceil(n / cfg.subpage_size)
    if k <= 1:
        return [list(range(n))]
    # Imported here: scikit-learn takes ≈ 1.2 s to import, paid by every process that
    # imports the wiki (the CLI, each Ray worker, the query actor), and only an entity page
    # past `subpage_size` trajectories ever clusters.
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning

    model = KMeans(n_clusters=k, random_state=KMEANS_SEED, n_init=KMEANS_RESTARTS)
    # One thread: pages have tens of rows, where BLAS/OpenMP start-up costs ~15× the work.
    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore", ConvergenceWarning)  # duplicate vectors: fewer centres
        labels = model.fit_predict(vectors)
    dist = np.linalg.norm(vectors[:, None, :] - model.cluster_centers_[None, :, :], axis=2)
    low, high = subpage_bounds(n, k, cfg.subpage_size)
    labels = balance(labels, dist, low, high)
    subpages = [sorted(np.flatnonzero(labels == c).tolist()) for c in range(k)]
    return sorted((s for s in subpages if s), key=lambda s: s[0])
