"""Quarantine rows stay true to the archive across commits (issue 13 items 3 and 5)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from arborwiki.core.records import RunRecord
from arborwiki.storage.archive import input_sources, read_archive
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import record_row, rows_to_table

DIM = 4


def row(message_id: str, user_id: str = "alice", **fields: object) -> str:
    base = {"user_id": user_id, "message_id": message_id, "text": f"text of {message_id}",
            "timestamp": "2024-03-01T09:30:00Z"}  # fmt: skip
    return json.dumps({**base, **fields})


def commit(store: LanceStore, archive: str, stage: Path, with_sources: bool = True) -> set[str]:
    """Stage the archive's quarantine as Parquet (as a build does) and commit it."""
    rows = [q for batch in read_archive(archive) for q in batch.quarantine]
    users = sorted({m for b in read_archive(archive) for m in b.table["user_id"].to_pylist()})
    stage.mkdir(parents=True, exist_ok=True)
    files = []
    if rows:
        files.append(stage / f"q-{len(list(stage.iterdir()))}.parquet")
        pq.write_table(rows_to_table("quarantine", map(record_row, rows), DIM), files[0])
    sources = input_sources(archive) if with_sources else []
    store.commit_run({"quarantine": files}, users, DIM, quarantine_sources=sources)
    now = datetime.now(UTC)  # as a build does: commit, then the run's row
    store.record_run(RunRecord(run_id=stage.name, started_at=now, finished_at=now, input=archive,
                               fingerprint=""))  # fmt: skip
    return stored(store)


def stored(store: LanceStore) -> set[str]:
    rows = store.table("quarantine").search().limit(None).to_list()
    return {f"{Path(r['source']).name}|{r['location']}|{r['reason']}" for r in rows}


@pytest.fixture
def store(tmp_path: Path) -> LanceStore:
    return LanceStore(tmp_path / "store")


def test_a_fixed_line_leaves_the_quarantine(
    store: LanceStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "a.jsonl"
    archive.write_text("\n".join([row("m1"), "{broken", row("m3", timestamp="soon")]) + "\n")
    assert commit(store, str(archive), tmp_path / "s1") == {
        "a.jsonl|a.jsonl:2|invalid JSON",
        "a.jsonl|a.jsonl:3|bad timestamp: 'soon'",
    }
    archive.write_text("\n".join([row("m1"), row("m2"), row("m3", timestamp="soon")]) + "\n")
    assert commit(store, str(archive), tmp_path / "s2") == {
        "a.jsonl|a.jsonl:3|bad timestamp: 'soon'"
    }
    archive.write_text("\n".join([row("m1"), row("m2"), row("m3")]) + "\n")
    assert commit(store, str(archive), tmp_path / "s3") == set()


def test_relative_then_absolute_name_is_one_row_per_bad_line(
    store: LanceStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "a.jsonl"
    archive.write_text("\n".join([row("m1"), "{broken"]) + "\n")
    monkeypatch.chdir(tmp_path)
    commit(store, "a.jsonl", tmp_path / "s1")
    commit(store, str(archive), tmp_path / "s2")
    assert store.count("quarantine") == 1


def test_another_inputs_quarantine_is_kept(store: LanceStore, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("{broken a\n")
    second.write_text("\n".join([row("b1", user_id="bob"), "{broken b"]) + "\n")
    commit(store, str(first), tmp_path / "s1")
    commit(store, str(second), tmp_path / "s2")
    first.write_text(row("a1") + "\n")
    assert commit(store, str(first), tmp_path / "s3") == {"b.jsonl|b.jsonl:2|invalid JSON"}


def test_a_rebuilt_users_quarantine_follows_the_per_user_replace(
    store: LanceStore, tmp_path: Path
) -> None:
    """Messages are replaced per rebuilt user; so are that user's quarantine rows."""
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("\n".join([row("m1"), row("m2", timestamp="soon")]) + "\n")
    commit(store, str(old), tmp_path / "s1")
    new.write_text(row("m1") + "\n")
    assert commit(store, str(new), tmp_path / "s2", with_sources=False) == set()


def test_locomo_duplicate_dia_ids_commit_and_recommit(store: LanceStore, tmp_path: Path) -> None:
    turns = [{"speaker": "Ann", "dia_id": "D1:1", "text": t} for t in ("a", "b", "a")]
    sample = {"sample_id": "s", "conversation": {"speaker_a": "Ann", "session_1": turns}}
    archive = tmp_path / "dup.json"
    archive.write_text(json.dumps([sample]))
    first = commit(store, str(archive), tmp_path / "s1")
    assert commit(store, str(archive), tmp_path / "s2") == first
    assert first == {
        "dup.json|dup.json:s:session_1:turn_1|duplicate message_id for user",
        "dup.json|dup.json:s:session_1:turn_2|duplicate message_id for user",
    }
