"""A user with thousands of snapshots gets many small forest pages, not one huge SVG."""

from __future__ import annotations

import math
from datetime import timedelta

from arborwiki.core.records import ForestNode, Snapshot, Trajectory
from arborwiki.core.viewer import SiteInputs, ViewerOptions, render_site
from tests.core.viewer_fixtures import T0, USER

SNAPSHOTS = 3000
THREADS = 150
MAX_FOREST_PAGE_BYTES = 120_000  # a page of 80 nodes is ~40 KB; one SVG of all would be ~1.5 MB


def big_user() -> SiteInputs:
    """Snapshot i belongs to thread i % THREADS and continues that thread's previous one."""
    snapshots, nodes = [], []
    last: dict[int, str] = {}
    for i in range(SNAPSHOTS):
        thread, sid = i % THREADS, f"s{i}"
        snapshots.append(
            Snapshot(snapshot_id=sid, user_id=USER, conversation_id="c", session_id=f"d{i // 40}",
                     message_ids=[f"m{i}"], timestamp=T0 + timedelta(hours=i), summary=f"s {i}",
                     keywords=[], entities=[], terms=[], facets={}, extractor="hand")
        )  # fmt: skip
        parent = last.get(thread)
        nodes.append(
            ForestNode(node_id=f"n{sid}", user_id=USER, snapshot_id=sid,
                       trajectory_id=f"t{thread}", parent_id=f"n{parent}" if parent else None,
                       root_id="n", depth=0, seq=i, node_summary=f"node {i}", path_summary="",
                       topic_key="")
        )  # fmt: skip
        last[thread] = sid
    trajectories = [
        Trajectory(trajectory_id=f"t{k}", user_id=USER, snapshot_ids=[], title=f"thread {k}",
                   summary="", keywords=[], entities=[], facet_keys=[], first_time=T0,
                   last_time=T0)
        for k in range(THREADS)
    ]  # fmt: skip
    return SiteInputs(USER, [], snapshots, nodes, trajectories, [])


def test_thousands_of_snapshots_page_the_forest() -> None:
    files = render_site(big_user(), ViewerOptions())
    forest = {n: t for n, t in files.items() if n.startswith("forest/page-")}
    assert len(forest) == math.ceil(SNAPSHOTS / 80) == 38
    assert sum(t.count('class="node ') for t in forest.values()) == SNAPSHOTS
    assert max(len(t.encode()) for t in forest.values()) < MAX_FOREST_PAGE_BYTES
    # pages hold 79 nodes (3000 / 38, balanced); on page 2 (s79..s157) only s150..s157 have
    # a parent (150 snapshots back) and it sits on page 1: 8 stubs link back there
    assert forest["forest/page-2.html"].count('<a href="page-1.html"><path') == 8
    assert sum(1 for n in files if n.startswith("snapshots/")) == SNAPSHOTS
