"""Each table's rows round-trip record → Arrow → Lance → record, and the derived Arrow
schemas are the ones stores were written with before they were derived (pinned below,
taken from the hand-written TableSpecs they replaced), so existing stores keep working."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pyarrow as pa
import pytest

from arborwiki.core.records import (
    BuildFailure,
    Claim,
    EvidenceItem,
    ForestNode,
    QuarantineRow,
    Record,
    RunRecord,
    Snapshot,
    StoredMessage,
    Trajectory,
    WikiPage,
)
from arborwiki.core.schema import MESSAGE_SCHEMA, record_row, row_to_record
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import SPECS, rows_to_table, schema_for

DIM = 4
T0 = datetime(2024, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
VEC = [0.5, -0.25, 0.0, 1.0]  # exact in float32, so the vector reads back equal

STORED_SCHEMAS = {
    "<MESSAGE_SCHEMA>": [
        ("user_id", "string", False),
        ("conversation_id", "string", False),
        ("session_id", "string", False),
        ("message_id", "string", False),
        ("turn_index", "int64", False),
        ("speaker", "string", False),
        ("role", "string", False),
        ("text", "string", False),
        ("timestamp", "timestamp[us, tz=UTC]", False),
        ("extra", "string", False),
    ],
    "build_failures": [
        ("failure_id", "string", False),
        ("run_id", "string", False),
        ("user_id", "string", False),
        ("stage", "string", False),
        ("error", "string", True),
        ("traceback_digest", "string", True),
        ("attempts", "int64", True),
        ("failed_at", "timestamp[us, tz=UTC]", True),
    ],
    "claims": [
        ("claim_id", "string", False),
        ("user_id", "string", False),
        ("snapshot_id", "string", True),
        ("trajectory_id", "string", True),
        ("text", "string", True),
        ("subject", "string", True),
        ("attribute", "string", True),
        ("value", "string", True),
        ("negated", "bool", True),
        ("change_cue", "bool", True),
        ("status", "string", True),
        ("op", "string", True),
        ("supersedes", "string", True),
        ("superseded_by", "string", True),
        ("source_message_ids", "list<item: string>", True),
        ("event_time", "date32[day]", True),
        ("recorded_at", "timestamp[us, tz=UTC]", True),
    ],
    "evidence": [
        ("evidence_id", "string", False),
        ("user_id", "string", False),
        ("kind", "string", True),
        ("text", "string", True),
        ("subject", "string", True),
        ("attribute", "string", True),
        ("value", "string", True),
        ("status", "string", True),
        ("revised_by", "string", True),
        ("claim_id", "string", True),
        ("snapshot_id", "string", True),
        ("trajectory_id", "string", True),
        ("source_message_ids", "list<item: string>", True),
        ("event_time", "date32[day]", True),
        ("recorded_at", "timestamp[us, tz=UTC]", True),
    ],
    "forest_nodes": [
        ("node_id", "string", False),
        ("user_id", "string", False),
        ("snapshot_id", "string", True),
        ("trajectory_id", "string", True),
        ("parent_id", "string", True),
        ("root_id", "string", True),
        ("depth", "int64", True),
        ("seq", "int64", True),
        ("node_summary", "string", True),
        ("path_summary", "string", True),
        ("topic_key", "string", True),
        ("attach_score", "double", True),
        ("attach_reason", "string", True),
    ],
    "messages": [
        ("row_id", "string", False),
        ("user_id", "string", False),
        ("conversation_id", "string", True),
        ("session_id", "string", True),
        ("message_id", "string", False),
        ("turn_index", "int64", True),
        ("speaker", "string", True),
        ("role", "string", True),
        ("text", "string", True),
        ("timestamp", "timestamp[us, tz=UTC]", True),
        ("extra", "string", True),
        ("search_text", "string", True),
        ("snapshot_id", "string", True),
        ("trajectory_id", "string", True),
        ("vector", "fixed_size_list<item: float>[8]", True),
    ],
    "quarantine": [
        ("quarantine_id", "string", False),
        ("user_id", "string", True),
        ("source", "string", True),
        ("location", "string", True),
        ("reason", "string", True),
        ("row", "string", True),
    ],
    "runs": [
        ("run_id", "string", False),
        ("started_at", "timestamp[us, tz=UTC]", True),
        ("finished_at", "timestamp[us, tz=UTC]", True),
        ("input", "string", True),
        ("fingerprint", "string", True),
        ("counts", "string", True),
        ("versions", "string", True),
        ("watermark", "string", True),  # added by the nightly rebuild; old stores gain it
        ("users", "list<item: string>", True),  # online runs name them; old stores gain it
    ],
    "snapshots": [
        ("snapshot_id", "string", False),
        ("user_id", "string", False),
        ("conversation_id", "string", True),
        ("session_id", "string", True),
        ("message_ids", "list<item: string>", True),
        ("timestamp", "timestamp[us, tz=UTC]", True),
        ("summary", "string", True),
        ("keywords", "list<item: string>", True),
        ("entities", "list<item: string>", True),
        ("terms", "list<item: string>", True),
        ("facets", "string", True),
        ("claim_ids", "list<item: string>", True),
        ("extractor", "string", True),
        ("window_key", "string", True),  # added with forget reading it; old stores gain it
        ("vector", "fixed_size_list<item: float>[8]", True),
    ],
    "trajectories": [
        ("trajectory_id", "string", False),
        ("user_id", "string", False),
        ("forked_from", "string", True),
        ("snapshot_ids", "list<item: string>", True),
        ("title", "string", True),
        ("summary", "string", True),
        ("keywords", "list<item: string>", True),
        ("entities", "list<item: string>", True),
        ("facet_keys", "list<item: string>", True),
        ("first_time", "timestamp[us, tz=UTC]", True),
        ("last_time", "timestamp[us, tz=UTC]", True),
        ("summary_vector", "fixed_size_list<item: float>[8]", True),
        ("latest_vector", "fixed_size_list<item: float>[8]", True),
    ],
    "wiki_pages": [
        ("page_id", "string", False),
        ("user_id", "string", False),
        ("kind", "string", True),
        ("title", "string", True),
        ("markdown", "string", True),
        ("trajectory_ids", "list<item: string>", True),
        ("links", "list<item: string>", True),
        ("items", "list<item: string>", True),
        ("parent_page_id", "string", True),
        ("part_index", "int64", True),
        ("part_count", "int64", True),
        ("vector", "fixed_size_list<item: float>[8]", True),
    ],
}


def _claim() -> Claim:
    return Claim(
        claim_id="c1", user_id="u'1", snapshot_id="s1", trajectory_id="t1", text="moved",
        subject="Ann", attribute="home", value="Denver", negated=True, change_cue=True,
        status="revised", op="REVISE", supersedes="c0", superseded_by=None,
        source_message_ids=["m1", "m2"], event_time=date(2024, 2, 29), recorded_at=T0,
    )  # fmt: skip


SAMPLES: dict[str, Record] = {
    "messages": StoredMessage(
        row_id="r1", user_id="u'1", conversation_id="c", session_id="s", message_id="m1",
        turn_index=3, speaker="Ann", role="user", text="hi", timestamp=T0,
        extra={"caption": "a dog", "a": "ü"}, search_text="Ann: hi", snapshot_id="s1",
        trajectory_id=None, vector=VEC,
    ),
    "snapshots": Snapshot(
        snapshot_id="s1", user_id="u'1", conversation_id="c", session_id="s",
        message_ids=["m1"], timestamp=T0, summary="sum", keywords=["k"], entities=["Ann"],
        terms=[], facets={"place": ["Denver", "Oslo"]}, extractor="rules", window_key="w1",
        vector=VEC,
    ),
    "claims": _claim(),
    "forest_nodes": ForestNode(
        node_id="n1", user_id="u'1", snapshot_id="s1", trajectory_id="t1", parent_id=None,
        root_id="n1", depth=2, seq=7, node_summary="a", path_summary="a > b", topic_key="k",
        attach_score=0.75, attach_reason="similar",
    ),
    "trajectories": Trajectory(
        trajectory_id="t1", user_id="u'1", forked_from="t0", snapshot_ids=["s1", "s2"],
        title="T", summary="S", keywords=["k"], entities=[], facet_keys=["place"],
        first_time=T0, last_time=T0, summary_vector=VEC, latest_vector=[1.0, 0.0, 0.0, 0.0],
    ),
    "evidence": EvidenceItem(
        evidence_id="e1", user_id="u'1", kind="state", text="lives in Denver", subject="Ann",
        attribute="home", value="Denver", status="active", revised_by=None, claim_id="c1",
        snapshot_id="s1", trajectory_id="t1", source_message_ids=["m1"], event_time=None,
        recorded_at=T0,
    ),
    "wiki_pages": WikiPage(
        page_id="p1", user_id="u'1", kind="entity", title="Ann", markdown="# Ann",
        trajectory_ids=["t1"], links=["p2"], items=["dog"], parent_page_id="p0",
        part_index=1, part_count=2, vector=VEC,
    ),
    "quarantine": QuarantineRow(
        quarantine_id="q1", user_id=None, source="a.jsonl", location="line 3",
        reason="bad json", row="{",
    ),
    "runs": RunRecord(
        run_id="run1", started_at=T0, finished_at=T0, input="a.jsonl", fingerprint="f",
        counts={"messages": 3}, versions={"claims": 2},
        watermark={"files": [{"path": "a.jsonl", "size": 10}]}, users=["u'1"],
    ),
    "build_failures": BuildFailure(
        failure_id="f1", run_id="run1", user_id="u'1", stage="extract", error="boom",
        traceback_digest="d", attempts=3, failed_at=T0,
    ),
}  # fmt: skip


def test_every_table_has_a_sample() -> None:
    assert set(SAMPLES) == set(SPECS)
    assert all(isinstance(SAMPLES[name], SPECS[name].record) for name in SPECS)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_derived_schema_is_the_stored_one(name: str) -> None:
    derived = [(f.name, str(f.type), f.nullable) for f in schema_for(name, 8)]
    assert derived == STORED_SCHEMAS[name]


def test_message_batch_schema_is_the_stored_one() -> None:
    derived = [(f.name, str(f.type), f.nullable) for f in MESSAGE_SCHEMA]
    assert derived == STORED_SCHEMAS["<MESSAGE_SCHEMA>"]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_record_round_trips_through_lance(name: str, tmp_path: Path) -> None:
    record = SAMPLES[name]
    store = LanceStore(tmp_path / "store")
    store.upsert(name, rows_to_table(name, [record_row(record)], DIM), DIM)
    (row,) = store.table(name).search().limit(None).to_list()
    assert row_to_record(type(record), row) == record


def test_nested_claims_are_stored_as_their_ids(tmp_path: Path) -> None:
    """A snapshot's claims live in the claims table; its row keeps their ids."""
    snapshot = SAMPLES["snapshots"].model_copy(update={"claims": [_claim()]})
    store = LanceStore(tmp_path / "store")
    store.upsert("snapshots", rows_to_table("snapshots", [record_row(snapshot)], DIM), DIM)
    (row,) = store.table("snapshots").search().limit(None).to_list()
    assert row["claim_ids"] == ["c1"]
    assert row_to_record(Snapshot, row) == snapshot.model_copy(update={"claims": []})


