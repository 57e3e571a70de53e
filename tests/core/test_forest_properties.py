"""Properties over random snapshot streams: partition, acyclicity, append-only, replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arborwiki.core.config import AttachConfig, LifecycleConfig
from arborwiki.core.forest import apply_lifecycle, build_forest
from arborwiki.core.records import Snapshot
from tests.core.forest_builders import mix, snap

WORDS = ["run", "race", "cat", "vet", "book", "club", "move", "house"]
FACTS = [("i", "lives in"), ("i", "likes"), ("cat", "takes"), ("club", "meets on")]
VALUES = ["denver", "austin", "tea", "pills", "tuesday"]

claim_spec = st.tuples(
    st.sampled_from(FACTS), st.sampled_from(VALUES), st.booleans(), st.booleans()
)
snapshot_spec = st.tuples(
    st.lists(st.integers(0, 3), min_size=1, max_size=3),  # vector axes
    st.lists(st.sampled_from(WORDS), max_size=3),
    st.integers(0, 3),  # session
    st.lists(claim_spec, max_size=2),
    st.booleans(),  # cue in summary
)
CONFIGS = st.sampled_from(
    [AttachConfig(), AttachConfig(judge_threshold=0.3, w_key=0.4, fork_margin=0.0)]
)


def stream(specs) -> list[Snapshot]:
    out = []
    for i, (axes, words, session, claims, cue) in enumerate(specs):
        s = snap(
            f"s{i:02d}",
            mix(*[(a, 1.0 + k) for k, a in enumerate(axes)]),
            keywords=words,
            entities=words[:1],
            session=f"sess{session}",
            minute=i,
            summary=("back to " if cue else "") + " ".join(words),
            claims=[(sub, att, val) for (sub, att), val, _, _ in claims],
        )
        for c, (_, _, negated, change) in zip(s.claims, claims, strict=True):
            c.negated, c.change_cue = negated, change
        out.append(s)
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(snapshot_spec, min_size=1, max_size=14), CONFIGS)
def test_forest_and_lifecycle_invariants(specs, cfg: AttachConfig) -> None:
    snaps = stream(specs)
    nodes, trajs = build_forest(snaps, cfg)
    by_id = {n.node_id: n for n in nodes}
    # every snapshot in exactly one trajectory, and one node each
    owned = [sid for t in trajs for sid in t.snapshot_ids]
    assert sorted(owned) == sorted(s.snapshot_id for s in snaps)
    assert sorted(n.snapshot_id for n in nodes) == sorted(owned)
    # acyclic: parents come earlier; roots are their own roots; depth = path length - 1
    for n in nodes:
        if n.parent_id is None:
            assert n.root_id == n.node_id and n.depth == 0
        else:
            parent = by_id[n.parent_id]
            assert parent.seq < n.seq and parent.root_id == n.root_id
            assert n.depth == parent.depth + 1
    forked = {t.trajectory_id: t.forked_from for t in trajs}
    for t in trajs:  # a trajectory is a chain; a fork starts below its parent trajectory
        members = [n for n in nodes if n.trajectory_id == t.trajectory_id]
        for prev, cur in zip(members, members[1:], strict=False):
            assert cur.parent_id == prev.node_id
        head_parent = members[0].parent_id
        assert (head_parent is None) == (forked[t.trajectory_id] is None)
        if head_parent is not None:
            assert by_id[head_parent].trajectory_id == forked[t.trajectory_id]
    # lifecycle: nothing deleted, every superseded claim points to an existing successor
    claims = apply_lifecycle(snaps, nodes, LifecycleConfig())
    ids = {c.claim_id: c for c in claims}
    assert sorted(ids) == sorted(c.claim_id for s in snaps for c in s.claims)
    order = {c.claim_id: i for i, c in enumerate(claims)}
    for c in claims:
        if c.status != "active":
            # its successor is later and changed something; a claim that ends a slot held
            # twice ("works as a nurse", "works at Mercy") ends both, naming the latest
            successor = ids[c.superseded_by or ""]
            assert order[successor.claim_id] > order[c.claim_id]
            assert successor.op in {"REVISE", "DEPRECATE"} and successor.supersedes is not None
            assert order[successor.supersedes] >= order[c.claim_id]
        if c.supersedes is not None:
            assert ids[c.supersedes].superseded_by == c.claim_id
    # replay: the same stream gives the same ids and decisions
    assert build_forest(stream(specs), cfg) == (nodes, trajs)
    assert apply_lifecycle(stream(specs), nodes, LifecycleConfig()) == claims
