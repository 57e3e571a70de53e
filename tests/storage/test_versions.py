"""Runs as versions on real Lance tables in temp dirs: recorded versions, pinned readers,
rollback, retention and the incremental user_id index."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from arborwiki.core.records import BuildFailure, RunRecord
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import schema_for
from arborwiki.storage.versions import apply_retention, list_runs, rollback

DIM = 4


def _pages(user: str, titles: list[str]) -> pa.Table:
    rows = [
        {
            "page_id": f"{user}-{i}",
            "user_id": user,
            "kind": "entity",
            "title": title,
            "markdown": f"{user} wrote about {title}",
            "trajectory_ids": [],
            "links": [],
            "items": [],
            "part_index": 0,
            "part_count": 1,
            "vector": [1.0, 0.0, 0.0, 0.0],
        }
        for i, title in enumerate(titles)
    ]
    return pa.Table.from_pylist(rows, schema=schema_for("wiki_pages", DIM))


def _claims(user: str, values: list[str]) -> pa.Table:
    rows = [
        {"claim_id": f"{user}-c{i}", "user_id": user, "text": f"{user} likes {v}", "value": v}
        for i, v in enumerate(values)
    ]
    return pa.Table.from_pylist(rows, schema=schema_for("claims", DIM))


def _run(run_id: str, started: datetime | None = None) -> RunRecord:
    now = datetime.now(UTC)
    return RunRecord(run_id=run_id, started_at=started or now, finished_at=now, input=run_id,
                     fingerprint="")  # fmt: skip


def _commit(store: LanceStore, tmp: Path, run_id: str, tables: dict[str, pa.Table]) -> None:
    """What a build's driver does: staged Parquet → commit_run → the run's row."""
    staged: dict[str, list[Path]] = {}
    for name, table in tables.items():
        path = tmp / f"{run_id}-{name}.parquet"
        pq.write_table(table, path)
        staged[name] = [path]
    users = sorted({u for t in tables.values() for u in t.column("user_id").to_pylist()})
    now = datetime.now(UTC)
    store.commit_run(staged, users, DIM)
    store.record_run(_run(run_id, now))


def _titles(store: LanceStore, user: str) -> list[str]:
    return sorted(r["title"] for r in store.rows("wiki_pages", user))


def _values(store: LanceStore, user: str) -> list[str]:
    return sorted(r["value"] for r in store.rows("claims", user))


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, LanceStore]:
    store_dir = tmp_path / "store"
    writer = LanceStore(store_dir)
    _commit(writer, tmp_path, "run1", {"wiki_pages": _pages("ann", ["dogs"]),
                                       "claims": _claims("ann", ["tea"])})  # fmt: skip
    _commit(writer, tmp_path, "run2", {"wiki_pages": _pages("ann", ["cats", "owls"]),
                                       "claims": _claims("ann", ["coffee"])})  # fmt: skip
    return store_dir, writer


def test_every_run_records_the_version_of_every_table(two_runs) -> None:
    store_dir, writer = two_runs
    runs = list_runs(writer)
    assert [r.run_id for r in runs] == ["run1", "run2"]
    assert [r.current for r in runs] == [False, True]
    assert runs[-1].versions == writer.versions()  # what run 2 left behind, every table
    assert {"wiki_pages", "claims", "messages", "quarantine"} <= set(runs[0].versions)
    assert "runs" not in runs[-1].versions
    assert all(r.restorable for r in runs)
    for name, version in runs[0].versions.items():
        assert version < runs[1].versions[name]


def test_a_pinned_reader_never_sees_a_mix_of_runs(two_runs, tmp_path: Path) -> None:
    store_dir, writer = two_runs
    reader = LanceStore(store_dir, refresh_seconds=3600, follow_runs=True)
    assert reader.run is not None and reader.run["run_id"] == "run2"
    assert _titles(reader, "ann") == ["cats", "owls"] and _values(reader, "ann") == ["coffee"]

    # A run in progress: one table written, the other not yet, no run row: invisible.
    writer.upsert("wiki_pages", _pages("ann", ["eels"]), DIM, replace_users=["ann"])
    fresh = LanceStore(store_dir, follow_runs=True)
    assert _titles(fresh, "ann") == ["cats", "owls"] and _values(fresh, "ann") == ["coffee"]
    assert _titles(LanceStore(store_dir), "ann") == ["eels"]  # the latest version is ahead

    writer.upsert("claims", _claims("ann", ["juice"]), DIM, replace_users=["ann"])
    writer.record_run(_run("run3"))
    # The old reader keeps run 2 (both tables) until it refreshes, then run 3 (both).
    assert _titles(reader, "ann") == ["cats", "owls"] and _values(reader, "ann") == ["coffee"]
    assert reader.refresh_if_due() is False  # not due yet: an hour between checks
    assert reader.refresh() is True and reader.run["run_id"] == "run3"
    assert _titles(reader, "ann") == ["eels"] and _values(reader, "ann") == ["juice"]
    assert reader.refresh() is False


def test_rollback_restores_every_table_and_is_a_run_of_its_own(two_runs, tmp_path) -> None:
    store_dir, writer = two_runs
    reader = LanceStore(store_dir, refresh_seconds=3600, follow_runs=True)
    failure = BuildFailure(failure_id="f1", run_id="run2", user_id="ann", stage="compile",
                           error="boom", attempts=1, traceback_digest="d",
                           failed_at=datetime.now(UTC))  # fmt: skip
    writer.record_failures([failure])
    writer.record_run(_run("run2b"))
    info = rollback(writer, "run1")
    assert info.run_id.startswith("rollback-") and info.current and info.input == "rollback to run1"
    assert [r.run_id for r in list_runs(writer)][:3] == ["run1", "run2", "run2b"]
    # the pinned reader saw run 2 before and still does; after its refresh, run 1's content
    assert _titles(reader, "ann") == ["cats", "owls"]
    assert reader.refresh() is True
    assert _titles(reader, "ann") == ["dogs"] and _values(reader, "ann") == ["tea"]
    assert reader.count("build_failures") == 0  # a table created after run 1 is emptied
    assert _titles(LanceStore(store_dir), "ann") == ["dogs"]  # the latest versions too
    # going forward again is a rollback too
    rollback(writer, "run2")
    assert reader.refresh() and _titles(reader, "ann") == ["cats", "owls"]
    with pytest.raises(ValueError, match="no run 'nope'"):
        rollback(writer, "nope")


def test_retention_keeps_the_versions_of_the_last_runs(tmp_path: Path) -> None:
    writer = LanceStore(tmp_path / "store")
    for i in range(4):
        _commit(writer, tmp_path, f"run{i}", {"wiki_pages": _pages("ann", [f"t{i}"])})
    assert apply_retention(writer, keep_runs=2, retention_hours=24.0) == {}  # all too young
    removed = apply_retention(writer, keep_runs=2, retention_hours=0.0)
    assert removed["wiki_pages"] > 0
    runs = list_runs(writer)
    assert [r.restorable for r in runs] == [False, False, True, True]
    kept = {int(v["version"]) for v in writer.table("wiki_pages").list_versions()}
    assert {r.versions["wiki_pages"] for r in runs[2:]} <= kept
    assert not {r.versions["wiki_pages"] for r in runs[:2]} & kept
    with pytest.raises(ValueError, match="can no longer be restored"):
        rollback(writer, "run0")
    rollback(writer, "run2")
    assert _titles(LanceStore(tmp_path / "store", follow_runs=True), "ann") == ["t2"]


def test_user_id_index_takes_new_rows_incrementally(tmp_path: Path) -> None:
    store = LanceStore(tmp_path)
    store.upsert("wiki_pages", _pages("ann", ["a", "b"]), DIM)
    store.build_indexes()
    store.upsert("wiki_pages", _pages("bob", ["c"]), DIM)
    table = store.table("wiki_pages")
    assert table.index_stats("user_id_idx").num_unindexed_rows == 1
    assert store.build_indexes() == {"wiki_pages": ["user_id"]}
    stats = table.index_stats("user_id_idx")
    assert (stats.num_indexed_rows, stats.num_unindexed_rows) == (3, 0)
    assert _titles(store, "bob") == ["c"] and _titles(store, "ann") == ["a", "b"]


def test_the_runs_table_stays_a_few_fragments_however_many_runs(tmp_path: Path) -> None:
    """Every run (an online add is one) appends a row; `runs` is merged every
    RUNS_COMPACT_EVERY versions, so the current-run pointer is read from a few files, and
    merging keeps every row and which one is current."""
    import lance

    from arborwiki.storage.lance_store import RUNS_COMPACT_EVERY

    store = LanceStore(tmp_path / "s")
    for i in range(2 * RUNS_COMPACT_EVERY + 3):
        store.record_run(_run(f"run{i:02d}"))
    fragments = lance.dataset(str(tmp_path / "s" / "runs.lance")).get_fragments()
    assert len(fragments) <= RUNS_COMPACT_EVERY
    assert [r["run_id"] for r in store.runs()] == [
        f"run{i:02d}" for i in range(2 * RUNS_COMPACT_EVERY + 3)
    ]
    assert store.latest_run()["run_id"] == f"run{2 * RUNS_COMPACT_EVERY + 2:02d}"
