"""Hand-built snapshots and claims for the forest/lifecycle tests (exact vectors)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from arborwiki.core.records import Claim, ForestNode, Snapshot, stable_id

DIM = 256
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def basis(i: int) -> list[float]:
    v = np.zeros(DIM)
    v[i] = 1.0
    return v.tolist()


def mix(*weights: tuple[int, float]) -> list[float]:
    """A unit vector from (axis, weight) pairs, e.g. mix((0, 1), (1, 1)) is 45° from both."""
    v = np.zeros(DIM)
    for axis, w in weights:
        v[axis] = w
    return (v / np.linalg.norm(v)).tolist()


def snap(
    sid: str,
    vector: list[float] | None = None,
    *,
    keywords: list[str] | None = None,
    entities: list[str] | None = None,
    terms: list[str] | None = None,
    facets: dict[str, list[str]] | None = None,
    session: str = "s1",
    minute: int = 0,
    summary: str = "",
    claims: list[tuple[str, str, str]] | None = None,
    negated: bool = False,
    change_cue: bool = False,
    user: str = "u1",
) -> Snapshot:
    when = T0 + timedelta(minutes=minute)
    return Snapshot(
        snapshot_id=sid,
        user_id=user,
        conversation_id="c1",
        session_id=session,
        message_ids=[f"{sid}-m0"],
        timestamp=when,
        summary=summary or f"summary of {sid}",
        keywords=keywords or [],
        entities=entities or [],
        terms=terms or [],
        facets=facets or {},
        claims=[
            claim(sid, i, s, a, v, when, negated=negated, change_cue=change_cue, user=user)
            for i, (s, a, v) in enumerate(claims or [])
        ],
        extractor="test",
        vector=vector if vector is not None else basis(0),
    )


def claim(
    sid: str,
    i: int,
    subject: str,
    attribute: str,
    value: str,
    when: datetime = T0,
    *,
    negated: bool = False,
    change_cue: bool = False,
    user: str = "u1",
) -> Claim:
    return Claim(
        claim_id=stable_id("claim", sid, i),
        user_id=user,
        snapshot_id=sid,
        text=f"{subject} {attribute} {value}",
        subject=subject,
        attribute=attribute,
        value=value,
        negated=negated,
        change_cue=change_cue,
        source_message_ids=[f"{sid}-m0"],
        recorded_at=when,
    )


def chain_nodes(snapshots: list[Snapshot], trajectory_id: str = "traj_a") -> list[ForestNode]:
    """One linear trajectory over `snapshots` in the given order."""
    nodes: list[ForestNode] = []
    for i, s in enumerate(snapshots):
        node_id = stable_id("node", s.snapshot_id)
        nodes.append(
            ForestNode(
                node_id=node_id,
                user_id=s.user_id,
                snapshot_id=s.snapshot_id,
                trajectory_id=trajectory_id,
                parent_id=nodes[-1].node_id if nodes else None,
                root_id=nodes[0].node_id if nodes else node_id,
                depth=i,
                seq=i,
                node_summary=s.summary,
                path_summary=s.summary,
                topic_key="",
            )
        )
    return nodes
