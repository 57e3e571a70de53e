"""Coverage-aware greedy selection of k trajectories.

    S(T) = s_rank(T) + w_entity·Δ_entity + w_facet·Δ_facet + w_item·Δ_item + w_term·Δ_term
           + w_inventory·I_inventory + w_count·I_count + w_family·s_family − p_red

Δ_x is the share of the question's target set U_x (entities named, facet keys asked,
items of the routed inventory pages, question terms) that T newly covers:
|(X_T ∩ U_x) − covered_x| / |U_x| (0 when U_x is empty), so every Δ lies in [0, 1]
and only query-relevant novelty counts. p_red = p_redundancy · (share of T's entities
already covered + 1 if T's content cluster was already picked).

Measured on both dev sets (benchmarks/results/locomo_dev.md, locomo_long_dev.md): the
coverage terms cost 0.3–0.5 points on LoCoMo dev and change nothing on the long set, so
selection is the top k by s_rank (`top_by_rank`), and the greedy S(T) is the evaluation's
`coverage_terms` ablation (core/evaluation/variants.py) with the design's weights
(`query.w_entity` … `query.p_redundancy`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from arborwiki.core.config import QueryConfig
from arborwiki.core.embedding import cosine
from arborwiki.core.query.fusion import RRF_K
from arborwiki.core.query.questions import QuestionInfo, facet_targets
from arborwiki.core.query.reader import Hit, MessageRef
from arborwiki.core.records import Trajectory, WikiPage


@dataclass(frozen=True)
class Candidate:
    trajectory_id: str
    s_rank: float
    entities: frozenset[str] = frozenset()
    facets: frozenset[str] = frozenset()
    items: frozenset[str] = frozenset()
    terms: frozenset[str] = frozenset()
    on_inventory: bool = False
    has_count: bool = False
    family: bool = False
    cluster: str = ""


@dataclass(frozen=True)
class Targets:
    entities: frozenset[str] = frozenset()
    facets: frozenset[str] = frozenset()
    items: frozenset[str] = frozenset()
    terms: frozenset[str] = frozenset()
    is_count: bool = False


@dataclass
class Coverage:
    entities: set[str] = field(default_factory=set)
    facets: set[str] = field(default_factory=set)
    items: set[str] = field(default_factory=set)
    terms: set[str] = field(default_factory=set)
    clusters: set[str] = field(default_factory=set)

    def add(self, c: Candidate) -> None:
        self.entities |= c.entities
        self.facets |= c.facets
        self.items |= c.items
        self.terms |= c.terms
        if c.cluster:
            self.clusters.add(c.cluster)


@dataclass(frozen=True)
class ScoredCandidate:
    candidate: Candidate
    total: float
    parts: dict[str, float]


def _delta(have: frozenset[str], target: frozenset[str], covered: set[str]) -> float:
    if not target:
        return 0.0
    return len((have & target) - covered) / len(target)


def s_score(c: Candidate, targets: Targets, covered: Coverage, cfg: QueryConfig) -> ScoredCandidate:
    """S(T) for one candidate given what the already-selected trajectories cover."""
    repeated = len(c.entities & covered.entities) / len(c.entities) if c.entities else 0.0
    same_cluster = 1.0 if c.cluster and c.cluster in covered.clusters else 0.0
    parts = {
        "s_rank": c.s_rank,
        "entity": cfg.w_entity * _delta(c.entities, targets.entities, covered.entities),
        "facet": cfg.w_facet * _delta(c.facets, targets.facets, covered.facets),
        "item": cfg.w_item * _delta(c.items, targets.items, covered.items),
        "term": cfg.w_term * _delta(c.terms, targets.terms, covered.terms),
        "inventory": cfg.w_inventory * float(c.on_inventory),
        "count": cfg.w_count * float(targets.is_count and c.has_count),
        "family": cfg.w_family * float(c.family),
        "redundancy": -cfg.p_redundancy * (repeated + same_cluster),
    }
    return ScoredCandidate(c, sum(parts.values()), parts)


def top_by_rank(candidates: list[Candidate], k: int) -> list[ScoredCandidate]:
    """The k best by s_rank (what S(T) with all-zero coverage weights would pick)."""
    pool = sorted(candidates, key=lambda c: (-c.s_rank, c.trajectory_id))
    return [ScoredCandidate(c, c.s_rank, {"s_rank": c.s_rank}) for c in pool[:k]]


def select_trajectories(
    candidates: list[Candidate], targets: Targets, k: int, cfg: QueryConfig
) -> list[ScoredCandidate]:
    """Greedy: first the best s_rank, then each next maximizes S(T) given the coverage so far."""
    pool = sorted(candidates, key=lambda c: (-c.s_rank, c.trajectory_id))
    if not pool:
        return []
    covered = Coverage()
    first = s_score(pool[0], targets, covered, cfg)
    chosen, covered_ids = [first], {pool[0].trajectory_id}
    covered.add(pool[0])
    while len(chosen) < k:
        rest = [c for c in pool if c.trajectory_id not in covered_ids]
        if not rest:
            break
        best = max(
            (s_score(c, targets, covered, cfg) for c in rest),
            key=lambda s: (s.total, -pool.index(s.candidate)),
        )
        chosen.append(best)
        covered_ids.add(best.candidate.trajectory_id)
        covered.add(best.candidate)
    return chosen


def selection_inputs(
    info: QuestionInfo,
    vector: list[float],
    pages: list[Hit[WikiPage]],
    hits: list[Hit[MessageRef]],
    trajectories: list[Trajectory],
    qc: QueryConfig,
) -> tuple[list[Candidate], Targets]:
    """One candidate per trajectory of C_q (s_rank: the question vector's cosine blended with
    the reciprocal ranks of the pages and hits that name it) and the question's targets."""
    rrf: dict[str, float] = defaultdict(float)
    for p in pages:
        for t in p.record.trajectory_ids:
            rrf[t] += 1.0 / (RRF_K + p.rank)
    for h in hits:
        if h.record.trajectory_id:
            rrf[h.record.trajectory_id] += 1.0 / (RRF_K + h.rank)
    top = max(rrf.values(), default=0.0) or 1.0
    inventory = [p.record for p in pages if p.record.kind == "inventory"]
    inventory_links = {t for p in inventory for t in p.trajectory_ids}
    items = frozenset(i.lower() for p in inventory for i in p.items)
    best = pages[0].record if pages else None
    family_root = (best.parent_page_id or best.page_id) if best else None
    family = {
        t
        for p in pages
        if family_root and (p.record.parent_page_id or p.record.page_id) == family_root
        for t in p.record.trajectory_ids
    }
    candidates = []
    for t in trajectories:
        vocabulary = frozenset(t.keywords) | frozenset(t.entities)
        candidates.append(
            Candidate(
                trajectory_id=t.trajectory_id,
                s_rank=qc.w_rank_vector * cosine(vector, t.summary_vector)
                + (1 - qc.w_rank_vector) * rrf[t.trajectory_id] / top,
                entities=frozenset(t.entities),
                facets=frozenset(t.facet_keys),
                items=vocabulary & items,
                terms=vocabulary,
                on_inventory=t.trajectory_id in inventory_links,
                has_count=t.trajectory_id in inventory_links or "quantity" in t.facet_keys,
                family=t.trajectory_id in family,
                cluster=t.forked_from or t.trajectory_id,
            )
        )
    targets = Targets(
        entities=info.entities,
        facets=facet_targets(info.text),
        items=items,
        terms=info.tokens,
        is_count=info.is_count or info.is_list,
    )
    return candidates, targets
