"""The Lance tables: which record each stores and its key; rows ↔ Arrow.

Every column is declared once, as a field of a record in `core.records`; the Arrow schema
is derived from it (`core.schema.arrow_schema`). A TableSpec holds only what is no field:
the key and which columns Lance stores non-nullable (the key and
`not_null`; the other columns were nullable from the first store on, and stay so, so
existing stores keep working).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

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
    UserMemory,
    WikiPage,
    stable_id,
)
from arborwiki.core.schema import arrow_schema, record_row

__all__ = ["SPECS", "USER_TABLES", "TableSpec", "memory_tables", "record_row", "rows_to_table"]


@dataclass(frozen=True)
class TableSpec:
    name: str
    record: type[Record]
    key: str
    not_null: tuple[str, ...] = ("user_id",)


SPECS: dict[str, TableSpec] = {
    s.name: s
    for s in (
        TableSpec("messages", StoredMessage, "row_id", ("user_id", "message_id")),
        TableSpec("snapshots", Snapshot, "snapshot_id"),
        TableSpec("claims", Claim, "claim_id"),
        TableSpec("forest_nodes", ForestNode, "node_id"),
        TableSpec("trajectories", Trajectory, "trajectory_id"),
        TableSpec("evidence", EvidenceItem, "evidence_id"),
        TableSpec("wiki_pages", WikiPage, "page_id"),
        TableSpec("quarantine", QuarantineRow, "quarantine_id", not_null=()),
        TableSpec("runs", RunRecord, "run_id", not_null=()),
        TableSpec(
            "build_failures", BuildFailure, "failure_id", not_null=("run_id", "user_id", "stage")
        ),
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
MESSAGE_REF_COLUMNS = [
    c for c in StoredMessage.model_fields if c not in ("row_id", "search_text", "vector")
]  # what a query reads of a message: no index text, no vector


def schema_for(name: str, dim: int) -> pa.Schema:
    """The table's Arrow schema with vector columns sized to the embedder's `dim`."""
    spec = SPECS[name]
    return arrow_schema(spec.record, dim, lead=spec.key, not_null=(spec.key, *spec.not_null))


def _sound_vector(value: Any, dim: int) -> Any:
    """A vector Lance will accept: `dim` finite floats. Anything else (missing, empty, wrong
    length, NaN: whatever a model's output led to) is stored as the zero vector, which
    every cosine in the project scores 0, instead of failing the whole commit."""
    if value is not None and len(value) == dim and math.isfinite(sum(value)):
        return value
    return [0.0] * dim


def rows_to_table(name: str, rows: Iterable[dict[str, Any]], dim: int) -> pa.Table:
    """Rows as an Arrow table of `name`'s schema; a row whose columns are not exactly the
    table's raises (a missing column would otherwise be stored as null, silently)."""
    schema = schema_for(name, dim)
    columns = set(schema.names)
    vectors = [f.name for f in schema if pa.types.is_fixed_size_list(f.type)]
    out = []
    for r in rows:
        if r.keys() != columns:
            missing, unknown = sorted(columns - r.keys()), sorted(r.keys() - columns)
            raise ValueError(
                f"{name} row does not match its table: missing {missing}, unknown {unknown}"
            )
        row = dict(r)
        for column in vectors:
            row[column] = _sound_vector(row[column], dim)
        out.append(row)
    return pa.Table.from_pylist(out, schema=schema)


def message_rows(memory: UserMemory) -> list[dict[str, Any]]:
    """Messages with their vectors and the snapshot/trajectory that holds them."""
    snapshot_of = {mid: s.snapshot_id for s in memory.snapshots for mid in s.message_ids}
    trajectory_of = {n.snapshot_id: n.trajectory_id for n in memory.nodes}
    rows = []
    for message, vector in zip(memory.messages, memory.message_vectors, strict=True):
        snapshot_id = snapshot_of.get(message.message_id)
        stored = StoredMessage(
            **message.model_dump(),
            row_id=stable_id("msg", message.user_id, message.message_id),
            search_text=message.search_text,
            snapshot_id=snapshot_id,
            trajectory_id=trajectory_of.get(snapshot_id or ""),
            vector=vector,
        )
        rows.append(record_row(stored))
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
