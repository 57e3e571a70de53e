"""A writer killed after its table writes and before its `runs` row left rows no run
published; the next build must not adopt them (issue 35, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from arborwiki.cluster.build import run_build
from arborwiki.core.config import load_config
from arborwiki.core.embedding import embedder_for
from arborwiki.storage.lance_store import LanceStore
from tests.conftest import EXAMPLES


def _users_archive(path: Path, users: set[str]) -> None:
    lines = (EXAMPLES / "sample_archive.jsonl").read_text().splitlines()
    kept = []
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if row.get("user_id") in users:
            kept.append(line)
    path.write_text("\n".join(kept) + "\n")


def test_rows_a_killed_commit_wrote_are_not_published_by_the_next_build(
    ray_local: None, tmp_path: Path
) -> None:
    cfg = load_config(overrides=["ray.num_shards=1"])
    store_dir = tmp_path / "store"
    _users_archive(tmp_path / "a.jsonl", {"alice", "bob"})
    first = run_build(str(tmp_path / "a.jsonl"), str(store_dir), cfg)
    # What `kill -9` during a commit leaves: table versions past the latest run's, no run row.
    store = LanceStore(store_dir)
    bob = store.table("messages").to_arrow().filter(pc.equal(pc.field("user_id"), "bob"))
    ghost = bob.set_column(
        bob.schema.get_field_index("user_id"), "user_id", pa.array(["ghost"] * bob.num_rows)
    )
    ghost = ghost.set_column(
        ghost.schema.get_field_index("row_id"),
        "row_id",
        pc.binary_join_element_wise(ghost["row_id"], "-ghost", ""),
    )
    store.upsert("messages", ghost, embedder_for(cfg.embed).dim)
    store.table("claims").delete("user_id = 'alice'")  # a half-done replace of alice
    assert store.count("messages", "user_id = 'ghost'") == bob.num_rows > 0

    _users_archive(tmp_path / "c.jsonl", {"user-4"})
    second = run_build(str(tmp_path / "c.jsonl"), str(store_dir), cfg)

    assert second.committed and second.run_id != first.run_id
    now = LanceStore(store_dir, follow_runs=True)
    assert now.count("messages", "user_id = 'ghost'") == 0
    assert now.count("claims", "user_id = 'alice'") > 0  # the delete was undone too
    users = set(now.table("messages").to_arrow().column("user_id").to_pylist())
    assert users == {"alice", "bob", "user-4"}
    assert [r["run_id"] for r in now.runs()] == [first.run_id, second.run_id]
