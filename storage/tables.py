"""The Lance tables: which record each stores and its key; rows ↔ Arrow.

Every column is declared once, as a field of a record in `core.records`; the Arrow schema
is derived from it (`core.schema.arrow_schema`). A TableSpec holds only what is no field:
the key and which columns Lance stores non-nullable (the key and
`not_null`; the other columns were nullable from the first store on, and stay so, so
existing stores keep working).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
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
from arborwiki.core.schema import arrow_schema, message_columns, record_row

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


@functools.cache
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


def _vector_array(values: Sequence[Any] | np.ndarray, dim: int) -> pa.FixedSizeListArray:
    """Vectors as one Arrow array in one copy (no Python float per element); any that is
    not `dim` finite floats becomes the zero vector, as `_sound_vector` says."""
    try:
        matrix = np.asarray(values, dtype=np.float32)
        regular = matrix.ndim == 2 and matrix.shape[1] == dim
    except (TypeError, ValueError):  # ragged, or None among them
        regular = False
    if not regular:
        matrix = np.array([_sound_vector(v, dim) for v in values], dtype=np.float32)
        matrix = matrix.reshape(len(values), dim)
    with np.errstate(invalid="ignore"):
        finite = np.isfinite(matrix.astype(np.float64).sum(axis=1))
    matrix = np.where(finite[:, None], matrix, np.float32(0.0))
    return pa.FixedSizeListArray.from_arrays(pa.array(matrix.reshape(-1)), dim)


def _check_columns(name: str, columns: Iterable[str], schema: pa.Schema) -> None:
    """Columns that are not exactly the table's raise: a missing one would otherwise be
    stored as null, silently."""
    given, wanted = set(columns), set(schema.names)
    if given != wanted:
        missing, unknown = sorted(wanted - given), sorted(given - wanted)
        raise ValueError(
            f"{name} row does not match its table: missing {missing}, unknown {unknown}"
        )


def columns_to_table(name: str, columns: dict[str, Any], dim: int) -> pa.Table:
    """Columns (lists; vectors may be one 2-D array) as an Arrow table of `name`'s schema."""
    schema = schema_for(name, dim)
    _check_columns(name, columns, schema)
    arrays = [
        _vector_array(columns[f.name], dim).cast(f.type)
        if pa.types.is_fixed_size_list(f.type)
        else pa.array(columns[f.name], type=f.type)
        for f in schema
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def rows_to_table(name: str, rows: Iterable[dict[str, Any]], dim: int) -> pa.Table:
    """Rows as an Arrow table of `name`'s schema (each row checked like the columns)."""
    schema = schema_for(name, dim)
    columns: dict[str, list[Any]] = {n: [] for n in schema.names}
    for r in rows:
        if r.keys() != columns.keys():
            _check_columns(name, r, schema)
        for n, values in columns.items():
            values.append(r[n])
    return columns_to_table(name, columns, dim)


def stored_message_columns(memory: UserMemory) -> dict[str, Any]:
    """The messages table's columns: each message, its search text, its vector and the
    snapshot/trajectory that holds it (built column by column: a build writes millions)."""
    messages = memory.messages
    snapshot_of = {mid: s.snapshot_id for s in memory.snapshots for mid in s.message_ids}
    trajectory_of = {n.snapshot_id: n.trajectory_id for n in memory.nodes}
    columns: dict[str, Any] = message_columns(messages)
    snapshots = [snapshot_of.get(m.message_id) for m in messages]
    columns["row_id"] = [stable_id("msg", m.user_id, m.message_id) for m in messages]
    columns["search_text"] = [m.search_text for m in messages]
    columns["snapshot_id"] = snapshots
    columns["trajectory_id"] = [trajectory_of.get(s or "") for s in snapshots]
    columns["vector"] = memory.message_vectors
    return columns


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
    tables["messages"] = columns_to_table("messages", stored_message_columns(memory), dim)
    return tables
