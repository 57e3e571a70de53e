"""A user's memory as Arrow tables: the column-wise messages table equals the row-by-row
one, and vectors a table cannot hold are stored as zero vectors, never failing a commit."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest

from arborwiki.backends.extractors import build_labeled_extractor
from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.records import StoredMessage, stable_id
from arborwiki.core.schema import record_row
from arborwiki.core.windows import order_messages
from arborwiki.storage.tables import columns_to_table, memory_tables, rows_to_table, schema_for
from arborwiki.synthetic import generate_archive

DIM = 4


def _reference_messages(memory, dim: int) -> pa.Table:  # noqa: ANN001
    """The messages table built the plain way: one validated StoredMessage per row."""
    snapshot_of = {mid: s.snapshot_id for s in memory.snapshots for mid in s.message_ids}
    trajectory_of = {n.snapshot_id: n.trajectory_id for n in memory.nodes}
    rows = []
    for message, vector in zip(memory.messages, memory.message_vectors, strict=True):
        sid = snapshot_of.get(message.message_id)
        stored = StoredMessage(
            **message.model_dump(),
            row_id=stable_id("msg", message.user_id, message.message_id),
            search_text=message.search_text,
            snapshot_id=sid,
            trajectory_id=trajectory_of.get(sid or ""),
            vector=vector.tolist(),
        )
        rows.append(record_row(stored))
    return pa.Table.from_pylist(rows, schema=schema_for("messages", dim))


def test_messages_table_equals_the_row_by_row_table() -> None:
    cfg = Config()
    embedder = load_embedder()
    messages = order_messages(generate_archive(1, seed=5, sessions=6))
    messages[3] = messages[3].model_copy(update={"extra": {"caption": "a dog", "url": "x"}})
    memory = build_user_memory(messages, cfg, build_labeled_extractor(cfg.extract), embedder)
    table = memory_tables(memory, embedder.dim)["messages"]
    assert table.num_rows == len(messages)
    assert table.equals(_reference_messages(memory, embedder.dim))


def _row(i: int, vector: object) -> dict[str, object]:
    return {
        "page_id": f"p{i}",
        "user_id": "u",
        "kind": "topic",
        "title": "t",
        "markdown": "# t",
        "trajectory_ids": [],
        "links": [],
        "items": [],
        "parent_page_id": None,
        "part_index": 0,
        "part_count": 1,
        "vector": vector,
    }


@pytest.mark.parametrize(
    "bad", [None, [], [1.0, 2.0], [0.1, math.nan, 0.2, 0.3], [math.inf, 0.0, 0.0, 0.0]]
)
def test_an_unstorable_vector_is_stored_as_zeros_and_the_rest_kept(bad: object) -> None:
    good = [0.5, -0.25, 0.0, 1.0]
    table = rows_to_table("wiki_pages", [_row(0, good), _row(1, bad), _row(2, good)], DIM)
    assert table["vector"].to_pylist() == [good, [0.0] * DIM, good]


def test_vectors_may_come_as_one_array_with_a_bad_row() -> None:
    vectors = np.array([[0.5, 0.5, 0.5, 0.5], [np.nan, 0, 0, 0]], dtype=np.float32)
    columns = {k: [v, v] for k, v in _row(0, None).items() if k != "vector"}
    columns["page_id"] = ["p0", "p1"]
    table = columns_to_table("wiki_pages", {**columns, "vector": vectors}, DIM)
    assert table["vector"].to_pylist() == [[0.5] * DIM, [0.0] * DIM]


def test_a_row_missing_or_adding_a_column_is_refused() -> None:
    row = _row(0, [0.0] * DIM)
    with pytest.raises(ValueError, match=r"missing \['vector'\], unknown \[\]"):
        rows_to_table("wiki_pages", [{k: v for k, v in row.items() if k != "vector"}], DIM)
    with pytest.raises(ValueError, match=r"unknown \['typo'\]"):
        rows_to_table("wiki_pages", [row, {**row, "typo": 1}], DIM)
