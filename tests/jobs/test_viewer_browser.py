"""The exported site in a real browser: headless Chromium on a LoCoMo dev user's site.

Builds one LoCoMo dev sample with the real build into a tmp store, exports it with the
real CLI, then crawls every page from file:// in one Chromium (DevTools protocol) and
checks the DOM: every page present and reachable, every link and #anchor resolves, the
forest SVGs hold one node per snapshot, the timelines list every changed or deprecated
claim. Screenshots of a forest page and a timeline are saved as test artifacts
($ARBORWIKI_TEST_ARTIFACTS, else the pytest tmp dir; the path is printed).
Skips, with the reason printed, only where chromium is not installed (`.ci/run` installs
Debian's `chromium`) or the LoCoMo dev file is absent.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from arborwiki.cluster.build import run_build
from arborwiki.core.config import load_config
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.reader import LanceMemoryReader
from tests.browser import FLAGS, Browser, chromium_path

USER = "conv-47"  # a dev user whose claims change (REVISE chains: tests/core/test_viewer.py)
PAGE_NODES = "50"  # 185 snapshots → 4 forest pages: paging and cross-page edges in play
COLLECT = """JSON.stringify({
  links: Array.from(document.querySelectorAll("a[href], link[href]"),
    a => new URL(a.getAttribute("href"), document.baseURI).href),
  sources: Array.from(document.querySelectorAll("[src]"), e => e.getAttribute("src")),
  ids: Array.from(document.querySelectorAll("[id]"), e => e.id),
  nodes: Array.from(document.querySelectorAll("svg.forest circle.node"),
    c => c.getAttribute("data-snapshot-id")),
  changes: Array.from(document.querySelectorAll("section.change [data-claim-id]"),
    e => e.getAttribute("data-claim-id")),
  title: document.title,
})"""


@pytest.fixture(scope="module")
def chromium() -> str:
    binary = chromium_path()
    if binary is None:
        reason = "chromium not installed here (.ci/run installs Debian's chromium with apt-get)"
        print(f"SKIPPED: {reason}")
        pytest.skip(reason)
    return binary


@pytest.fixture(scope="module")
def site(ray_local: None, locomo_dev: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    root = tmp_path_factory.mktemp("viewer")
    samples = [s for s in json.loads(locomo_dev.read_text()) if s["sample_id"] == USER]
    archive = root / f"{USER}.json"
    archive.write_text(json.dumps(samples))
    store = root / "store"
    run_build(str(archive), str(store), load_config(overrides=["ray.num_shards=1"]))
    out = root / "site"
    cli = [sys.executable, "-m", "arborwiki.jobs.cli", "export-html"]
    args = ["--store", str(store), "--user", USER, "--out", str(out), "--page-nodes", PAGE_NODES]
    done = subprocess.run(cli + args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return store, out


@pytest.fixture(scope="module")
def crawl(chromium: str, site: tuple) -> dict[Path, dict]:
    """Breadth-first from index.html over every file:// link, the DOM of each page."""
    _, out = site
    pages: dict[Path, dict] = {}
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        browser = Browser(chromium, Path(profile))
        try:
            queue = deque([(out / "index.html").resolve()])
            while queue:
                path = queue.popleft()
                if path in pages:
                    continue
                browser.goto(path.as_uri())
                pages[path] = json.loads(browser.evaluate(COLLECT))
                for link in pages[path]["links"]:
                    target = target_of(link)
                    if target and target.suffix == ".html" and target.exists():
                        queue.append(target)
        finally:
            browser.close()
    return pages


def target_of(url: str) -> Path | None:
    parts = urlsplit(url)
    return Path(unquote(parts.path)) if parts.scheme == "file" else None


def stored(store: Path) -> LanceMemoryReader:
    return LanceMemoryReader(LanceStore(store, create=False))


