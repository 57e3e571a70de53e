"""A thread on the query side: every trajectory of one tree of the forest.

The build gives each episode its own trajectory and puts a topic resumed on a later day in
the same tree (core/episodes.py, core/forest/forest.py), so one session's trajectory is
one visit to a thread. Where the query reads "the selected trajectories" as a thread's
context (the hits searched inside them, the turns that join a hit) it reads the whole
tree: LoCoMo dev and the long dev set lost 1.4 points at 8K (long) when only the selected
visits counted (benchmarks/results/threads.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from arborwiki.core.records import Trajectory


def thread_members(trajectories: Sequence[Trajectory], ids: Sequence[str]) -> list[str]:
    """`ids`, then every other trajectory of their trees (in id order); a tree is the
    trajectories linked by `forked_from`."""
    parent = {t.trajectory_id: t.forked_from for t in trajectories}

    def root(tid: str) -> str:
        seen = {tid}
        while (up := parent.get(tid)) and up not in seen:
            seen.add(up)
            tid = up
        return tid

    wanted = {root(t) for t in ids}
    rest = sorted(t for t in parent if root(t) in wanted)
    return list(dict.fromkeys([*ids, *rest]))
