"""The viewer's read side on a real Lance store: user-scoped reads, and the /ui cache
re-rendering when a table gets a new version."""

from __future__ import annotations

from pathlib import Path

from arborwiki.core.records import Record
from arborwiki.core.viewer import SiteInputs
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.reader import LanceMemoryReader
from arborwiki.storage.site import SiteCache, read_site_inputs
from arborwiki.storage.tables import record_row, rows_to_table
from tests.core.viewer_fixtures import site_inputs

DIM = 4
OTHER = "x' OR '1'='1"  # a second user whose id is hostile SQL


def other_user(inputs: SiteInputs) -> SiteInputs:
    """Pages and messages of a second user (tables are keyed by id: new page ids)."""
    pages = [
        p.model_copy(update={"user_id": OTHER, "page_id": f"other-{p.page_id}"})
        for p in inputs.pages
    ]
    messages = [m.model_copy(update={"user_id": OTHER}) for m in inputs.messages]
    return SiteInputs(OTHER, pages, [], [], [], [], messages)


def write(store: LanceStore, inputs: SiteInputs) -> None:
    def table(name: str, records: list[Record], **extra: object) -> None:
        rows = [{**record_row(r), **extra} for r in records]
        store.upsert(name, rows_to_table(name, rows, DIM), DIM)

    table("wiki_pages", inputs.pages, vector=[0.0] * DIM)
    table("snapshots", inputs.snapshots, vector=[0.0] * DIM)
    table("forest_nodes", inputs.nodes)
    table("trajectories", inputs.trajectories)
    table("claims", inputs.claims)
    rows = [
        {**record_row(m), "row_id": f"{m.user_id}/{m.message_id}", "search_text": m.text,
         "snapshot_id": None, "trajectory_id": None, "vector": [0.0] * DIM}
        for m in inputs.messages
    ]  # fmt: skip
    store.upsert("messages", rows_to_table("messages", rows, DIM), DIM)


def test_reads_are_user_scoped_and_the_cache_follows_new_versions(tmp_path: Path) -> None:
    store = LanceStore(tmp_path)
    mine = site_inputs()
    write(store, mine)
    write(store, other_user(mine))
    reader = LanceMemoryReader(store)
    read = read_site_inputs(reader, "u1")
    assert {p.page_id for p in read.pages} == {p.page_id for p in mine.pages}
    assert len(read.snapshots) == 5 and len(read.messages) == 10 and len(read.claims) == 5
    assert {r.user_id for r in [*read.pages, *read.messages, *read.claims]} == {"u1"}
    assert len(read_site_inputs(reader, OTHER).messages) == 10
    assert read_site_inputs(reader, "nobody").snapshots == []

    cache = SiteCache(reader)
    kind, home = cache.page("u1", "index.html") or ("", "")
    assert kind.startswith("text/html") and "Memory of u1" in home
    assert cache.page("u1", "style.css")[0].startswith("text/css")  # type: ignore[index]
    assert cache.page(OTHER, "index.html") is not None
    assert cache.page("nobody", "index.html") is None
    assert cache.page("u1", "../index.html") is None and cache.page("u1", "/etc/passwd") is None

    renamed = mine.pages[1].model_copy(update={"markdown": "# Alice\n\nnow in Lisbon\n"})
    write(store, SiteInputs("u1", [renamed], [], [], [], [], []))
    _, page = cache.page("u1", "wiki/entity-alice.html") or ("", "")
    assert "now in Lisbon" in page  # a new table version → the site is rendered again
