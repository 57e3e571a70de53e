"""The forest as paged SVG drawings: x = time order, y = one lane per trajectory.

A user's snapshots are cut into windows of `forest_page_nodes` (in attach order, which is
time order), so each page's SVG stays small however long the history. Within a window,
each trajectory seen there gets a lane (ordered by first appearance) and a colour. Edges:
`continue` (same trajectory, same session), `resume` (same trajectory, picked up again in
a later session), `fork` (a new trajectory branching off another one's node). Edges whose
parent sits on an earlier page are drawn as a stub from the left edge, linking there.

x is the time *order*, not a linear time scale: all turns of a LoCoMo session share one
timestamp, so a linear scale would stack a session's snapshots on one point. Date labels
mark where the day changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from arborwiki.core.records import ForestNode
from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.core.viewer.names import colour_for, safe_name
from arborwiki.core.viewer.options import ViewerOptions

EdgeKind = Literal["continue", "resume", "fork"]
TOP_PX = 54  # room for the date axis labels above the first lane
RIGHT_PX = 24
RADIUS_PX = 6
NODE_SPACING_PX = 22  # horizontal distance between snapshots
LANE_HEIGHT_PX = 22  # vertical distance between trajectories
LANE_LABEL_PX = 190  # width of the trajectory titles column
DATE_LABEL_PX = 72  # minimum distance between two date labels on the time axis
LABEL_CHARS = 26  # trajectory title characters in the SVG


@dataclass(frozen=True)
class NodeView:
    snapshot_id: str
    file: str
    x: float
    y: float
    colour: str
    kind: str  # root | continue | resume | fork
    title: str


@dataclass(frozen=True)
class EdgeView:
    kind: EdgeKind
    path: str
    colour: str
    from_page: int | None = None  # the page holding the parent, when it is not this one


@dataclass(frozen=True)
class LaneView:
    trajectory_id: str
    file: str
    title: str
    label: str
    colour: str
    y: float


@dataclass(frozen=True)
class TickView:
    x: float
    label: str


@dataclass
class ForestPage:
    number: int  # 1-based
    file: str
    first: str  # date of the first snapshot
    last: str
    width: int
    height: int
    nodes: list[NodeView] = field(default_factory=list)
    edges: list[EdgeView] = field(default_factory=list)
    lanes: list[LaneView] = field(default_factory=list)
    ticks: list[TickView] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def forest_file(number: int) -> str:
    return f"forest/page-{number}.html"


def windows(nodes: list[ForestNode], per_page: int) -> list[list[ForestNode]]:
    """Balanced consecutive windows of at most `per_page` nodes (111 → 56 + 55, not 80 + 31)."""
    if not nodes:
        return []
    count = math.ceil(len(nodes) / per_page)
    size = math.ceil(len(nodes) / count)
    return [nodes[i : i + size] for i in range(0, len(nodes), size)]


def edge_kind(node: ForestNode, parent: ForestNode, inputs: SiteInputs) -> EdgeKind:
    if parent.trajectory_id != node.trajectory_id:
        return "fork"
    here = inputs.snapshot_by_id.get(node.snapshot_id)
    there = inputs.snapshot_by_id.get(parent.snapshot_id)
    same = here is not None and there is not None and here.session_id == there.session_id
    return "continue" if same else "resume"


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def layout_forest(inputs: SiteInputs, cfg: ViewerOptions) -> list[ForestPage]:
    ordered = inputs.ordered_nodes
    by_id = {n.node_id: n for n in ordered}
    chunks = windows(ordered, cfg.forest_page_nodes)
    page_of = {n.node_id: i + 1 for i, chunk in enumerate(chunks) for n in chunk}
    return [_page(i + 1, chunk, by_id, page_of, inputs) for i, chunk in enumerate(chunks)]


def _page(
    number: int,
    chunk: list[ForestNode],
    by_id: dict[str, ForestNode],
    page_of: dict[str, int],
    inputs: SiteInputs,
) -> ForestPage:
    lanes: dict[str, int] = {}
    for n in chunk:
        lanes.setdefault(n.trajectory_id, len(lanes))
    left = LANE_LABEL_PX + NODE_SPACING_PX
    x_of = {n.node_id: left + i * NODE_SPACING_PX for i, n in enumerate(chunk)}

    lane_y = {tid: TOP_PX + lane * LANE_HEIGHT_PX for tid, lane in lanes.items()}
    day = [_day(inputs, n) for n in chunk]
    page = ForestPage(
        number=number,
        file=forest_file(number),
        first=day[0],
        last=day[-1],
        width=int(left + (len(chunk) - 1) * NODE_SPACING_PX + RIGHT_PX),
        height=int(TOP_PX + max(len(lanes) - 1, 0) * LANE_HEIGHT_PX + LANE_HEIGHT_PX),
    )
    for tid, lane in lanes.items():
        traj = inputs.trajectory_by_id.get(tid)
        title = traj.title if traj else tid
        page.lanes.append(
            LaneView(
                tid,
                f"trajectories/{safe_name(tid)}.html",
                title,
                _short(title, LABEL_CHARS),
                colour_for(tid),
                TOP_PX + lane * LANE_HEIGHT_PX,
            )
        )
    last_label = -math.inf
    for i, n in enumerate(chunk):
        if i == 0 or day[i] != day[i - 1]:
            x = x_of[n.node_id]
            label = day[i] if x - last_label >= DATE_LABEL_PX else ""
            last_label = x if label else last_label
            page.ticks.append(TickView(x, label))
    counts = {"root": 0, "continue": 0, "resume": 0, "fork": 0}
    for n in chunk:
        x, yy, colour = x_of[n.node_id], lane_y[n.trajectory_id], colour_for(n.trajectory_id)
        parent = by_id.get(n.parent_id or "")
        kind: EdgeKind | Literal["root"] = "root"
        if parent is not None:
            edge = _edge(n, parent, edge_kind(n, parent, inputs), x_of, lane_y, page_of)
            page.edges.append(edge)
            kind = edge.kind
        counts[kind] += 1
        page.nodes.append(
            NodeView(
                n.snapshot_id,
                f"snapshots/{safe_name(n.snapshot_id)}.html",
                x,
                yy,
                colour,
                kind,
                f"{_day(inputs, n)} · {kind} · {_short(n.node_summary, 160)}",
            )
        )
    page.counts = counts
    return page


def _edge(
    node: ForestNode,
    parent: ForestNode,
    kind: EdgeKind,
    x_of: dict[str, float],
    lane_y: dict[str, float],
    page_of: dict[str, int],
) -> EdgeView:
    """A straight line along a lane, a curve between lanes (a fork), or a stub from the
    left edge, linking to the earlier page that holds the parent."""
    x2, y2 = x_of[node.node_id], lane_y[node.trajectory_id]
    colour = colour_for(node.trajectory_id)
    if parent.node_id not in x_of:
        x1 = LANE_LABEL_PX + 4
        return EdgeView(
            kind, f"M{x1:.0f},{y2:.0f} L{x2:.0f},{y2:.0f}", colour, page_of[parent.node_id]
        )
    x1, y1 = x_of[parent.node_id], lane_y[parent.trajectory_id]
    if y1 == y2:
        return EdgeView(kind, f"M{x1:.0f},{y1:.0f} L{x2:.0f},{y2:.0f}", colour)
    mid = (x1 + x2) / 2
    path = f"M{x1:.0f},{y1:.0f} C{mid:.0f},{y1:.0f} {mid:.0f},{y2:.0f} {x2:.0f},{y2:.0f}"
    return EdgeView(kind, path, colour)


def _day(inputs: SiteInputs, node: ForestNode) -> str:
    snap = inputs.snapshot_by_id.get(node.snapshot_id)
    return snap.timestamp.date().isoformat() if snap else ""
