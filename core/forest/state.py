"""The running aggregate of one trajectory, updated as snapshots attach."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from arborwiki.core.records import Snapshot
from arborwiki.core.words import norm_set, norm_term, snapshot_terms


@dataclass
class TrajectoryState:
    """What g(σ, T) needs about T, kept incrementally so attaching is O(1) per candidate.

    e_T^sum is the normalized mean of member vectors (a running sum, normalized on read:
    normalizing the mean and the sum give the same direction); e_T^latest is the last
    member's vector. Only the trajectory's own snapshots count: a fork's inherited path
    is reached through the forest, not merged here, so a fork is judged on what it adds.
    """

    trajectory_id: str
    forked_from: str | None = None
    snapshot_ids: list[str] = field(default_factory=list)
    node_ids: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    keywords: set[str] = field(default_factory=set)
    entities: set[str] = field(default_factory=set)
    terms: set[str] = field(default_factory=set)
    facets: dict[str, set[str]] = field(default_factory=dict)
    facet_pairs: set[tuple[str, str]] = field(default_factory=set)  # facet_pairs(facets)
    keyword_counts: dict[str, int] = field(default_factory=dict)
    vector_sum: np.ndarray | None = None
    latest_vector: np.ndarray | None = None
    first_time: datetime | None = None
    last_time: datetime | None = None
    last_session: str | None = None
    topic_key: str = ""

    @property
    def tail_node_id(self) -> str | None:
        return self.node_ids[-1] if self.node_ids else None

    @property
    def summary_vector(self) -> np.ndarray | None:
        if self.vector_sum is None:
            return None
        length = float(np.linalg.norm(self.vector_sum))
        return self.vector_sum / length if length > 0 else None

    def add(self, sigma: Snapshot, node_id: str, topic_key: str) -> None:
        """Fold σ into the aggregate (σ becomes the tail)."""
        self.snapshot_ids.append(sigma.snapshot_id)
        self.node_ids.append(node_id)
        self.summaries.append(sigma.summary)
        self.keywords |= norm_set(sigma.keywords)
        self.entities |= norm_set(sigma.entities)
        self.terms |= snapshot_terms(sigma)
        for key, values in sigma.facets.items():
            name, normed = norm_term(key), norm_set(values)
            self.facets.setdefault(name, set()).update(normed)
            self.facet_pairs.update((norm_term(name), norm_term(v)) for v in normed if norm_term(v))
        for term in norm_set([*sigma.keywords, *sigma.entities]):
            self.keyword_counts[term] = self.keyword_counts.get(term, 0) + 1
        if sigma.vector is not None:
            vec = np.asarray(sigma.vector, dtype=np.float64)
            self.vector_sum = vec.copy() if self.vector_sum is None else self.vector_sum + vec
            self.latest_vector = vec
        self.first_time = self.first_time or sigma.timestamp
        self.last_time = sigma.timestamp
        self.last_session = sigma.session_id
        self.topic_key = self.topic_key or topic_key

    def top_terms(self, limit: int) -> list[str]:
        """Most frequent keywords/entities first (ties alphabetical): title material."""
        ranked = sorted(self.keyword_counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return [t for t, _ in ranked[:limit]]
