"""The viewer's pure side: forest layout, timelines, Markdown, names, and a link check
over every rendered file (the browser test repeats it in Chromium on LoCoMo)."""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from arborwiki.core.viewer import SiteInputs, ViewerOptions, render_site
from arborwiki.core.viewer.forest import layout_forest, windows
from arborwiki.core.viewer.names import safe_name
from arborwiki.core.viewer.site import TEMPLATES
from arborwiki.core.viewer.timeline import build_timelines, chains_of
from tests.core.viewer_fixtures import EVIL, USER, site_inputs


class Links(HTMLParser):
    """hrefs and ids of one page, as the browser test collects them from the DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.nodes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("href") and tag in {"a", "link"}:
            self.hrefs.append(found["href"] or "")
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "circle" and "node" in (found.get("class") or "").split():
            self.nodes.append(found.get("data-snapshot-id") or "")


def parse(text: str) -> Links:
    links = Links()
    links.feed(text)
    return links


def test_windows_are_balanced() -> None:
    nodes = list(range(111))
    assert [len(w) for w in windows(nodes, 80)] == [56, 55]  # type: ignore[arg-type]
    assert [len(w) for w in windows(nodes[:80], 80)] == [80]  # type: ignore[arg-type]
    assert [len(w) for w in windows(nodes[:7], 3)] == [3, 3, 1]  # type: ignore[arg-type]
    assert windows([], 3) == []


def test_forest_layout_kinds_lanes_and_pages() -> None:
    pages = layout_forest(site_inputs(), ViewerOptions(forest_page_nodes=3))
    assert [[n.snapshot_id for n in p.nodes] for p in pages] == [["s1", "s2", "s3"], ["s4", "s5"]]
    assert [n.kind for p in pages for n in p.nodes] == [
        "root",
        "continue",
        "root",
        "resume",
        "fork",
    ]
    assert [lane.trajectory_id for lane in pages[0].lanes] == ["T1", "T2"]
    assert [lane.trajectory_id for lane in pages[1].lanes] == ["T1", "T3"]
    # page 2's parents are on page 1: both edges are stubs that link back there
    assert [(e.kind, e.from_page) for e in pages[1].edges] == [("resume", 1), ("fork", 1)]
    assert [(e.kind, e.from_page) for e in pages[0].edges] == [("continue", None)]
    assert pages[0].counts == {"root": 2, "continue": 1, "resume": 0, "fork": 0}
    one = layout_forest(site_inputs(), ViewerOptions())[0]
    fork = next(e for e in one.edges if e.kind == "fork")
    assert " C" in fork.path  # a curve from T1's lane to T3's
    y = {lane.trajectory_id: lane.y for lane in one.lanes}
    x = {n.snapshot_id: n.x for n in one.nodes}
    assert len(set(y.values())) == 3 and x["s1"] < x["s2"] < x["s3"] < x["s4"] < x["s5"]


def test_chains_follow_the_lifecycle() -> None:
    chains = {tuple(c.claim_id for c in chain) for chain in chains_of(site_inputs().claims)}
    assert chains == {("c1", "c3"), ("c2", "c4"), ("c5",)}
    (alice,) = build_timelines(site_inputs())
    assert alice.subject == "alice" and alice.file == "timeline/alice.html"
    assert [[v.claim.op for v in c.versions] for c in alice.changes] == [
        ["ADD", "REVISE"],
        ["ADD", "DEPRECATE"],
    ]
    assert alice.op_counts() == {"ADD": 3, "REVISE": 1, "DEPRECATE": 1}
    source = alice.changes[0].versions[1].sources[0]
    assert (source.message_id, source.anchor_file) == ("s4-m1", "../snapshots/s4.html#m-s4-m1")


@pytest.mark.parametrize("hostile", ["../../etc/passwd", "a/b", "..", ".", "", "x" * 300, "é b"])
def test_safe_names_never_escape(hostile: str) -> None:
    name = safe_name(hostile)
    assert "/" not in name and "\\" not in name and name not in {"", ".", ".."}
    assert not name.startswith(".") and len(name) <= 80 and name == safe_name(hostile)
    assert safe_name("D1:3") != safe_name("D1-3") and safe_name("snap_ab12") == "snap_ab12"


def resolve(page: str, href: str) -> tuple[str, str]:
    path, _, fragment = href.partition("#")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
    return target, fragment


def test_every_link_of_every_page_resolves() -> None:
    files = render_site(site_inputs(), ViewerOptions(forest_page_nodes=3))
    expected = {
        "index.html", "style.css", "search.html", "forest/index.html", "forest/page-1.html",
        "forest/page-2.html", "timeline/index.html", "timeline/alice.html",
        "wiki/index-memory-index.html", "wiki/entity-alice.html",
        *(f"snapshots/s{i}.html" for i in range(1, 6)),
        *(f"trajectories/T{i}.html" for i in range(1, 4)),
    }  # fmt: skip
    assert set(files) == expected
    parsed = {name: parse(text) for name, text in files.items() if name.endswith(".html")}
    reached = {"index.html"}
    for name, links in parsed.items():
        for href in links.hrefs:
            assert not re.match(r"[a-z]+:", href), (name, href)  # nothing external, no js:
            target, fragment = resolve(name, href)
            assert target in files, (name, href)
            assert not fragment or fragment in parsed[target].ids, (name, href)
            reached.add(target)
    assert reached == set(files)  # every page is reachable from the home page
    drawn = [n for name, links in parsed.items() if "forest/page" in name for n in links.nodes]
    assert sorted(drawn) == ["s1", "s2", "s3", "s4", "s5"]  # one node per snapshot


def test_citations_and_trajectory_ids_become_links() -> None:
    page = render_site(site_inputs())["wiki/entity-alice.html"]
    assert '<a href="../snapshots/s4.html#m-s4-m1">[s4-m1]</a>' in page
    assert "[unknown-id]" in page  # an id the store does not hold stays text
    assert '<a href="../trajectories/T1.html">T1</a>' in page
    assert '<a href="index-memory-index.html">Memory index</a>' in page


def test_hostile_text_stays_text() -> None:
    files = render_site(site_inputs())
    for name, text in files.items():
        assert "<script>alert" not in text, name
        assert 'href="javascript:' not in text, name  # markdown-it refuses the link
    index = files["search.html"].split('id="search-index">', 1)[1].split("</script>", 1)[0]
    rows = json.loads(index)
    assert ["claim", f"alice wrote {EVIL}"] in [r[:2] for r in rows]  # survives, escaped
    assert any(r[0] == "page" and r[1] == "Alice" for r in rows)


def test_timeline_lists_every_changed_claim() -> None:
    text = render_site(site_inputs())["timeline/alice.html"]
    changes = text.split("<h2>Changed beliefs</h2>", 1)[1].split("<h2>All beliefs", 1)[0]
    for cid in ("c1", "c2", "c3", "c4"):
        assert f'data-claim-id="{cid}"' in changes
    assert 'data-claim-id="c5"' not in changes
    assert "DEPRECATE" in changes and "REVISE" in changes and "not jazz" in changes


def test_user_without_memory_renders_nothing() -> None:
    assert render_site(SiteInputs(USER, [], [], [], [], [])) == {}


def test_every_template_ships_as_package_data() -> None:
    """The templates folder is data, not a package: pyproject must name its files."""
    repo = Path(__file__).resolve().parents[2]
    config = tomllib.loads((repo / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["arborwiki.core.viewer"]
    shipped = {p for pattern in patterns for p in (repo / "core" / "viewer").glob(pattern)}
    assert shipped == set(TEMPLATES.iterdir()) and len(shipped) >= 10
