"""Arrow schemas of the Lance tables and the record ↔ row conversion (declared once).

Nested values with no fixed shape (facets, extra) are stored as JSON strings; vectors
as fixed-size float32 lists so Lance can search them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from arborwiki.core.records import (
    Claim,
    EvidenceItem,
    ForestNode,
    QuarantineRow,
    Record,
    Snapshot,
    Trajectory,
    UserMemory,
    WikiPage,
    stable_id,
)

TS = pa.timestamp("us", tz="UTC")
STR_LIST = pa.list_(pa.string())


def vector_type(dim: int) -> pa.DataType:
    return pa.list_(pa.float32(), dim)


@dataclass(frozen=True)
class TableSpec:
    name: str
    key: str
    fields: list[pa.Field]
    fts: tuple[str, ...] = ()
    has_vector: bool = False


def _f(name: str, typ: pa.DataType, nullable: bool = True) -> pa.Field:
    return pa.field(name, typ, nullable=nullable)


MESSAGES = TableSpec(
    "messages",
    "row_id",
    [
        _f("row_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("conversation_id", pa.string()),
        _f("session_id", pa.string()),
        _f("message_id", pa.string(), False),
        _f("turn_index", pa.int64()),
        _f("speaker", pa.string()),
        _f("role", pa.string()),
        _f("text", pa.string()),
        _f("timestamp", TS),
        _f("extra", pa.string()),
        _f("search_text", pa.string()),
        _f("snapshot_id", pa.string()),
        _f("trajectory_id", pa.string()),
    ],
    fts=("search_text",),
    has_vector=True,
)
SNAPSHOTS = TableSpec(
    "snapshots",
    "snapshot_id",
    [
        _f("snapshot_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("conversation_id", pa.string()),
        _f("session_id", pa.string()),
        _f("message_ids", STR_LIST),
        _f("timestamp", TS),
        _f("summary", pa.string()),
        _f("keywords", STR_LIST),
        _f("entities", STR_LIST),
        _f("terms", STR_LIST),
        _f("facets", pa.string()),
        _f("claim_ids", STR_LIST),
        _f("extractor", pa.string()),
    ],
    fts=("summary",),
    has_vector=True,
)
CLAIMS = TableSpec(
    "claims",
    "claim_id",
    [
        _f("claim_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("snapshot_id", pa.string()),
        _f("trajectory_id", pa.string()),
        _f("text", pa.string()),
        _f("subject", pa.string()),
        _f("attribute", pa.string()),
        _f("value", pa.string()),
        _f("negated", pa.bool_()),
        _f("change_cue", pa.bool_()),
        _f("status", pa.string()),
        _f("op", pa.string()),
        _f("supersedes", pa.string()),
        _f("superseded_by", pa.string()),
        _f("source_message_ids", STR_LIST),
        _f("event_time", pa.date32()),
        _f("recorded_at", TS),
    ],
    fts=("text",),
)
FOREST_NODES = TableSpec(
    "forest_nodes",
    "node_id",
    [
        _f("node_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("snapshot_id", pa.string()),
        _f("trajectory_id", pa.string()),
        _f("parent_id", pa.string()),
        _f("root_id", pa.string()),
        _f("depth", pa.int64()),
        _f("seq", pa.int64()),
        _f("node_summary", pa.string()),
        _f("path_summary", pa.string()),
        _f("topic_key", pa.string()),
        _f("attach_score", pa.float64()),
        _f("attach_reason", pa.string()),
    ],
)
TRAJECTORIES = TableSpec(
    "trajectories",
    "trajectory_id",
    [
        _f("trajectory_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("forked_from", pa.string()),
        _f("snapshot_ids", STR_LIST),
        _f("title", pa.string()),
        _f("summary", pa.string()),
        _f("keywords", STR_LIST),
        _f("entities", STR_LIST),
        _f("facet_keys", STR_LIST),
        _f("first_time", TS),
        _f("last_time", TS),
        _f("summary_vector", vector_type(1)),  # sized to the embedder by schema_for()
        _f("latest_vector", vector_type(1)),
    ],
    fts=("summary",),
)
EVIDENCE = TableSpec(
    "evidence",
    "evidence_id",
    [
        _f("evidence_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("kind", pa.string()),
        _f("text", pa.string()),
        _f("subject", pa.string()),
        _f("attribute", pa.string()),
        _f("value", pa.string()),
        _f("status", pa.string()),
        _f("revised_by", pa.string()),
        _f("claim_id", pa.string()),
        _f("snapshot_id", pa.string()),
        _f("trajectory_id", pa.string()),
        _f("source_message_ids", STR_LIST),
        _f("event_time", pa.date32()),
        _f("recorded_at", TS),
    ],
    fts=("text",),
)
WIKI_PAGES = TableSpec(
    "wiki_pages",
    "page_id",
    [
        _f("page_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("kind", pa.string()),
        _f("title", pa.string()),
        _f("markdown", pa.string()),
        _f("trajectory_ids", STR_LIST),
        _f("links", STR_LIST),
        _f("items", STR_LIST),
        _f("parent_page_id", pa.string()),
        _f("shard_index", pa.int64()),
        _f("shard_count", pa.int64()),
    ],
    fts=("markdown",),
    has_vector=True,
)
QUARANTINE = TableSpec(
    "quarantine",
    "quarantine_id",
    [
        _f("quarantine_id", pa.string(), False),
        _f("user_id", pa.string()),
        _f("source", pa.string()),
        _f("location", pa.string()),
        _f("reason", pa.string()),
        _f("row", pa.string()),
    ],
)
RUNS = TableSpec(
    "runs",
    "run_id",
    [
        _f("run_id", pa.string(), False),
        _f("started_at", TS),
        _f("finished_at", TS),
        _f("input", pa.string()),
        _f("fingerprint", pa.string()),
        _f("counts", pa.string()),
        _f("versions", pa.string()),
        _f("watermark", pa.string()),  # JSON: per input file what the run consumed (nightly)
    ],
)
BUILD_FAILURES = TableSpec(
    "build_failures",
    "failure_id",
    [
        _f("failure_id", pa.string(), False),
        _f("run_id", pa.string(), False),
        _f("user_id", pa.string(), False),
        _f("stage", pa.string(), False),
        _f("error", pa.string()),
        _f("traceback_digest", pa.string()),
        _f("attempts", pa.int64()),
        _f("failed_at", TS),
    ],
)

SPECS: dict[str, TableSpec] = {
    s.name: s
    for s in (
        MESSAGES,
        SNAPSHOTS,
        CLAIMS,
        FOREST_NODES,
        TRAJECTORIES,
        EVIDENCE,
        WIKI_PAGES,
        QUARANTINE,
        RUNS,
        BUILD_FAILURES,
    )
}
USER_TABLES = (
    "messages",
    "snapshots",
    "claims",
    "forest_nodes",
    "trajectories",
    "evidence",
    "wiki_pages",
)


def schema_for(name: str, dim: int) -> pa.Schema:
    """The table's Arrow schema with vector columns sized to the embedder's `dim`."""
    spec = SPECS[name]
    fields = [
        pa.field(f.name, vector_type(dim)) if f.name.endswith("_vector") else f for f in spec.fields
    ]
    if spec.has_vector:
        fields.append(pa.field("vector", vector_type(dim)))
    return pa.schema(fields)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value


def record_row(record: Record) -> dict[str, Any]:
    """A record as a row dict for its table (dicts → JSON, nested claims → ids)."""
    row = {k: _jsonable(v) for k, v in record.model_dump(exclude={"claims"}).items()}
    if isinstance(record, Snapshot):
        row["claim_ids"] = [c.claim_id for c in record.claims]
    return row


def _sound_vector(value: Any, dim: int) -> Any:
    """A vector Lance will accept: `dim` finite floats. Anything else (missing, empty, wrong
    length, NaN: whatever a model's output led to) is stored as the zero vector, which
    every cosine in the project scores 0, instead of failing the whole commit."""
    if value is not None and len(value) == dim and math.isfinite(sum(value)):
        return value
    return [0.0] * dim


def rows_to_table(name: str, rows: Iterable[dict[str, Any]], dim: int) -> pa.Table:
    schema = schema_for(name, dim)
    vectors = [f.name for f in schema if f.name.endswith("vector")]
    out = []
    for r in rows:
        row = {f: r.get(f) for f in schema.names}
        for column in vectors:
            row[column] = _sound_vector(row[column], dim)
        out.append(row)
    return pa.Table.from_pylist(out, schema=schema)


RECORD_TABLE: dict[type[Record], str] = {
    Snapshot: "snapshots",
    Claim: "claims",
    ForestNode: "forest_nodes",
    Trajectory: "trajectories",
    EvidenceItem: "evidence",
    WikiPage: "wiki_pages",
    QuarantineRow: "quarantine",
}


def message_rows(memory: UserMemory) -> list[dict[str, Any]]:
    """Messages with their vectors and the snapshot/trajectory that holds them."""
    snapshot_of = {mid: s.snapshot_id for s in memory.snapshots for mid in s.message_ids}
    trajectory_of = {n.snapshot_id: n.trajectory_id for n in memory.nodes}
    rows = []
    for message, vector in zip(memory.messages, memory.message_vectors, strict=True):
        row = record_row(message)
        snapshot_id = snapshot_of.get(message.message_id)
        row.update(
            row_id=stable_id("msg", message.user_id, message.message_id),
            search_text=message.search_text,
            snapshot_id=snapshot_id,
            trajectory_id=trajectory_of.get(snapshot_id or ""),
            vector=vector,
        )
        rows.append(row)
    return rows


def memory_tables(memory: UserMemory, dim: int) -> dict[str, pa.Table]:
    """One user's memory as Arrow tables, one per Lance table."""
    groups: dict[str, list[Record]] = {
        "snapshots": list(memory.snapshots),
        "claims": list(memory.claims),
        "forest_nodes": list(memory.nodes),
        "trajectories": list(memory.trajectories),
        "evidence": list(memory.evidence),
        "wiki_pages": list(memory.pages),
    }
    tables = {
        name: rows_to_table(name, map(record_row, recs), dim) for name, recs in groups.items()
    }
    tables["messages"] = rows_to_table("messages", message_rows(memory), dim)
    return tables
