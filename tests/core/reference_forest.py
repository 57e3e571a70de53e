"""The attach algorithm as it was before the indexed rewrite: every candidate found by
scanning all earlier nodes, g(σ, T) re-derived per comparison. Kept only as the oracle that
`test_forest_exactness.py` compares the indexed `Forest` against (slow on purpose).
"""

# ruff: noqa: E501
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from arborwiki.core.config import AttachConfig, LifecycleConfig
from arborwiki.core.embedding import cosine
from arborwiki.core.forest.lifecycle import (
    CORRECTION_REACH,
    CORRECTS,
    Judge,
    RuleJudge,
    apply_correction,
    claim_tokens,
    corrected,
    slot_decision,
)
from arborwiki.core.forest.placement import NodeCandidate, Placement, PlacementStage
from arborwiki.core.forest.scoring import (
    GScore,
    facet_bonus,
    facet_pairs,
    jaccard,
    specific,
    term_idf,
    vector_center,
)
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.forest.summaries import (
    path_summary,
    short,
    trajectory_record,
    trajectory_title,
)
from arborwiki.core.records import (
    Claim,
    ClaimOp,
    ClaimStatus,
    ForestNode,
    Snapshot,
    Trajectory,
    stable_id,
)
from arborwiki.core.slots import fills_no_slot, slot_of
from arborwiki.core.words import has_cue, norm_set, snapshot_terms
from arborwiki.core.words import norm_term as _norm


def _centered_cos(a: object, b: object, center: np.ndarray | None) -> float:
    if a is None or b is None:
        return 0.0
    if center is None:
        return cosine(a, b)  # type: ignore[arg-type]
    return cosine(np.asarray(a) - center, np.asarray(b) - center)