def test_a_missing_or_unknown_column_fails_loudly() -> None:
    row = record_row(SAMPLES["claims"])
    with pytest.raises(ValueError, match=r"missing \['text'\]"):
        rows_to_table("claims", [{k: v for k, v in row.items() if k != "text"}], DIM)
    with pytest.raises(ValueError, match=r"unknown \['txt'\]"):
        rows_to_table("claims", [{**row, "txt": "typo"}], DIM)


def test_a_store_with_the_old_shard_columns_reads_and_moves_on(tmp_path: Path) -> None:
    """Wiki pages were stored with `shard_index`/`shard_count` before "part" replaced
    "shard": such a store still reads, and its next write renames the columns."""
    store = LanceStore(tmp_path / "store")
    new = schema_for("wiki_pages", DIM)
    old_names = {"part_index": "shard_index", "part_count": "shard_count"}
    old = pa.schema([f.with_name(old_names.get(f.name, f.name)) for f in new])
    row = record_row(SAMPLES["wiki_pages"])
    old_row = {old_names.get(k, k): v for k, v in row.items()}
    store._db.create_table("wiki_pages", data=pa.Table.from_pylist([old_row], schema=old))
    read = row_to_record(WikiPage, store.table("wiki_pages").to_arrow().to_pylist()[0])
    assert (read.part_index, read.part_count) == (1, 2)
    second = SAMPLES["wiki_pages"].model_copy(update={"page_id": "p2", "part_index": 0})
    store.upsert("wiki_pages", rows_to_table("wiki_pages", [record_row(second)], DIM), DIM)
    table = LanceStore(tmp_path / "store").table("wiki_pages").to_arrow()
    assert {"part_index", "part_count"} <= set(table.schema.names)
    assert "shard_index" not in table.schema.names
    assert sorted(table.column("part_index").to_pylist()) == [0, 1]


def test_a_table_made_before_a_column_gains_it_on_its_next_write(tmp_path: Path) -> None:
    store = LanceStore(tmp_path / "store")
    today = schema_for("snapshots", DIM)
    before = pa.schema([f for f in today if f.name != "window_key"])
    store._db.create_table("snapshots", schema=before)
    row = record_row(SAMPLES["snapshots"].model_copy(update={"vector": [0.5] * DIM}))
    store.upsert("snapshots", rows_to_table("snapshots", [row], DIM), DIM)
    (stored,) = store.table("snapshots").search().limit(None).to_list()
    assert stored["window_key"] == "w1"
    assert sorted(store.table("snapshots").schema.names) == sorted(today.names)
