"""The user → shard hash is pinned: changing it would reshuffle every store."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from arborwiki.cluster.sharding import partition_archive, shard_of


def test_shard_of_is_pinned_blake2b() -> None:
    # blake2b-64 of b"alice" as a big-endian integer, mod 8 / mod 1000, computed independently.
    digest = int.from_bytes(hashlib.blake2b(b"alice", digest_size=8).digest(), "big")
    assert shard_of("alice", 8) == digest % 8
    assert shard_of("alice", 1000) == digest % 1000
    assert [shard_of(u, 8) for u in ("alice", "bob", "o'connor", "user-4")] == [
        shard_of(u, 8) for u in ("alice", "bob", "o'connor", "user-4")
    ]


def test_shard_values_are_stable_literals() -> None:
    # Literal values: a change of hash function, encoding or byte order fails here.
    assert shard_of("alice", 8) == 1
    assert shard_of("bob", 8) == 2
    assert shard_of("ünïcode ' OR 1=1 --", 16) == 15


def test_shard_sizes_balance_over_many_users() -> None:
    sizes = [0] * 8
    for i in range(8000):
        sizes[shard_of(f"user-{i:05d}", 8)] += 1
    assert min(sizes) > 900 and max(sizes) < 1100


def test_partition_keeps_every_row(tmp_path: Path) -> None:
    rows = [
        {
            "user_id": f"u{i % 5}",
            "message_id": f"m{i}",
            "text": f"hello {i}",
            "timestamp": "2024-01-01T10:00:00Z",
        }
        for i in range(40)
    ]
    lines = [json.dumps(r) for r in rows] + ["{not json", json.dumps({"user_id": "u1"})]
    src = tmp_path / "a.jsonl"
    src.write_text("\n".join(lines) + "\n")
    part = partition_archive(str(src), tmp_path / "out", num_shards=3, batch_rows=7)
    assert part.rows_read == 42
    assert part.rows_valid == 40 and part.rows_quarantined == 2
    assert set().union(*part.users.values()) == {f"u{i}" for i in range(5)}
    for shard, users in part.users.items():
        assert all(shard_of(u, 3) == shard for u in users)
    again = partition_archive(str(src), tmp_path / "out2", num_shards=3, batch_rows=7)
    assert again.digests == part.digests
