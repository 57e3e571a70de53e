"""Threads: a tree of the forest read as one record (every visit to a task or topic).

A trajectory is one visit (core/episodes.py); the wiki writes a page per thread, not per
visit: on synthetic users with a thread revisited in 25 sessions a user had 41 visits for
4 threads, and entity subpages, topic pages and title phrases, computed per trajectory,
made the wiki 4× the cost of the rest of the compile (benchmarks/results/threads.md).
A thread record keeps its root visit's id, holds every visit's snapshots, and is titled
over all of them; `members` maps it back to the visits a page links in the store.
"""

from __future__ import annotations

from collections import defaultdict

from arborwiki.core.config import AttachConfig
from arborwiki.core.forest.scoring import term_idf
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.forest.summaries import trajectory_record, trajectory_title
from arborwiki.core.records import Claim, EvidenceItem, ForestNode, Snapshot, Trajectory


def thread_of(trajectories: list[Trajectory]) -> dict[str, str]:
    """Trajectory id → the id of the first visit of its tree (via `forked_from`)."""
    parent = {t.trajectory_id: t.forked_from for t in trajectories}
    out: dict[str, str] = {}
    for tid in parent:
        root, seen = tid, {tid}
        while (up := parent.get(root)) and up not in seen:
            seen.add(up)
            root = up
        out[tid] = root
    return out


def thread_records(
    snapshots: list[Snapshot],
    nodes: list[ForestNode],
    trajectories: list[Trajectory],
    cfg: AttachConfig,
) -> tuple[list[Trajectory], dict[str, list[str]]]:
    """One record per thread (its snapshots in forest order) and thread id → visit ids."""
    root = thread_of(trajectories)
    by_id = {s.snapshot_id: s for s in snapshots}
    idf = term_idf(snapshots)
    states: dict[str, TrajectoryState] = {}
    members: dict[str, list[str]] = defaultdict(list)
    for node in sorted(nodes, key=lambda n: n.seq):
        thread = root.get(node.trajectory_id, node.trajectory_id)
        state = states.setdefault(thread, TrajectoryState(thread))
        state.add(by_id[node.snapshot_id], node.node_id, node.topic_key)
        if node.trajectory_id not in members[thread]:
            members[thread].append(node.trajectory_id)
    user = trajectories[0].user_id if trajectories else ""
    records = [
        trajectory_record(user, state, trajectory_title(state, idf, cfg))
        for state in states.values()
    ]
    return records, dict(members)


def on_threads(
    claims: list[Claim], evidence: list[EvidenceItem], members: dict[str, list[str]]
) -> tuple[list[Claim], list[EvidenceItem]]:
    """Claims and evidence items re-stamped with their thread's id (for the wiki's joins)."""
    thread = {visit: t for t, visits in members.items() for visit in visits}
    claims = [
        c.model_copy(update={"trajectory_id": thread[c.trajectory_id]})
        if c.trajectory_id in thread
        else c
        for c in claims
    ]
    evidence = [
        e.model_copy(update={"trajectory_id": thread[e.trajectory_id]})
        if e.trajectory_id in thread
        else e
        for e in evidence
    ]
    return claims, evidence