def scan_g_score(
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
    cos_sum = _centered_cos(sigma.vector, traj.summary_vector, center)
    cos_latest = _centered_cos(sigma.vector, traj.latest_vector, center)
    jac = jaccard(norm_set(sigma.keywords), traj.keywords)
    shared_entities = norm_set(sigma.entities) & traj.entities
    b_entity = cfg.b_entity if shared_entities else 0.0
    b_facet = facet_bonus(len(facet_pairs(sigma.facets) & facet_pairs(traj.facets)), cfg)
    shared_specific = specific(snapshot_terms(sigma), idf, cfg) & specific(traj.terms, idf, cfg)
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


class ScanForest:
    def __init__(
        self,
        user_id: str,
        cfg: AttachConfig,
        idf: dict[str, float],
        center: np.ndarray | None = None,
    ) -> None:
        self.user_id = user_id
        self.cfg = cfg
        self.idf = idf
        self.center = center if cfg.center_vectors else None
        self._nodes: list[ForestNode] = []
        self._by_id: dict[str, ForestNode] = {}
        self._node_terms: dict[str, set[str]] = {}
        self._node_facets: dict[str, set[tuple[str, str]]] = {}
        self._session: dict[str, str] = {}
        self._states: dict[str, TrajectoryState] = {}
        self._index: dict[str, list[str]] = {}
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self._vector_nodes: list[str] = []

    # ---- read side -------------------------------------------------------------------
    @property
    def nodes(self) -> list[ForestNode]:
        return list(self._nodes)

    @property
    def trajectories(self) -> list[Trajectory]:
        return [
            trajectory_record(self.user_id, s, trajectory_title(s, self.idf, self.cfg))
            for s in self._states.values()
        ]

    def path(self, node_id: str) -> list[ForestNode]:
        """Root → node: the branch-local context of a state."""
        chain: list[ForestNode] = []
        current: str | None = node_id
        while current is not None:
            node = self._by_id[current]
            chain.append(node)
            current = node.parent_id
        return chain[::-1]

    def topic_key_for(self, sigma: Snapshot) -> str:
        """The rarest specific entity (else keyword) of σ: its topic anchor."""
        for pool in (sigma.entities, sigma.keywords):
            spec = specific(pool, self.idf, self.cfg)
            if spec:
                return min(spec, key=lambda t: (-self.idf.get(t, float("inf")), t))
        return ""

    # ---- locate ----------------------------------------------------------------------
    def locate(self, sigma: Snapshot, session_prev: str | None = None) -> Placement:
        """Decide where σ belongs without changing the forest."""
        if not self._nodes:
            return Placement("NEW", "empty")
        cfg, topic = self.cfg, self.topic_key_for(sigma)
        seen: dict[str, NodeCandidate] = {}
        active = self._active_node(sigma, session_prev)
        if active is not None:
            best = self._best(sigma, topic, [active], seen)
            if best and best.score >= cfg.judge_threshold:
                return self._continue(best, "continuation", seen)
        if has_cue(sigma.summary, cfg.return_cues):
            best = self._best(sigma, topic, self._timeline_matches(sigma), seen)
            if best and best.score >= cfg.judge_threshold:
                return self._continue(best, "return", seen)
        best = self._best(sigma, topic, self._hybrid_nodes(sigma, topic), seen)
        if best and best.score >= cfg.judge_threshold:
            return self._continue(best, "hybrid", seen)
        top = max((c.score for c in seen.values()), default=0.0)
        return Placement("NEW", "new", top, candidates=_ranked(seen))

    def _active_node(self, sigma: Snapshot, session_prev: str | None) -> str | None:
        """The state σ explicitly continues: the latest node of σ's session when σ follows
        it directly, or the latest node overall when σ carries a continuation cue."""
        last = self._nodes[-1]
        same_session = sigma.session_id == (session_prev or self._session[last.node_id])
        if same_session:
            for node in reversed(self._nodes):
                if self._session[node.node_id] == sigma.session_id:
                    return node.node_id
        if has_cue(sigma.summary, self.cfg.continuation_cues):
            return last.node_id
        return None

    def _lookup_terms(self, sigma: Snapshot) -> set[str]:
        """σ's specific terms (all of them when none is specific): a generic term such as
        the user's own name would pull every node out of the index."""
        terms = norm_set([*sigma.keywords, *sigma.entities, *sigma.terms])
        return specific(terms, self.idf, self.cfg) or terms

    def _timeline_matches(self, sigma: Snapshot) -> list[str]:
        """Nodes sharing a (specific) term or a facet with σ, most recent first."""
        terms = self._lookup_terms(sigma)
        pairs = facet_pairs(sigma.facets)
        hits = [
            n.node_id
            for n in reversed(self._nodes)
            if self._node_terms[n.node_id] & terms or self._node_facets[n.node_id] & pairs
        ]
        return self._cap_trajectories(hits)

    def _hybrid_nodes(self, sigma: Snapshot, topic: str) -> list[str]:
        """Vector-nearest nodes ∪ inverted-index hits ∪ topic anchors, kept for the best
        `max_candidates` trajectories by g (`_best` adds each trajectory's tail)."""
        hits: list[str] = []
        if sigma.vector is not None and len(self._vector_nodes):
            query = np.asarray(sigma.vector, dtype=np.float32)
            sims = (
                self._vectors @ query
                if self.center is None
                else (self._vectors - self.center) @ (query - self.center)
            )
            order = np.argsort(-sims, kind="stable")[: self.cfg.max_candidates]
            hits += [self._vector_nodes[i] for i in order]
        for term in sorted(self._lookup_terms(sigma)):
            hits += self._index.get(term, [])
        hits += [n.node_id for n in self._nodes if topic and n.topic_key == topic]
        by_traj: dict[str, float] = {}
        for node_id in dict.fromkeys(hits):
            tid = self._by_id[node_id].trajectory_id
            if tid not in by_traj:
                by_traj[tid] = scan_g_score(
                    sigma, self._states[tid], self.idf, self.cfg, self.center
                ).total
        keep = set(sorted(by_traj, key=lambda t: (-by_traj[t], t))[: self.cfg.max_candidates])
        return [n for n in dict.fromkeys(hits) if self._by_id[n].trajectory_id in keep]

    def _cap_trajectories(self, node_ids: Iterable[str]) -> list[str]:
        kept: list[str] = []
        trajs: set[str] = set()
        for node_id in node_ids:
            tid = self._by_id[node_id].trajectory_id
            if tid in trajs or len(trajs) < self.cfg.max_candidates:
                trajs.add(tid)
                kept.append(node_id)
        return kept

    def _best(
        self, sigma: Snapshot, topic: str, node_ids: list[str], seen: dict[str, NodeCandidate]
    ) -> NodeCandidate | None:
        terms = norm_set([*sigma.keywords, *sigma.entities])
        wanted = [n for n in node_ids if n]
        wanted += [self._states[self._by_id[n].trajectory_id].tail_node_id or "" for n in wanted]
        scored: list[NodeCandidate] = []
        g_cache: dict[str, GScore] = {}
        for node_id in dict.fromkeys(wanted):
            if node_id not in seen:
                node = self._by_id[node_id]
                tid = node.trajectory_id
                if tid not in g_cache:
                    g_cache[tid] = scan_g_score(
                        sigma, self._states[tid], self.idf, self.cfg, self.center
                    )
                g = g_cache[tid]
                s_key = self.cfg.w_key * jaccard(terms, self._node_terms[node_id])
                s_rec = self.cfg.w_rec * (node.seq + 1) / len(self._nodes)
                s_topic = self.cfg.w_topic if topic and node.topic_key == topic else 0.0
                total = g.total + s_key + s_rec + s_topic
                is_tail = self._states[tid].tail_node_id == node_id
                seen[node_id] = NodeCandidate(
                    node_id, tid, is_tail, total, g, s_key, s_rec, s_topic
                )
            scored.append(seen[node_id])
        best = min(scored, key=_rank_key, default=None)
        if best is None or best.is_tail:
            return best
        tail = seen[self._states[best.trajectory_id].tail_node_id or ""]
        return best if best.score >= tail.score + self.cfg.fork_margin else tail

    def _continue(
        self, best: NodeCandidate, stage: PlacementStage, seen: dict[str, NodeCandidate]
    ) -> Placement:
        return Placement(
            "CONTINUE",
            stage,
            best.score,
            best.node_id,
            best.trajectory_id,
            fork=not best.is_tail,
            candidates=_ranked(seen),
        )

    # ---- write side ------------------------------------------------------------------
    def attach(self, sigma: Snapshot) -> ForestNode:
        """Locate σ and commit it: continue a tail, fork at an interior node, or start a root."""
        if stable_id("node", sigma.snapshot_id) in self._by_id:
            raise ValueError(f"snapshot {sigma.snapshot_id} is already in the forest")
        placement = self.locate(sigma)
        node_id = stable_id("node", sigma.snapshot_id)
        parent = self._by_id[placement.node_id] if placement.node_id else None
        if placement.decision == "CONTINUE" and not placement.fork and parent is not None:
            trajectory_id, forked_from = parent.trajectory_id, None
        else:
            trajectory_id = stable_id("traj", self.user_id, sigma.snapshot_id)
            forked_from = parent.trajectory_id if parent is not None else None
        summary = short(sigma.summary)
        node = ForestNode(
            node_id=node_id,
            user_id=self.user_id,
            snapshot_id=sigma.snapshot_id,
            trajectory_id=trajectory_id,
            parent_id=parent.node_id if parent else None,
            root_id=parent.root_id if parent else node_id,
            depth=parent.depth + 1 if parent else 0,
            seq=len(self._nodes),
            node_summary=summary,
            path_summary=path_summary(self.path(parent.node_id) if parent else [], summary),
            topic_key=self.topic_key_for(sigma),
            attach_score=round(placement.score, 6),
            attach_reason=placement.reason,
        )
        self._commit(sigma, node, forked_from)
        return node

    def _commit(self, sigma: Snapshot, node: ForestNode, forked_from: str | None) -> None:
        state = self._states.get(node.trajectory_id)
        if state is None:
            state = TrajectoryState(node.trajectory_id, forked_from=forked_from)
            self._states[node.trajectory_id] = state
        state.add(sigma, node.node_id, node.topic_key)
        self._nodes.append(node)
        self._by_id[node.node_id] = node
        self._session[node.node_id] = sigma.session_id
        self._node_terms[node.node_id] = norm_set([*sigma.keywords, *sigma.entities])
        self._node_facets[node.node_id] = facet_pairs(sigma.facets)
        for term in norm_set([*sigma.keywords, *sigma.entities, *sigma.terms]):
            self._index.setdefault(term, []).append(node.node_id)
        if sigma.vector is not None:
            row = np.asarray(sigma.vector, dtype=np.float32)[None, :]
            self._vectors = row if not self._vector_nodes else np.vstack([self._vectors, row])
            self._vector_nodes.append(node.node_id)

    @classmethod
    def from_records(
        cls,
        user_id: str,
        cfg: AttachConfig,
        snapshots: list[Snapshot],
        nodes: list[ForestNode],
        trajectories: list[Trajectory],
    ) -> ScanForest:
        """Rebuild a forest from stored rows (no re-deciding), e.g. to localize an online turn."""
        forest = cls(user_id, cfg, term_idf(snapshots), vector_center(snapshots))
        by_snapshot = {s.snapshot_id: s for s in snapshots}
        forked = {t.trajectory_id: t.forked_from for t in trajectories}
        for node in sorted(nodes, key=lambda n: n.seq):
            forest._commit(by_snapshot[node.snapshot_id], node, forked.get(node.trajectory_id))
        return forest


def _rank_key(c: NodeCandidate) -> tuple[float, int, str]:
    """Best score first; on a tie prefer a tail (continue rather than fork), then by id."""
    return (-c.score, 0 if c.is_tail else 1, c.node_id)


def _ranked(seen: dict[str, NodeCandidate]) -> list[NodeCandidate]:
    return sorted(seen.values(), key=_rank_key)


def scan_build_forest(
    snapshots: list[Snapshot], cfg: AttachConfig
) -> tuple[list[ForestNode], list[Trajectory]]:
    """Attach one user's snapshots in time order (idf computed over all of them first)."""
    if not snapshots:
        return [], []
    ordered = sorted(snapshots, key=lambda s: (s.timestamp, s.session_id, s.snapshot_id))
    forest = ScanForest(ordered[0].user_id, cfg, term_idf(ordered), vector_center(ordered))
    for sigma in ordered:
        forest.attach(sigma)
    return forest.nodes, forest.trajectories


def scan_apply_lifecycle(
    snapshots: list[Snapshot],
    nodes: list[ForestNode],
    cfg: LifecycleConfig,
    judge: Judge | None = None,
) -> list[Claim]:
    """Every claim of every placed snapshot, in time order, with trajectory, op and status.

    1. literal match (same subject+attribute+value) of an earlier active claim whose state
       changed (now negated, or a change cue) → DEPRECATE the old one;
    2. same subject+attribute, other value, and a change cue or a single-valued attribute
       → REVISE the old one;
    3. else the judge sees ≤ max_prefilter earlier claims with overlapping tokens;
    2 and 3 not for a slot's attribute with a value that fills no slot ("lives in / the
    moment": a parallel fact).
    Claims see their own branch and its inherited path, except for single-valued attributes
    (where someone lives, works, ...): a person has one such state at a time whichever
    thread it was mentioned in, so those revise user-wide.
    Inputs are not mutated; claims come back as copies.
    """
    judge = judge or RuleJudge()
    by_snapshot = {s.snapshot_id: s for s in snapshots}
    by_node = {n.node_id: n for n in nodes}
    single = {_norm(a) for a in cfg.single_valued_attributes}
    claims_of_node: dict[str, list[Claim]] = {}
    out: list[Claim] = []
    by_id: dict[str, Claim] = {}
    for node in sorted(nodes, key=lambda n: n.seq):
        visible = [c for a in _ancestors(node, by_node) for c in claims_of_node.get(a, [])]
        own: list[Claim] = []
        for original in by_snapshot[node.snapshot_id].claims:
            claim = original.model_copy(deep=True)
            claim.trajectory_id = node.trajectory_id
            active = [c for c in visible + own if by_id[c.claim_id].status == "active"]
            seen = {c.claim_id for c in active}
            states = [c for c in out if _norm(c.attribute) in single and c.claim_id not in seen]
            if _scan_slot_or_correction(claim, out, by_id):
                own.append(claim)
                by_id[claim.claim_id] = claim
                out.append(claim)
                continue
            _place(
                claim,
                active,
                [c for c in states if c.status == "active"],
                single,
                cfg,
                judge,
                by_id,
            )
            own.append(claim)
            by_id[claim.claim_id] = claim
            out.append(claim)
        claims_of_node[node.node_id] = own
    return out


def _scan_slot_or_correction(claim: Claim, out: list[Claim], by_id: dict[str, Claim]) -> bool:
    """The user-wide steps, by scanning every earlier claim: a correction fixes the latest
    claim holding its wrong word; a slot claim is decided on the subject's claims of its
    slot. True when one of them placed `claim`."""
    active = [c for c in out if by_id[c.claim_id].status == "active"]
    if _norm(claim.attribute) == CORRECTS:
        old = corrected(claim, active[-CORRECTION_REACH:])
        if old is not None:
            apply_correction(claim, old)
            _supersede(claim, old, "REVISE", "revised")
        return True
    slot = slot_of(claim.attribute, claim.value)
    if slot is None:
        return False
    pool = [
        c
        for c in active
        if _norm(c.subject) == _norm(claim.subject)
        and (s := slot_of(c.attribute, c.value)) is not None
        and s.name == slot.name
    ]
    decision = slot_decision(claim, slot, pool)
    status: ClaimStatus = "deprecated" if decision.op == "DEPRECATE" else "revised"
    for old in reversed(decision.targets):
        _supersede(claim, old, decision.op, status)
    return True


def _ancestors(node: ForestNode, by_node: dict[str, ForestNode]) -> list[str]:
    """Node ids strictly above `node`, root first: the claims its branch inherited."""
    chain: list[str] = []
    current = node.parent_id
    while current is not None:
        chain.append(current)
        current = by_node[current].parent_id
    return chain[::-1]


def _place(
    claim: Claim,
    active: list[Claim],
    states: list[Claim],
    single: set[str],
    cfg: LifecycleConfig,
    judge: Judge,
    by_id: dict[str, Claim],
) -> None:
    subj, attr, value = _norm(claim.subject), _norm(claim.attribute), _norm(claim.value)
    pool = active + states if attr in single else active
    same_sa = [c for c in pool if (_norm(c.subject), _norm(c.attribute)) == (subj, attr)]
    literal = [c for c in same_sa if _norm(c.value) == value]
    changed = claim.negated or claim.change_cue
    if literal and changed:
        _supersede(claim, literal[-1], "DEPRECATE", "deprecated")
        return
    if literal:
        return  # a restatement: a parallel ADD, the earlier claim stays active
    if fills_no_slot(claim.attribute, claim.value):
        return  # "lives in / the moment": a parallel fact
    others = [c for c in same_sa if not c.negated]
    if others and not claim.negated and (claim.change_cue or attr in single):
        _supersede(claim, others[-1], "REVISE", "revised")
        return
    mine = claim_tokens(claim)
    overlap = [(len(mine & claim_tokens(c)), i, c) for i, c in enumerate(active)]
    ranked = sorted((o for o in overlap if o[0] > 0), key=lambda o: (-o[0], -o[1]))
    candidates = [c for _, _, c in ranked[: cfg.max_prefilter]]
    decision = judge.decide(claim, candidates)
    allowed = {c.claim_id for c in candidates}
    if decision.op != "ADD" and decision.target_id in allowed:
        status: ClaimStatus = "revised" if decision.op == "REVISE" else "deprecated"
        _supersede(claim, by_id[decision.target_id or ""], decision.op, status)


def _supersede(claim: Claim, old: Claim, op: ClaimOp, status: ClaimStatus) -> None:
    old.status = status
    old.superseded_by = claim.claim_id
    claim.op = op
    claim.supersedes = old.claim_id
