"""Shards are submitted largest first (by input bytes), ties by shard number."""

from __future__ import annotations

from pathlib import Path

from arborwiki.cluster.scheduling import largest_first
from arborwiki.cluster.stages import ShardJob


def test_largest_shards_go_first(tmp_path: Path) -> None:
    sizes = {0: [10], 1: [300, 5], 2: [200], 3: [10], 4: [400]}
    todo = {}
    for shard, parts in sizes.items():
        files = []
        for i, size in enumerate(parts):
            file = tmp_path / f"shard-{shard}-{i}.parquet"
            file.write_bytes(b"x" * size)
            files.append(str(file))
        todo[shard] = ShardJob(shard, files, [], str(tmp_path / f"out-{shard}"))
    assert largest_first(todo) == [4, 1, 2, 0, 3]
