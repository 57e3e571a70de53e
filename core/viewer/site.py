"""render_site: one user's records → {relative path: file text}, via Jinja2 templates.

Every page links with relative paths, so the folder opens from disk (file://) and is
served unchanged under /ui/USER/ by `arborwiki serve`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from arborwiki.core.records import Claim, ForestNode, Snapshot, WikiPage
from arborwiki.core.viewer.forest import LANE_LABEL_PX, layout_forest
from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.core.viewer.names import colour_for, safe_name
from arborwiki.core.viewer.options import ViewerOptions
from arborwiki.core.viewer.search import SEARCH_RESULTS, inline_json, search_entries
from arborwiki.core.viewer.timeline import build_timelines, timeline_file
from arborwiki.core.viewer.wiki import WikiLinker, markdown_renderer, render_wiki_html, wiki_file
from arborwiki.core.wiki.text import claim_day, normalize_phrase

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLE = "style.css"
SEARCH = "search.html"


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["safe_name"] = safe_name
    env.filters["colour"] = colour_for
    env.filters["day"] = claim_day
    return env


def snapshot_file(snapshot_id: str) -> str:
    return f"snapshots/{safe_name(snapshot_id)}.html"


def trajectory_file(trajectory_id: str) -> str:
    return f"trajectories/{safe_name(trajectory_id)}.html"


@dataclass(frozen=True)
class ClaimRow:
    claim: Claim
    day: str
    anchor: str
    subject_file: str
    supersedes: str  # href of the claim this one replaced, "" if none
    superseded_by: str


class SiteBuilder:
    """Holds the look-ups every page needs; `render` returns all files."""

    def __init__(self, inputs: SiteInputs, cfg: ViewerOptions) -> None:
        self.inputs, self.cfg = inputs, cfg
        self.env = environment()
        self.files: dict[str, str] = {}
        self.forest = layout_forest(inputs, cfg)
        self.page_of_snapshot = {n.snapshot_id: p.file for p in self.forest for n in p.nodes}
        self.index_page = next((p for p in inputs.pages if p.kind == "index"), None)
        self.children: dict[str, list[ForestNode]] = {}
        for n in inputs.ordered_nodes:
            if n.parent_id:
                self.children.setdefault(n.parent_id, []).append(n)
        self.node_by_id = {n.node_id: n for n in inputs.nodes}

    def _emit(self, path: str, template: str, **context: Any) -> None:
        depth = path.count("/")
        root = "../" * depth
        wiki_home = wiki_file(self.index_page) if self.index_page else ""
        self.files[path] = self.env.get_template(template).render(
            root=root,
            user_id=self.inputs.user_id,
            wiki_home=wiki_home,
            style=STYLE,
            search=SEARCH,
            **context,
        )

    def render(self) -> dict[str, str]:
        self.files[STYLE] = (TEMPLATES / STYLE).read_text(encoding="utf-8")
        timelines = build_timelines(self.inputs)
        self._emit(
            "index.html",
            "home.html",
            counts={
                "wiki pages": len(self.inputs.pages),
                "snapshots": len(self.inputs.snapshots),
                "trajectories": len(self.inputs.trajectories),
                "claims": len(self.inputs.claims),
                "changed beliefs": sum(len(t.changes) for t in timelines),
                "forest pages": len(self.forest),
            },
        )
        self._wiki()
        self._forest()
        for snapshot in self.inputs.snapshots:
            self._snapshot(snapshot)
        self._trajectories()
        self._emit("timeline/index.html", "timeline_index.html", timelines=timelines)
        for t in timelines:
            self._emit(t.file, "timeline.html", timeline=t)
        entries = search_entries(self.inputs)
        self._emit(SEARCH, "search.html", index_json=inline_json(entries), limit=SEARCH_RESULTS)
        return self.files

    def _wiki(self) -> None:
        md = markdown_renderer()
        linker = WikiLinker(
            self.inputs.snapshot_of_message, [t.trajectory_id for t in self.inputs.trajectories]
        )
        for page in self.inputs.pages:
            self._emit(
                wiki_file(page),
                "wiki.html",
                page=page,
                body=render_wiki_html(page, md, linker),
                trajectories=[
                    self.inputs.trajectory_by_id[t]
                    for t in page.trajectory_ids
                    if t in self.inputs.trajectory_by_id
                ],
            )

    def _forest(self) -> None:
        self._emit(
            "forest/index.html",
            "forest_index.html",
            pages=self.forest,
            trajectories=sorted(self.inputs.trajectories, key=lambda t: (t.first_time, t.title)),
            page_of_snapshot=self.page_of_snapshot,
        )
        for page in self.forest:
            self._emit(
                page.file,
                "forest.html",
                page=page,
                count=len(self.forest),
                lane_label_px=LANE_LABEL_PX,
            )

    def _claim_row(self, claim: Claim) -> ClaimRow:
        def href(claim_id: str | None) -> str:
            other = self.inputs.claim_by_id.get(claim_id or "")
            if other is None:
                return ""
            return f"../{snapshot_file(other.snapshot_id)}#c-{safe_name(other.claim_id)}"

        return ClaimRow(
            claim,
            claim_day(claim),
            f"c-{safe_name(claim.claim_id)}",
            "../" + timeline_file(normalize_phrase(claim.subject) or "unnamed"),
            href(claim.supersedes),
            href(claim.superseded_by),
        )

    def _snapshot(self, snapshot: Snapshot) -> None:
        node = self.inputs.node_by_snapshot.get(snapshot.snapshot_id)
        parent = self.node_by_id.get(node.parent_id or "") if node else None
        messages = [
            self.inputs.message_by_id[m]
            for m in snapshot.message_ids
            if m in self.inputs.message_by_id
        ]
        claims = sorted(
            self.inputs.claims_of_snapshot(snapshot.snapshot_id),
            key=lambda c: (c.recorded_at, c.claim_id),
        )
        self._emit(
            snapshot_file(snapshot.snapshot_id),
            "snapshot.html",
            snapshot=snapshot,
            node=node,
            trajectory=self.inputs.trajectory_by_id.get(node.trajectory_id) if node else None,
            parent=parent,
            children=self.children.get(node.node_id, []) if node else [],
            forest_page=self.page_of_snapshot.get(snapshot.snapshot_id, ""),
            messages=messages,
            missing=[m for m in snapshot.message_ids if m not in self.inputs.message_by_id],
            claims=[self._claim_row(c) for c in claims],
            snapshot_file=snapshot_file,
            trajectory_file=trajectory_file,
        )

    def _trajectories(self) -> None:
        pages_of: dict[str, list[WikiPage]] = {}
        for page in self.inputs.pages:
            if page.kind != "index":
                for tid in page.trajectory_ids:
                    pages_of.setdefault(tid, []).append(page)
        nodes_of: dict[str, list[ForestNode]] = {}
        for n in self.inputs.ordered_nodes:
            nodes_of.setdefault(n.trajectory_id, []).append(n)
        for t in self.inputs.trajectories:
            nodes = nodes_of.get(t.trajectory_id, [])
            self._emit(
                trajectory_file(t.trajectory_id),
                "trajectory.html",
                trajectory=t,
                nodes=nodes,
                snapshots=self.inputs.snapshot_by_id,
                forked_from=(
                    trajectory_file(t.forked_from)
                    if t.forked_from in self.inputs.trajectory_by_id
                    else ""
                ),
                pages=[(p, wiki_file(p)) for p in pages_of.get(t.trajectory_id, [])],
                snapshot_file=snapshot_file,
                page_of_snapshot=self.page_of_snapshot,
            )


def render_site(inputs: SiteInputs, cfg: ViewerOptions | None = None) -> dict[str, str]:
    """All files of one user's site; an empty dict when the user has nothing stored."""
    if not (inputs.pages or inputs.snapshots):
        return {}
    return SiteBuilder(inputs, cfg or ViewerOptions()).render()
