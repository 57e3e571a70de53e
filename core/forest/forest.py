"""A user's forest of interaction states: locate where a snapshot belongs, then attach it.

In a build every window comes with its place (core/episodes.py: the episode it is a piece
of, the thread of that episode), and the place decides: a window continues its episode's
trajectory; the first window of an episode returns to the session's own trajectory of
its thread, else opens a new branch at the tail of the thread's latest trajectory (a
thread resumed on a later day is the same tree, a new trajectory), else starts a root.
Without a place (a live turn, `localize`) the cascade below decides.

Cascade (cheapest first): (1) explicit continuation → the active state; (2) an
explicit return cue → the user's timeline; (3) a hybrid candidate set (vector-nearest
nodes, keyword/entity inverted index, topic anchors). NodeCandidate nodes are reranked with
s(v) = g(σ, T(v)) + s_key + s_rec + s_topic and a calibrated threshold judges CONTINUE or
NEW. An interior node forks only when it beats its trajectory's tail by `fork_margin`.

Calibration (benchmarks/branches.py --calibrate, results in benchmarks/results/branches.md):
a grid over judge_threshold 0.50–0.85, continuation_threshold = judge − {0.2, 0.1, 0.05, 0}
and fork_margin {0.05, 0.1, 0.2} on `arborwiki.synthetic` archives (seeds 100–102, 20 users
each; RuleExtractor, static embedder), maximizing mean per-user ARI of trajectories vs true
threads, then purity. Best: judge 0.75, continuation 0.75, fork_margin 0.10. A continuation
bar below the judge bar lost purity there (sessions switch threads between windows), so
the explicit-continuation and return-cue stages share the judge's bar (`judge_threshold`;
`continuation_threshold` was retired on 2026-12-06, always equal to it by default).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from arborwiki.core.config import AttachConfig
from arborwiki.core.forest.node_index import GrowingArray, NodeVectors, Postings
from arborwiki.core.forest.placement import NodeCandidate, Placement, PlacementStage
from arborwiki.core.forest.scoring import (
    GScore,
    SnapshotFeatures,
    TrajectoryFeatures,
    facet_pairs,
    g_prepared,
    rarest_specific,
    specific,
    term_idf,
    vector_center,
)
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.forest.summaries import (
    ARROW,
    PATH_SUMMARY_CHARS,
    path_summary,
    short,
    trajectory_record,
    trajectory_title,
    trimmed_path,
)
from arborwiki.core.records import ForestNode, Snapshot, Trajectory, WindowPlace, stable_id
from arborwiki.core.words import has_cue, norm_set, snapshot_terms


class Forest:
    """Nodes in attach order (position = index), with inverted indexes over their terms,
    facets and topic keys and a matrix of their vectors, so that `locate` reads only the
    nodes σ can match (vector-nearest nodes and keyword/entity inverted-index hits)."""

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
        self._pos: dict[str, int] = {}
        self._session_last: dict[str, int] = {}  # session → position of its latest node
        self._sessions: list[str] = []
        self._states: dict[str, TrajectoryState] = {}
        self._features: dict[str, TrajectoryFeatures] = {}
        self._specific: dict[str, set[str]] = {}  # specific(T.terms), kept incrementally
        self._traj_ids: list[str] = []  # trajectory index → id
        self._traj_index: dict[str, int] = {}
        self._tails = GrowingArray(np.int64)  # trajectory index → tail position
        self._node_traj = GrowingArray(np.int64)
        self._node_seq = GrowingArray(np.int64)
        self._node_nterms = GrowingArray(np.int64)  # |K ∪ E| of each node
        self._node_terms: list[frozenset[str]] = []
        self._by_term = Postings()  # K ∪ E ∪ X → nodes (candidate lookup)
        self._by_ke = Postings()  # K ∪ E → nodes (s_key, timeline)
        self._by_facet = Postings()
        self._by_topic = Postings()
        self._vectors = NodeVectors(self.center)
        self._path_chars: list[int] = []  # len of the root → node path text
        self._episode_traj: dict[int, str] = {}  # episode → its trajectory (placed attach)
        self._thread_trajs: dict[int, list[str]] = {}  # thread → its trajectories, in order
        self._traj_session: dict[str, str] = {}  # trajectory → session of its first node

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
            node = self._nodes[self._pos[current]]
            chain.append(node)
            current = node.parent_id
        return chain[::-1]

    def topic_key_for(self, sigma: Snapshot) -> str:
        """The rarest specific entity (else keyword) of σ: its topic anchor."""
        for pool in (sigma.entities, sigma.keywords):
            if anchor := rarest_specific(pool, self.idf, self.cfg):
                return anchor
        return ""

    # ---- locate ----------------------------------------------------------------------
    def locate(
        self, sigma: Snapshot, session_prev: str | None = None, place: WindowPlace | None = None
    ) -> Placement:
        """Decide where σ belongs without changing the forest."""
        if not self._nodes:
            return Placement("NEW", "empty")
        if place is not None:
            return self._placed(sigma, place)
        cfg, topic = self.cfg, self.topic_key_for(sigma)
        scorer = _Scorer(self, sigma, topic)
        active = self._active_node(sigma, session_prev)
        if active is not None:
            best = scorer.best(np.asarray([active], dtype=np.int64))
            if best is not None and scorer.score(best) >= cfg.judge_threshold:
                return self._continue(scorer, best, "continuation")
        if has_cue(sigma.summary, cfg.return_cues):
            best = scorer.best(self._timeline_matches(sigma))
            if best is not None and scorer.score(best) >= cfg.judge_threshold:
                return self._continue(scorer, best, "return")
        best = scorer.best(self._hybrid_nodes(sigma, topic, scorer))
        if best is not None and scorer.score(best) >= cfg.judge_threshold:
            return self._continue(scorer, best, "hybrid")
        return Placement("NEW", "new", scorer.top(), candidates=scorer.ranked())

    def _placed(self, sigma: Snapshot, place: WindowPlace) -> Placement:
        """The episode's trajectory; else the session's own trajectory of the thread (a
        return); else a new branch at the thread's latest tail (a resumption); else NEW."""
        own = self._episode_traj.get(place.episode)
        if own is not None:
            return self._at_tail(sigma, own, "continuation", branch=False)
        trajs = self._thread_trajs.get(place.thread, [])
        for tid in reversed(trajs):
            if self._traj_session[tid] == sigma.session_id:
                return self._at_tail(sigma, tid, "return", branch=False)
        if trajs:
            return self._at_tail(sigma, trajs[-1], "resume", branch=True)
        return Placement("NEW", "new")

    def _at_tail(self, sigma: Snapshot, tid: str, stage: PlacementStage, branch: bool) -> Placement:
        """CONTINUE at trajectory `tid`'s tail (`branch`: as a new trajectory), scored by g."""
        score = _Scorer(self, sigma, "").g(self._traj_index[tid]).total
        return self.at_tail(tid, stage, score, branch)

    def at_tail(
        self, tid: str, stage: PlacementStage, score: float, branch: bool = False
    ) -> Placement:
        """CONTINUE at the tail of trajectory `tid` (a decision made outside `locate`)."""
        node = self._nodes[int(self._tails.view()[self._traj_index[tid]])]
        return Placement("CONTINUE", stage, score, node.node_id, tid, fork=branch)

    def tree_of(self) -> dict[str, str]:
        """Trajectory id → the root node id of its tree."""
        return {node.trajectory_id: node.root_id for node in self._nodes}

    def _active_node(self, sigma: Snapshot, session_prev: str | None) -> int | None:
        """The state σ explicitly continues: the latest node of σ's session when σ follows
        it directly, or the latest node overall when σ carries a continuation cue."""
        last = len(self._nodes) - 1
        same_session = sigma.session_id == (session_prev or self._sessions[last])
        if same_session and sigma.session_id in self._session_last:
            return self._session_last[sigma.session_id]
        if has_cue(sigma.summary, self.cfg.continuation_cues):
            return last
        return None

    def _lookup_terms(self, sigma: Snapshot) -> set[str]:
        """σ's specific terms (all of them when none is specific): a generic term such as
        the user's own name would pull every node out of the index."""
        terms = norm_set([*sigma.keywords, *sigma.entities, *sigma.terms])
        return specific(terms, self.idf, self.cfg) or terms

    def _timeline_matches(self, sigma: Snapshot) -> np.ndarray:
        """Nodes sharing a (specific) term or a facet with σ, most recent first, kept for
        the first `max_candidates` trajectories met going back in time."""
        terms = self._lookup_terms(sigma)
        pairs = facet_pairs(sigma.facets)
        hits = np.union1d(self._by_ke.union(terms), self._by_facet.union(pairs))[::-1]
        trajs = self._node_traj.view()[hits]
        _, first = np.unique(trajs, return_index=True)
        allowed = trajs[np.sort(first)[: self.cfg.max_candidates]]
        return hits[np.isin(trajs, allowed)]

    def _hybrid_nodes(self, sigma: Snapshot, topic: str, scorer: _Scorer) -> np.ndarray:
        """Vector-nearest nodes ∪ inverted-index hits ∪ topic anchors, kept for the best
        `max_candidates` trajectories by g (`_best` adds each trajectory's tail)."""
        parts: list[np.ndarray] = []
        if sigma.vector is not None and len(self._vectors):
            parts.append(self._vectors.nearest(sigma.vector, self.cfg.max_candidates))
        parts.append(self._by_term.union(self._lookup_terms(sigma)))
        if topic:
            parts.append(self._by_topic.get(topic))
        hits = np.unique(np.concatenate(parts))
        node_traj = self._node_traj.view()
        touched = np.unique(node_traj[hits])
        totals = {int(t): scorer.g(int(t)).total for t in touched}
        ranked = sorted(totals, key=lambda t: (-totals[t], self._traj_ids[t]))
        keep = np.asarray(ranked[: self.cfg.max_candidates], dtype=np.int64)
        return hits[np.isin(node_traj[hits], keep)]

    def _continue(self, scorer: _Scorer, best: int, stage: PlacementStage) -> Placement:
        node = self._nodes[best]
        return Placement(
            "CONTINUE",
            stage,
            scorer.score(best),
            node.node_id,
            node.trajectory_id,
            fork=not scorer.is_tail(best),
            candidates=scorer.ranked(),
        )

    # ---- write side ------------------------------------------------------------------
    def attach(self, sigma: Snapshot, place: WindowPlace | None = None) -> ForestNode:
        """Locate σ and commit it: continue a tail, fork at an interior node (or branch at a
        tail), or start a root."""
        return self.attach_placed(sigma, self.locate(sigma, place=place), place)

    def attach_placed(
        self, sigma: Snapshot, placement: Placement, place: WindowPlace | None = None
    ) -> ForestNode:
        """Commit σ where `placement` says (decided by `locate`, or by `place_turn` for a
        live turn)."""
        node_id = stable_id("node", sigma.snapshot_id)
        if node_id in self._pos:
            raise ValueError(f"snapshot {sigma.snapshot_id} is already in the forest")
        parent = self._nodes[self._pos[placement.node_id]] if placement.node_id else None
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
            path_summary=self._path_summary(parent, summary),
            topic_key=self.topic_key_for(sigma),
            attach_score=round(placement.score, 6),
            attach_reason=placement.reason,
        )
        self._commit(sigma, node, forked_from)
        if place is not None:
            self._episode_traj[place.episode] = trajectory_id
            thread = self._thread_trajs.setdefault(place.thread, [])
            if trajectory_id not in thread:
                thread.append(trajectory_id)
        return node

    def _path_summary(self, parent: ForestNode | None, summary: str) -> str:
        """`path_summary(self.path(parent), summary)`, without walking a long path: past
        PATH_SUMMARY_CHARS only the root and the newest steps that fit are read."""
        if parent is None:
            return path_summary([], summary)
        chars = self._path_chars[self._pos[parent.node_id]] + len(ARROW) + len(summary)
        if chars <= PATH_SUMMARY_CHARS:
            return path_summary(self.path(parent.node_id), summary)
        root = self._nodes[self._pos[parent.root_id]]
        return trimmed_path(root.node_summary, self._newest_steps(parent, summary))

    def _newest_steps(self, parent: ForestNode, summary: str) -> Iterator[str]:
        """node, parent, grandparent … up to (not including) the root."""
        yield summary
        node: ForestNode | None = parent
        while node is not None and node.parent_id is not None:
            yield node.node_summary
            node = self._nodes[self._pos[node.parent_id]]

    def _commit(self, sigma: Snapshot, node: ForestNode, forked_from: str | None) -> None:
        tid = node.trajectory_id
        state = self._states.get(tid)
        if state is None:
            state = TrajectoryState(tid, forked_from=forked_from)
            self._states[tid] = state
            self._specific[tid] = set()
            self._traj_index[tid] = len(self._traj_ids)
            self._traj_ids.append(tid)
            self._tails.append(0)
            self._traj_session[tid] = sigma.session_id
        state.add(sigma, node.node_id, node.topic_key)
        self._specific[tid] |= specific(snapshot_terms(sigma), self.idf, self.cfg)
        self._features[tid] = TrajectoryFeatures.of(
            state, self.idf, self.cfg, self.center, self._specific[tid]
        )
        position = len(self._nodes)
        traj = self._traj_index[tid]
        self._tails.set(traj, position)
        self._nodes.append(node)
        self._pos[node.node_id] = position
        self._sessions.append(sigma.session_id)
        self._session_last[sigma.session_id] = position
        terms = frozenset(norm_set([*sigma.keywords, *sigma.entities]))
        self._node_terms.append(terms)
        self._node_traj.append(traj)
        self._node_seq.append(node.seq)
        self._node_nterms.append(len(terms))
        for term in terms:
            self._by_ke.add(term, position)
        for term in norm_set([*sigma.keywords, *sigma.entities, *sigma.terms]):
            self._by_term.add(term, position)
        for pair in facet_pairs(sigma.facets):
            self._by_facet.add(pair, position)
        self._by_topic.add(node.topic_key, position)
        if sigma.vector is not None:
            self._vectors.add(position, sigma.vector)
        parent_chars = self._path_chars[self._pos[node.parent_id]] if node.parent_id else None
        own = len(node.node_summary)
        self._path_chars.append(own if parent_chars is None else parent_chars + len(ARROW) + own)

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


