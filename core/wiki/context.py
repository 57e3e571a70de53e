"""One user's inputs, indexed once so each page planner looks things up instead of scanning."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from arborwiki.core.records import Claim, EvidenceItem, Snapshot, Trajectory

EmbedFn = Callable[[list[str]], np.ndarray]


def trajectory_order(t: Trajectory) -> tuple[object, str]:
    """Time order, then id: every list of trajectories in the wiki is sorted this way."""
    return (t.first_time, t.trajectory_id)


@dataclass
class WikiInputs:
    """Snapshots, trajectories, claims and evidence of one user, with the joins between them."""

    snapshots: dict[str, Snapshot]
    trajectories: dict[str, Trajectory]
    claims: dict[str, Claim]
    evidence: list[EvidenceItem]
    trajectories_of_snapshot: dict[str, list[str]] = field(default_factory=dict)
    claims_of_snapshot: dict[str, list[str]] = field(default_factory=dict)
    claims_of_trajectory: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        snapshots: list[Snapshot],
        trajectories: list[Trajectory],
        claims: list[Claim],
        evidence: list[EvidenceItem],
    ) -> WikiInputs:
        ordered = sorted(trajectories, key=trajectory_order)
        by_snapshot: dict[str, list[str]] = defaultdict(list)
        for t in ordered:
            for sid in t.snapshot_ids:
                if t.trajectory_id not in by_snapshot[sid]:
                    by_snapshot[sid].append(t.trajectory_id)
        all_claims = {c.claim_id: c for s in snapshots for c in s.claims}
        all_claims.update({c.claim_id: c for c in claims})  # lifecycle state wins
        of_snapshot: dict[str, list[str]] = defaultdict(list)
        of_trajectory: dict[str, list[str]] = defaultdict(list)
        for cid, c in all_claims.items():
            of_snapshot[c.snapshot_id].append(cid)
            of_trajectory[c.trajectory_id].append(cid)
        return cls(
            snapshots={s.snapshot_id: s for s in snapshots},
            trajectories={t.trajectory_id: t for t in ordered},
            claims=dict(sorted(all_claims.items(), key=lambda kv: (kv[1].recorded_at, kv[0]))),
            evidence=sorted(evidence, key=lambda e: (e.recorded_at, e.evidence_id)),
            trajectories_of_snapshot=dict(by_snapshot),
            claims_of_snapshot=dict(of_snapshot),
            claims_of_trajectory=dict(of_trajectory),
        )

    @cached_property
    def people(self) -> frozenset[str]:
        """The words of every person the user's snapshots name ("my partner Ciarán")."""
        people = (p for s in self.snapshots.values() for p in s.facets.get("person", []))
        return frozenset(w for p in people for w in p.split())

    def claim_trajectories(self, claim: Claim) -> list[str]:
        """The trajectory the lifecycle stamped, else every branch holding its snapshot."""
        if claim.trajectory_id and claim.trajectory_id in self.trajectories:
            return [claim.trajectory_id]
        return self.trajectories_of_snapshot.get(claim.snapshot_id, [])

    def in_time_order(self, trajectory_ids: set[str] | list[str]) -> list[Trajectory]:
        wanted = set(trajectory_ids)
        return [t for tid, t in self.trajectories.items() if tid in wanted]

    def claims_in(self, trajectory_ids: set[str] | list[str]) -> list[Claim]:
        """Claims of these trajectories, in claim order (looked up via the snapshots)."""
        wanted = set(trajectory_ids)
        candidates = {
            cid
            for tid in wanted
            for sid in self.trajectories[tid].snapshot_ids
            for cid in self.claims_of_snapshot.get(sid, [])
        } | {cid for tid in wanted for cid in self.claims_of_trajectory.get(tid, [])}
        return [
            c
            for cid, c in self.claims.items()
            if cid in candidates and wanted & set(self.claim_trajectories(c))
        ]

    def successor(self, claim: Claim) -> Claim | None:
        return self.claims.get(claim.superseded_by) if claim.superseded_by else None


def summary_matrix(trajectories: list[Trajectory], embed_fn: EmbedFn) -> np.ndarray:
    """Rows of e_T^sum; a trajectory without one is embedded from its title and summary."""
    missing = [t for t in trajectories if not t.summary_vector]
    fresh: dict[str, np.ndarray] = {}
    if missing:
        rows = embed_fn([f"{t.title}\n{t.summary}" for t in missing])
        fresh = {t.trajectory_id: np.asarray(r) for t, r in zip(missing, rows, strict=True)}
    return np.vstack(
        [
            np.asarray(t.summary_vector, dtype=np.float64)
            if t.summary_vector
            else fresh[t.trajectory_id].astype(np.float64)
            for t in trajectories
        ]
    )
