"""A hand-built user for the viewer tests: 5 snapshots in 3 sessions, one continuation,
one resumption, one fork, a REVISE and a DEPRECATE chain, and hostile text everywhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from arborwiki.core.records import Claim, ForestNode, Snapshot, Trajectory, WikiPage
from arborwiki.core.viewer import SiteInputs
from tests.builders import make_message

USER = "u1"
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
EVIL = "<script>alert('x')</script>"
# snapshot id, session, day offset, trajectory, parent snapshot (None: a root)
LAYOUT = [
    ("s1", "a", 0, "T1", None),
    ("s2", "a", 0, "T1", "s1"),  # continue: same trajectory, same session
    ("s3", "b", 1, "T2", None),  # a new root
    ("s4", "c", 2, "T1", "s2"),  # resume: T1 picked up again in a later session
    ("s5", "c", 2, "T3", "s1"),  # fork: a new trajectory off T1's interior node s1
]


def _claim(cid: str, sid: str, day: int, attribute: str, value: str, **kw: object) -> Claim:
    return Claim(
        claim_id=cid,
        user_id=USER,
        snapshot_id=sid,
        trajectory_id=next(t for s, _, _, t, _ in LAYOUT if s == sid),
        text=f"alice {attribute} {value}",
        subject="Alice",
        attribute=attribute,
        value=value,
        source_message_ids=[f"{sid}-m1"],
        recorded_at=T0 + timedelta(days=day),
        **kw,
    )


def claims() -> list[Claim]:
    return [
        _claim("c1", "s1", 0, "lives in", "Paris", status="revised", superseded_by="c3"),
        _claim("c2", "s2", 0, "likes", "jazz", status="deprecated", superseded_by="c4"),
        _claim("c3", "s4", 2, "lives in", "Berlin", op="REVISE", supersedes="c1"),
        _claim("c4", "s4", 2, "likes", "jazz", op="DEPRECATE", supersedes="c2", negated=True),
        _claim("c5", "s3", 1, "wrote", EVIL),
    ]


def site_inputs() -> SiteInputs:
    snapshots, nodes, messages = [], [], []
    for seq, (sid, session, day, _tid, _parent) in enumerate(LAYOUT):
        when = T0 + timedelta(days=day, minutes=seq)
        ids = [f"{sid}-m1", f"{sid}-m2"]
        snapshots.append(
            Snapshot(snapshot_id=sid, user_id=USER, conversation_id="conv", session_id=session,
                     message_ids=ids, timestamp=when, summary=f"summary {sid} {EVIL}",
                     keywords=[], entities=["Alice"], terms=[], facets={}, extractor="hand")
        )  # fmt: skip
        messages += [
            make_message(m, f"said {m} {EVIL}", user_id=USER, conversation_id="conv",
                         session_id=session, turn_index=i, speaker="Alice", timestamp=when)
            for i, m in enumerate(ids)
        ]  # fmt: skip
    for seq, (sid, _s, _d, tid, parent) in enumerate(LAYOUT):
        parent_node = f"n-{parent}" if parent else None
        nodes.append(
            ForestNode(node_id=f"n-{sid}", user_id=USER, snapshot_id=sid, trajectory_id=tid,
                       parent_id=parent_node, root_id="n-s1", depth=0, seq=seq,
                       node_summary=f"node {sid}", path_summary="", topic_key="")
        )  # fmt: skip
    trajectories = [
        Trajectory(trajectory_id=tid, user_id=USER, forked_from="T1" if tid == "T3" else None,
                   snapshot_ids=[s for s, _, _, t, _ in LAYOUT if t == tid], title=f"topic {tid}",
                   summary=EVIL, keywords=[], entities=[], facet_keys=[], first_time=T0,
                   last_time=T0)
        for tid in ("T1", "T2", "T3")
    ]  # fmt: skip
    entity_md = (
        "# Alice\n\n## Index\n- [Memory index](index-memory-index.md)\n\n## Core facts\n"
        f"- alice lives in: Berlin [s4-m1] [unknown-id]\n- {EVIL} [evil](javascript:alert(1))\n\n"
        "## Linked trajectories\n- T1 — topic T1\n"
    )
    pages = [
        WikiPage(page_id="p0", user_id=USER, kind="index", title="Memory index",
                 markdown="# Memory index\n\n## Entities\n- [Alice](entity-alice.md)\n",
                 trajectory_ids=[], links=["p1"]),
        WikiPage(page_id="p1", user_id=USER, kind="entity", title="Alice", markdown=entity_md,
                 trajectory_ids=["T1"], links=["p0"]),
    ]  # fmt: skip
    return SiteInputs(USER, pages, snapshots, nodes, trajectories, claims(), messages)