class _Scorer:
    """One `locate` call's scores: g per trajectory (computed on first need) and the node
    rerank s(v) = g + s_key + s_rec + s_topic for every node at once, read where needed.

    Same arithmetic, in the same order, as scoring one candidate node at a time.
    """

    def __init__(self, forest: Forest, sigma: Snapshot, topic: str) -> None:
        self.forest = forest
        self.topic = topic
        self.features = SnapshotFeatures.of(sigma, forest.idf, forest.cfg, forest.center)
        self.terms = frozenset(norm_set([*sigma.keywords, *sigma.entities]))
        n = len(forest._nodes)
        self._tails = forest._tails.view().copy()  # as of this call: attach moves tails
        self._g: dict[int, GScore] = {}
        self._g_total = np.zeros(len(forest._traj_ids), dtype=np.float64)
        self._seen = np.zeros(n, dtype=bool)
        self._rerank: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def g(self, traj: int) -> GScore:
        if traj not in self._g:
            f = self.forest
            feats = f._features[f._traj_ids[traj]]
            self._g[traj] = g_prepared(self.features, feats, f.idf, f.cfg)
            self._g_total[traj] = self._g[traj].total
        return self._g[traj]

    def _parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(s_key, s_rec, s_topic) of every node."""
        if self._rerank is None:
            f, cfg = self.forest, self.forest.cfg
            n = len(f._nodes)
            shared = np.zeros(n, dtype=np.int64)
            for term in self.terms:
                shared[f._by_ke.get(term)] += 1
            union = len(self.terms) + f._node_nterms.view() - shared
            safe = np.where(union > 0, union, 1)
            s_key = cfg.w_key * np.where(union > 0, shared / safe, 0.0)
            s_rec = cfg.w_rec * (f._node_seq.view() + 1) / n
            s_topic = np.zeros(n, dtype=np.float64)
            if self.topic:
                s_topic[f._by_topic.get(self.topic)] = cfg.w_topic
            self._rerank = (s_key, s_rec, s_topic)
        return self._rerank

    def totals(self, positions: np.ndarray) -> np.ndarray:
        s_key, s_rec, s_topic = self._parts()
        trajs = self.forest._node_traj.view()[positions]
        return self._g_total[trajs] + s_key[positions] + s_rec[positions] + s_topic[positions]

    def score(self, position: int) -> float:
        return float(self.totals(np.asarray([position]))[0])

    def is_tail(self, position: int) -> bool:
        return int(self._tails[self.forest._node_traj.view()[position]]) == position

    def best(self, positions: np.ndarray) -> int | None:
        """The top-ranked node among `positions` and their trajectories' tails; an interior
        node only when it beats its tail by `fork_margin` (else the tail)."""
        f = self.forest
        if not len(positions):
            return None
        trajs = f._node_traj.view()[positions]
        wanted = np.unique(np.concatenate([positions, self._tails[trajs]]))
        for traj in np.unique(f._node_traj.view()[wanted]):
            self.g(int(traj))
        self._seen[wanted] = True
        totals = self.totals(wanted)
        tied = wanted[totals == totals.max()]
        best = min((int(p) for p in tied), key=self._tie_key)
        if self.is_tail(best):
            return best
        tail = int(self._tails[f._node_traj.view()[best]])
        return best if self.score(best) >= self.score(tail) + f.cfg.fork_margin else tail

    def _tie_key(self, position: int) -> tuple[int, str]:
        return (0 if self.is_tail(position) else 1, self.forest._nodes[position].node_id)

    def top(self) -> float:
        seen = np.flatnonzero(self._seen)
        return float(self.totals(seen).max()) if len(seen) else 0.0

    def ranked(self) -> RankedCandidates:
        return RankedCandidates(self, np.flatnonzero(self._seen))

    def candidate(self, position: int) -> NodeCandidate:
        f = self.forest
        node = f._nodes[position]
        s_key, s_rec, s_topic = self._parts()
        traj = int(f._node_traj.view()[position])
        return NodeCandidate(
            node.node_id,
            node.trajectory_id,
            self.is_tail(position),
            self.score(position),
            self.g(traj),
            float(s_key[position]),
            float(s_rec[position]),
            float(s_topic[position]),
        )


class RankedCandidates(Sequence[NodeCandidate]):
    """Every node a `locate` call scored, best first — built only when someone reads it
    (attaching reads just the decision; `localize` and tests read the list)."""

    def __init__(self, scorer: _Scorer, positions: np.ndarray) -> None:
        self._scorer: _Scorer | None = scorer
        self._positions = positions
        self._items: list[NodeCandidate] | None = None

    def _list(self) -> list[NodeCandidate]:
        if self._items is None:
            assert self._scorer is not None
            made = [self._scorer.candidate(int(p)) for p in self._positions]
            self._items = sorted(made, key=_rank_key)
            self._scorer = None
        return self._items

    def __getitem__(self, index):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN204
        return self._list()[index]

    def __len__(self) -> int:
        return len(self._positions)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RankedCandidates):
            return self._list() == other._list()
        return isinstance(other, list) and self._list() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._list())


def _rank_key(c: NodeCandidate) -> tuple[float, int, str]:
    """Best score first; on a tie prefer a tail (continue rather than fork), then by id."""
    return (-c.score, 0 if c.is_tail else 1, c.node_id)


def _ranked(seen: dict[str, NodeCandidate]) -> list[NodeCandidate]:
    return sorted(seen.values(), key=_rank_key)


def build_forest(
    snapshots: list[Snapshot],
    cfg: AttachConfig,
    places: dict[str, WindowPlace] | None = None,
) -> tuple[list[ForestNode], list[Trajectory]]:
    """Attach one user's snapshots in time order (idf computed over all of them first).
    With `places` (snapshot id → episode and thread) the snapshots come in pipeline order,
    which is kept: turns of one session often share a timestamp, and an episode's windows
    must chain in the order they were said."""
    if not snapshots:
        return [], []
    forest = grow_forest(snapshots, cfg, places)
    return forest.nodes, forest.trajectories


def grow_forest(
    snapshots: list[Snapshot],
    cfg: AttachConfig,
    places: dict[str, WindowPlace] | None = None,
) -> Forest:
    """`build_forest`'s forest itself, to keep attaching to (an online add's live turns)."""
    ordered = (
        list(snapshots)
        if places
        else sorted(snapshots, key=lambda s: (s.timestamp, s.session_id, s.snapshot_id))
    )
    forest = Forest(ordered[0].user_id, cfg, term_idf(ordered), vector_center(ordered))
    for sigma in ordered:
        forest.attach(sigma, places.get(sigma.snapshot_id) if places else None)
    return forest