def test_every_page_is_present_and_every_link_resolves(site: tuple, crawl: dict) -> None:
    store, out = site
    on_disk = {p.resolve() for p in out.rglob("*.html")}
    assert set(crawl) == on_disk  # every page reachable from the home page
    reader = stored(store)
    folders = {
        "wiki": len(reader.pages(USER)),
        "snapshots": len(reader.all_snapshots(USER)),
        "trajectories": len(reader.all_trajectories(USER)),
    }
    for folder, count in folders.items():
        assert len([p for p in crawl if p.parent.name == folder]) == count > 0, folder
    for page, dom in crawl.items():
        assert dom["title"].endswith(f"{USER} · arborwiki"), page
        assert all(not s or "://" not in s for s in dom["sources"]), page  # nothing external
        for link in dom["links"]:
            target = target_of(link)
            assert target is not None, (page, link)  # no http(s), no javascript:
            assert target.exists(), (page, link)
            fragment = urlsplit(link).fragment
            if fragment and target.suffix == ".html":
                assert unquote(fragment) in crawl[target.resolve()]["ids"], (page, link)


def test_forest_svg_has_one_node_per_snapshot(site: tuple, crawl: dict) -> None:
    store, _ = site
    drawn = [n for page, dom in crawl.items() if page.parent.name == "forest" for n in dom["nodes"]]
    snapshots = [s.snapshot_id for s in stored(store).all_snapshots(USER)]
    assert sorted(drawn) == sorted(snapshots)
    forest_pages = [p for p in crawl if p.parent.name == "forest" and p.name != "index.html"]
    assert len(forest_pages) == math.ceil(len(snapshots) / int(PAGE_NODES)) > 1


def test_timelines_list_every_revised_claim(site: tuple, crawl: dict) -> None:
    store, _ = site
    claims = stored(store).all_claims(USER)
    changed = {c.claim_id for c in claims if c.status != "active" or c.op != "ADD"}
    assert any(c.op != "ADD" for c in claims)  # a timeline with something to list
    listed = {c for page, dom in crawl.items() if page.parent.name == "timeline"
              for c in dom["changes"]}  # fmt: skip
    assert listed == changed


def test_search_and_screenshots(
    chromium: str, site: tuple, crawl: dict, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    store, out = site
    changed = next(c for c in stored(store).all_claims(USER) if c.op != "ADD")
    artifacts = Path(os.environ.get("ARBORWIKI_TEST_ARTIFACTS") or tmp_path_factory.mktemp("art"))
    artifacts.mkdir(parents=True, exist_ok=True)
    timeline = max(
        (p for p in crawl if p.parent.name == "timeline" and p.name != "index.html"),
        key=lambda p: (len(crawl[p]["changes"]), p.name),
    )
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        browser = Browser(chromium, Path(profile))
        try:
            query = "+".join(changed.value.split()[:3])
            browser.goto((out / "search.html").resolve().as_uri() + f"?q={query}")
            hits = browser.evaluate(
                "Array.from(document.querySelectorAll('#results a'), a => a.getAttribute('href'))"
            )
            assert any(h.endswith(f"#c-{changed.claim_id}") for h in hits), hits
            browser.goto((out / "forest" / "page-1.html").resolve().as_uri())
            box = "document.querySelector('svg.forest').getBoundingClientRect()"
            width, bottom = browser.evaluate(f"[{box}.width, {box}.bottom]")
            size = (min(int(width) + 80, 1800), min(int(bottom) + 40, 1000))
            forest_png = browser.screenshot(artifacts / "viewer-forest.png", *size)
            browser.goto(timeline.as_uri())
            timeline_png = browser.screenshot(artifacts / "viewer-timeline.png", 1200, 900)
        finally:
            browser.close()
    for png in (forest_png, timeline_png):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    with capsys.disabled():
        print(f"\nviewer screenshots: {forest_png} {timeline_png}")


def test_plain_dump_dom_of_the_home_page(chromium: str, site: tuple) -> None:
    """The flags alone (no DevTools) print the rendered DOM: the site needs no server."""
    _, out = site
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        done = subprocess.run(
            [chromium, *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
             (out / "index.html").resolve().as_uri()],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert f"Memory of {USER}" in done.stdout and "forest/index.html" in done.stdout
