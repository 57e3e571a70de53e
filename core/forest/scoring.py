"""Deterministic compatibility g(σ, T) between a snapshot and a trajectory."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from arborwiki.core.config import AttachConfig
from arborwiki.core.embedding import cosine
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.records import Snapshot
from arborwiki.core.tfidf import smoothed_idf
from arborwiki.core.words import norm_set, norm_term, snapshot_terms


def term_idf(snapshots: Sequence[Snapshot]) -> dict[str, float]:
    """Smoothed IDF of every keyword/entity/term over one user's snapshots.

    idf(t) = log((N + 1) / (df(t) + 1)) + 1, N = number of snapshots, df = snapshots
    naming t. A term seen once in a 20-snapshot archive gets ≈ 3.35; one seen in every
    snapshot gets 1.0. Per-user statistics, because what is rare depends on the archive.
    """
    df: dict[str, int] = {}
    for sigma in snapshots:
        for term in snapshot_terms(sigma):
            df[term] = df.get(term, 0) + 1
    return {t: smoothed_idf(len(snapshots), d) for t, d in df.items()}


def specific(terms: Iterable[str], idf: dict[str, float], cfg: AttachConfig) -> set[str]:
    """The *specific* terms among `terms`: idf ≥ cfg.specific_idf; the rest are *generic*.

    Specific vs generic is decided from corpus statistics within the user's own archive
    (see `term_idf`): a name that appears in most of a user's snapshots ("mom", "work")
    identifies no thread, a rare one ("bella the cat", "4:05") does. A term missing from
    `idf` was never seen, so it is as rare as it gets and counts as specific.
    """
    return {t for t in norm_set(terms) if idf.get(t, math.inf) >= cfg.specific_idf}


def rarest_specific(terms: Iterable[str], idf: dict[str, float], cfg: AttachConfig) -> str:
    """The specific term with the highest idf (ties alphabetical); "" when none is specific."""
    return min(specific(terms, idf, cfg), key=lambda t: (-idf.get(t, math.inf), t), default="")


def jaccard(a: set[str], b: set[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def facet_pairs(facets: dict[str, list[str]] | dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(norm_term(k), norm_term(v)) for k, vs in facets.items() for v in vs if norm_term(v)}


def facet_bonus(matches: int, cfg: AttachConfig) -> float:
    """b_facet: b_facet_min for one matching key=value pair, then +half of b_facet_min
    per further pair (0.03, 0.045, 0.06 with the defaults), capped at b_facet_max."""
    if matches <= 0:
        return 0.0
    return min(cfg.b_facet_max, cfg.b_facet_min * (1.0 + 0.5 * (matches - 1)))


@dataclass(frozen=True)
class GScore:
    """g(σ, T) with its parts kept, so an attach decision can be explained."""

    total: float
    cos_sum: float
    cos_latest: float
    jaccard: float
    b_entity: float
    b_facet: float
    b_cont: float
    p_mismatch: float


def vector_center(snapshots: Sequence[Snapshot]) -> np.ndarray | None:
    """The mean of a user's snapshot vectors: what all their talk has in common.

    Cosines are taken after subtracting it, so that two windows of one long chat between
    the same two people do not look alike merely for sharing its register and small talk
    (without this, LoCoMo conversations collapse into one trajectory).
    """
    vectors = [s.vector for s in snapshots if s.vector is not None]
    return np.mean(np.asarray(vectors, dtype=np.float64), axis=0) if len(vectors) > 1 else None


def _centered_cos(a: object, b: object, center: np.ndarray | None) -> float:
    if a is None or b is None:
        return 0.0
    if center is None:
        return cosine(a, b)  # type: ignore[arg-type]
    return cosine(np.asarray(a) - center, np.asarray(b) - center)


@dataclass(frozen=True)
class UnitVector:
    """A vector prepared once for `cosine`: centred, cast to float32, with its norm.

    `cos_with` does exactly the arithmetic of `embedding.cosine` on the same operands, so a
    cached side gives bit-identical scores to computing both sides afresh.
    """

    values: np.ndarray
    norm: float

    @classmethod
    def of(cls, vector: object, center: np.ndarray | None) -> UnitVector | None:
        if vector is None:
            return None
        shifted = vector if center is None else np.asarray(vector) - center
        values = np.asarray(shifted, dtype=np.float32)
        return cls(values, float(np.linalg.norm(values)))

    def cos_with(self, other: UnitVector | None) -> float:
        if other is None or self.norm == 0.0 or other.norm == 0.0:
            return 0.0
        return float(self.values @ other.values / (self.norm * other.norm))


@dataclass(frozen=True)
class SnapshotFeatures:
    """What g(σ, ·) reads of σ, normalised once per σ instead of once per comparison."""

    keywords: frozenset[str]
    entities: frozenset[str]
    specific_terms: frozenset[str]
    facet_pairs: frozenset[tuple[str, str]]
    vector: UnitVector | None

    @classmethod
    def of(
        cls,
        sigma: Snapshot,
        idf: dict[str, float],
        cfg: AttachConfig,
        center: np.ndarray | None,
    ) -> SnapshotFeatures:
        return cls(
            frozenset(norm_set(sigma.keywords)),
            frozenset(norm_set(sigma.entities)),
            frozenset(specific(snapshot_terms(sigma), idf, cfg)),
            frozenset(facet_pairs(sigma.facets)),
            UnitVector.of(sigma.vector, center),
        )


@dataclass(frozen=True)
class TrajectoryFeatures:
    """What g(·, T) reads of T; a forest keeps one per trajectory and renews it on attach."""

    keywords: set[str]
    entities: set[str]
    specific_terms: set[str]
    facet_pairs: set[tuple[str, str]]
    summary: UnitVector | None
    latest: UnitVector | None

    @classmethod
    def of(
        cls,
        traj: TrajectoryState,
        idf: dict[str, float],
        cfg: AttachConfig,
        center: np.ndarray | None,
        specific_terms: set[str] | None = None,
    ) -> TrajectoryFeatures:
        """`specific_terms`, when given, must equal specific(traj.terms) (kept incrementally)."""
        return cls(
            traj.keywords,
            traj.entities,
            specific(traj.terms, idf, cfg) if specific_terms is None else specific_terms,
            traj.facet_pairs,
            UnitVector.of(traj.summary_vector, center),
            UnitVector.of(traj.latest_vector, center),
        )


def g_score(
    sigma: Snapshot,
    traj: TrajectoryState,
    idf: dict[str, float],
    cfg: AttachConfig,
    center: np.ndarray | None = None,
) -> GScore:
    """g = w_sum·cos(e_σ,e_T^sum) + w_latest·cos(e_σ,e_T^latest) + w_keywords·J(K_σ,K_T)
    + b_entity + b_facet + b_cont − p_mismatch (weights from AttachConfig).

    b_entity when a normalized entity is shared; b_cont = min(b_cont_max, b_cont_per_term ·
    |specific(σ) ∩ specific(T)|) over K ∪ E ∪ X; p_mismatch when entities are shared but all
    of them are generic and no specific term is shared (same "mom", different story).
    """
    return g_prepared(
        SnapshotFeatures.of(sigma, idf, cfg, center),
        TrajectoryFeatures.of(traj, idf, cfg, center),
        idf,
        cfg,
    )


def g_prepared(
    sigma: SnapshotFeatures, traj: TrajectoryFeatures, idf: dict[str, float], cfg: AttachConfig
) -> GScore:
    """`g_score` on features prepared once (the forest's hot path); same arithmetic."""
    cos_sum = sigma.vector.cos_with(traj.summary) if sigma.vector is not None else 0.0
    cos_latest = sigma.vector.cos_with(traj.latest) if sigma.vector is not None else 0.0
    shared_keywords = len(sigma.keywords & traj.keywords)
    union = len(sigma.keywords) + len(traj.keywords) - shared_keywords
    jac = shared_keywords / union if union else 0.0
    shared_entities = sigma.entities & traj.entities
    b_entity = cfg.b_entity if shared_entities else 0.0
    b_facet = facet_bonus(len(sigma.facet_pairs & traj.facet_pairs), cfg)
    shared_specific = sigma.specific_terms & traj.specific_terms
    b_cont = min(cfg.b_cont_max, cfg.b_cont_per_term * len(shared_specific))
    only_generic = bool(shared_entities) and not specific(shared_entities, idf, cfg)
    p_mismatch = cfg.p_mismatch if only_generic and not shared_specific else 0.0
    total = (
        cfg.w_sum * cos_sum
        + cfg.w_latest * cos_latest
        + cfg.w_keywords * jac
        + b_entity
        + b_facet
        + b_cont
        - p_mismatch
    )
    return GScore(total, cos_sum, cos_latest, jac, b_entity, b_facet, b_cont, p_mismatch)
