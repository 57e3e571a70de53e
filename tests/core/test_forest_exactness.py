"""The indexed `Forest` decides exactly what the full scan decided (issue 12).

`tests/core/reference_forest.py` keeps the pre-index algorithm (every earlier node scanned,
g re-derived per pair). On generated users — real rule extraction and the bundled static
embedder, several configs so that forks, return cues and continuations all occur — every
`locate` (decision, score and the whole ranked candidate list, bit for bit) and every
attached node must be equal; so must the claim lifecycle (ops, statuses, links, and what
the judge is shown) on those forests and on random branchy ones.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arborwiki.core.config import AttachConfig, Config, LifecycleConfig
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import to_snapshot
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.forest import Forest, apply_lifecycle, build_forest, term_idf
from arborwiki.core.forest.lifecycle import Decision
from arborwiki.core.forest.scoring import vector_center
from arborwiki.core.pipeline import user_windows
from arborwiki.core.records import Claim, ForestNode, Snapshot, stable_id
from arborwiki.synthetic import generate_archive
from tests.core.forest_builders import basis, snap
from tests.core.reference_forest import ScanForest, scan_apply_lifecycle, scan_build_forest

CONFIGS = {
    "default": AttachConfig(),
    "forky": AttachConfig(w_key=0.4, fork_margin=0.02, judge_threshold=0.6),
    "uncentred": AttachConfig(center_vectors=False, w_topic=0.2, max_candidates=3),
}


def user_snapshots(seed: int, sessions: int, threads: int) -> list[Snapshot]:
    cfg = Config()
    messages = generate_archive(1, seed=seed, sessions=sessions, threads=threads)
    windows = user_windows(messages, cfg).windows
    drafts = RuleExtractor(cfg.extract).extract(windows)
    snapshots = [to_snapshot(w, d, "rules") for w, d in zip(windows, drafts, strict=True)]
    vectors = load_embedder().embed([s.summary for s in snapshots])
    for snapshot, vector in zip(snapshots, vectors, strict=True):
        snapshot.vector = vector.tolist()
    return sorted(snapshots, key=lambda s: (s.timestamp, s.session_id, s.snapshot_id))


@pytest.fixture(scope="module")
def users() -> list[list[Snapshot]]:
    return [user_snapshots(3, 30, 6), user_snapshots(4, 45, 4), user_snapshots(5, 12, 2)]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_locate_and_attach_equals_the_full_scan(users, name: str) -> None:
    cfg = CONFIGS[name]
    reasons: Counter[str] = Counter()
    for snapshots in users:
        idf, center = term_idf(snapshots), vector_center(snapshots)
        indexed = Forest("user-0001", cfg, idf, center)
        scanned = ScanForest("user-0001", cfg, idf, center)
        for sigma in snapshots:
            placed, expected = indexed.locate(sigma), scanned.locate(sigma)
            node = indexed.attach(sigma)
            assert node == scanned.attach(sigma), sigma.snapshot_id
            # read after the attach: the lazily ranked candidates are those of the locate call
            assert placed == expected, sigma.snapshot_id
            assert list(placed.candidates) == expected.candidates
            reasons[node.attach_reason] += 1
        assert indexed.trajectories == scanned.trajectories
    assert reasons["continuation"] and reasons["hybrid"], reasons
    if name == "default":
        assert reasons["new"] and (reasons["return"] or reasons["return:fork"]), reasons
    if name == "forky":
        assert any(r.endswith(":fork") for r in reasons), reasons


def test_build_forest_and_rebuilt_forest_agree_with_the_scan(users) -> None:
    cfg = AttachConfig()
    snapshots = users[0]
    nodes, trajectories = build_forest(snapshots, cfg)
    assert (nodes, trajectories) == scan_build_forest(snapshots, cfg)
    rebuilt = Forest.from_records("user-0001", cfg, snapshots, nodes, trajectories)
    probe = snapshots[len(snapshots) // 2].model_copy(update={"snapshot_id": "probe"})
    reference = ScanForest("user-0001", cfg, term_idf(snapshots), vector_center(snapshots))
    for node in nodes:
        reference.attach(next(s for s in snapshots if s.snapshot_id == node.snapshot_id))
    assert rebuilt.locate(probe) == reference.locate(probe)


class _Recorder:
    """A judge that records what it was shown and revises the second candidate when there is
    one, so the prefilter's order and size matter to the result."""

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def wants_candidates(self, claim: Claim) -> bool:
        return True  # so the prefilter's candidates are compared for every claim

    def decide(self, claim: Claim, candidates: list[Claim]) -> Decision:
        self.seen.append([c.claim_id for c in candidates])
        if len(candidates) > 1 and claim.change_cue:
            return Decision("REVISE", candidates[1].claim_id)
        return Decision("ADD")


def random_branchy_user(seed: int, n: int = 160) -> tuple[list[Snapshot], list[ForestNode]]:
    """Random tree (forks anywhere), random claims over few subjects/attributes/values."""
    rng = random.Random(seed)
    words = ["lives", "works at", "likes", "goal", "name", "runs", "owns", "reads"]
    snapshots, nodes = [], []
    for i in range(n):
        sid = f"s{i:03d}"
        claims = [
            (rng.choice(["i", "maya", "my dog"]), rng.choice(words), rng.choice("abcdef"))
            for _ in range(rng.randint(0, 3))
        ]
        sigma = snap(sid, basis(i % 7), minute=i, claims=claims, change_cue=rng.random() < 0.4)
        for c in sigma.claims:
            c.negated = rng.random() < 0.15
        parent = nodes[rng.randrange(len(nodes))] if nodes and rng.random() < 0.9 else None
        node_id = stable_id("node", sid)
        nodes.append(
            ForestNode(
                node_id=node_id,
                user_id="u1",
                snapshot_id=sid,
                trajectory_id=f"t{i}" if parent is None else parent.trajectory_id,
                parent_id=parent.node_id if parent else None,
                root_id=parent.root_id if parent else node_id,
                depth=parent.depth + 1 if parent else 0,
                seq=i,
                node_summary="",
                path_summary="",
                topic_key="",
            )
        )
        snapshots.append(sigma)
    return snapshots, nodes


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lifecycle_equals_the_scan_on_random_branchy_forests(seed: int) -> None:
    snapshots, nodes = random_branchy_user(seed)
    cfg = LifecycleConfig()
    mine, theirs = _Recorder(), _Recorder()
    got = apply_lifecycle(snapshots, nodes, cfg, mine)
    assert got == scan_apply_lifecycle(snapshots, nodes, cfg, theirs)
    assert mine.seen == theirs.seen
    ops = Counter(c.op for c in got)
    assert ops["REVISE"] and ops["DEPRECATE"] and ops["ADD"], ops
    assert apply_lifecycle(snapshots, nodes, cfg) == scan_apply_lifecycle(snapshots, nodes, cfg)


@pytest.mark.parametrize("name", ["default", "forky"])
def test_lifecycle_equals_the_scan_on_generated_users(users, name: str) -> None:
    for snapshots in users:
        nodes, _ = build_forest(snapshots, CONFIGS[name])
        cfg = LifecycleConfig()
        assert apply_lifecycle(snapshots, nodes, cfg) == scan_apply_lifecycle(snapshots, nodes, cfg)
