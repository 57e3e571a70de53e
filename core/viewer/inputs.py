"""What the viewer renders: one user's stored records, and look-ups between them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from arborwiki.core.records import Claim, ForestNode, Message, Snapshot, Trajectory, WikiPage


@dataclass
class SiteInputs:
    user_id: str
    pages: list[WikiPage]
    snapshots: list[Snapshot]
    nodes: list[ForestNode]
    trajectories: list[Trajectory]
    claims: list[Claim]
    messages: list[Message] = field(default_factory=list)

    @cached_property
    def snapshot_by_id(self) -> dict[str, Snapshot]:
        return {s.snapshot_id: s for s in self.snapshots}

    @cached_property
    def node_by_snapshot(self) -> dict[str, ForestNode]:
        return {n.snapshot_id: n for n in self.nodes}

    @cached_property
    def trajectory_by_id(self) -> dict[str, Trajectory]:
        return {t.trajectory_id: t for t in self.trajectories}

    @cached_property
    def claim_by_id(self) -> dict[str, Claim]:
        return {c.claim_id: c for c in self.claims}

    @cached_property
    def message_by_id(self) -> dict[str, Message]:
        return {m.message_id: m for m in self.messages}

    @cached_property
    def snapshot_of_message(self) -> dict[str, str]:
        """Message id → the (first) snapshot that holds it: where a citation links to."""
        found: dict[str, str] = {}
        for s in sorted(self.snapshots, key=lambda s: (s.timestamp, s.snapshot_id)):
            for m in s.message_ids:
                found.setdefault(m, s.snapshot_id)
        return found

    @cached_property
    def ordered_nodes(self) -> list[ForestNode]:
        return sorted(self.nodes, key=lambda n: (n.seq, n.node_id))

    def claims_of_snapshot(self, snapshot_id: str) -> list[Claim]:
        return self._claims_by_snapshot.get(snapshot_id, [])

    @cached_property
    def _claims_by_snapshot(self) -> dict[str, list[Claim]]:
        out: dict[str, list[Claim]] = {}
        for c in self.claims:
            out.setdefault(c.snapshot_id, []).append(c)
        return out
