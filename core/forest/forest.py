"""A user's forest of interaction states: locate where a snapshot belongs, then attach it.

Cascade (SPEC §3, cheapest first): (1) explicit continuation → the active state; (2) an
explicit return cue → the user's timeline; (3) a hybrid candidate set (vector-nearest
nodes, keyword/entity inverted index, topic anchors). Candidate nodes are reranked with
s(v) = g(σ, T(v)) + s_key + s_rec + s_topic and a calibrated threshold judges CONTINUE or
NEW. An interior node forks only when it beats its trajectory's tail by `fork_margin`.

Calibration (benchmarks/branches.py --calibrate, results in benchmarks/results/branches.md):
a grid over judge_threshold 0.50–0.85, continuation_threshold = judge − {0.2, 0.1, 0.05, 0}
and fork_margin {0.05, 0.1, 0.2} on `core.synthetic` archives (seeds 100–102, 20 users
each; RuleExtractor, static embedder), maximizing mean per-user ARI of trajectories vs true
threads, then purity. Best: judge 0.75, continuation 0.75, fork_margin 0.10. A continuation
bar below the judge bar lost purity there (sessions switch threads between windows), so
the explicit-continuation stage now decides only ties with a better-scoring other branch.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from arborwiki.core.config import AttachConfig
from arborwiki.core.forest.placement import Candidate, Placement, Stage, has_cue
from arborwiki.core.forest.scoring import (
    GScore,
    facet_pairs,
    g_score,
    jaccard,
    norm_set,
    specific,
    term_idf,
    vector_center,
)
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.forest.summaries import path_summary, short, trajectory_record
from arborwiki.core.records import ForestNode, Snapshot, Trajectory, stable_id


class Forest:
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
        return [trajectory_record(self.user_id, s) for s in self._states.values()]

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
        seen: dict[str, Candidate] = {}
        active = self._active_node(sigma, session_prev)
        if active is not None:
            best = self._best(sigma, topic, [active], seen)
            if best and best.score >= cfg.continuation_threshold:
                return self._continue(best, "continuation", seen)
        if has_cue(sigma.summary, cfg.return_cues):
            best = self._best(sigma, topic, self._timeline_matches(sigma), seen)
            if best and best.score >= cfg.continuation_threshold:
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
                by_traj[tid] = g_score(
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
        self, sigma: Snapshot, topic: str, node_ids: list[str], seen: dict[str, Candidate]
    ) -> Candidate | None:
        terms = norm_set([*sigma.keywords, *sigma.entities])
        wanted = [n for n in node_ids if n]
        wanted += [self._states[self._by_id[n].trajectory_id].tail_node_id or "" for n in wanted]
        scored: list[Candidate] = []
        g_cache: dict[str, GScore] = {}
        for node_id in dict.fromkeys(wanted):
            if node_id not in seen:
                node = self._by_id[node_id]
                tid = node.trajectory_id
                if tid not in g_cache:
                    g_cache[tid] = g_score(
                        sigma, self._states[tid], self.idf, self.cfg, self.center
                    )
                g = g_cache[tid]
                s_key = self.cfg.w_key * jaccard(terms, self._node_terms[node_id])
                s_rec = self.cfg.w_rec * (node.seq + 1) / len(self._nodes)
                s_topic = self.cfg.w_topic if topic and node.topic_key == topic else 0.0
                total = g.total + s_key + s_rec + s_topic
                is_tail = self._states[tid].tail_node_id == node_id
                seen[node_id] = Candidate(node_id, tid, is_tail, total, g, s_key, s_rec, s_topic)
            scored.append(seen[node_id])
        best = min(scored, key=_rank_key, default=None)
        if best is None or best.is_tail:
            return best
        tail = seen[self._states[best.trajectory_id].tail_node_id or ""]
        return best if best.score >= tail.score + self.cfg.fork_margin else tail

    def _continue(self, best: Candidate, stage: Stage, seen: dict[str, Candidate]) -> Placement:
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
    ) -> Forest:
        """Rebuild a forest from stored rows (no re-deciding), e.g. to localize an online turn."""
        forest = cls(user_id, cfg, term_idf(snapshots), vector_center(snapshots))
        by_snapshot = {s.snapshot_id: s for s in snapshots}
        forked = {t.trajectory_id: t.forked_from for t in trajectories}
        for node in sorted(nodes, key=lambda n: n.seq):
            forest._commit(by_snapshot[node.snapshot_id], node, forked.get(node.trajectory_id))
        return forest


def _rank_key(c: Candidate) -> tuple[float, int, str]:
    """Best score first; on a tie prefer a tail (continue rather than fork), then by id."""
    return (-c.score, 0 if c.is_tail else 1, c.node_id)


def _ranked(seen: dict[str, Candidate]) -> list[Candidate]:
    return sorted(seen.values(), key=_rank_key)


def build_forest(
    snapshots: list[Snapshot], cfg: AttachConfig
) -> tuple[list[ForestNode], list[Trajectory]]:
    """Attach one user's snapshots in time order (idf computed over all of them first)."""
    if not snapshots:
        return [], []
    ordered = sorted(snapshots, key=lambda s: (s.timestamp, s.session_id, s.snapshot_id))
    forest = Forest(ordered[0].user_id, cfg, term_idf(ordered), vector_center(ordered))
    for sigma in ordered:
        forest.attach(sigma)
    return forest.nodes, forest.trajectories
