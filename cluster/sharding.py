"""Stable user → shard assignment and the driver-side partition of an archive.

The driver streams the archive in record batches (never the whole archive in memory),
quarantines invalid rows, and appends each batch's rows to per-shard Parquet parts.
Each shard gets a content digest, so a shard whose input and config are unchanged is
recognised on the next run and skipped.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from arborwiki.storage.archive import read_archive
from arborwiki.storage.tables import record_row, rows_to_table


def shard_of(user_id: str, num_shards: int) -> int:
    """blake2b of the UTF-8 user id, mod num_shards: stable across runs, hosts and versions."""
    digest = hashlib.blake2b(user_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % num_shards


@dataclass
class Partition:
    """Where a run's input went: per-shard Parquet parts, digests, users and counts."""

    root: Path
    num_shards: int
    files: dict[int, list[Path]] = field(default_factory=lambda: defaultdict(list))
    users: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    digests: dict[int, str] = field(default_factory=dict)
    quarantine_files: list[Path] = field(default_factory=list)
    rows_read: int = 0
    rows_valid: int = 0
    rows_quarantined: int = 0


def _ipc_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def partition_archive(
    path: str, out_dir: Path, num_shards: int, batch_rows: int = 50_000
) -> Partition:
    """Stream `path` into out_dir/shard-K/part-N.parquet; quarantine into out_dir/quarantine."""
    part = Partition(root=out_dir, num_shards=num_shards)
    hashers = defaultdict(lambda: hashlib.blake2b(digest_size=16))
    for n, batch in enumerate(read_archive(path, batch_rows=batch_rows)):
        part.rows_read += batch.rows_read
        part.rows_valid += batch.table.num_rows
        part.rows_quarantined += len(batch.quarantine)
        if batch.quarantine:
            qfile = out_dir / "quarantine" / f"part-{n:06d}.parquet"
            qfile.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(rows_to_table("quarantine", map(record_row, batch.quarantine), 1), qfile)
            part.quarantine_files.append(qfile)
        if batch.table.num_rows == 0:
            continue
        users = batch.table.column("user_id").to_pylist()
        shards = pa.array([shard_of(u, num_shards) for u in users], type=pa.int32())
        for shard in sorted(set(shards.to_pylist())):
            rows = batch.table.filter(pc.equal(shards, shard))
            file = out_dir / f"shard-{shard:05d}" / f"part-{n:06d}.parquet"
            file.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(rows, file)
            part.files[shard].append(file)
            part.users[shard].update(rows.column("user_id").to_pylist())
            hashers[shard].update(_ipc_bytes(rows))
    part.digests = {shard: h.hexdigest() for shard, h in sorted(hashers.items())}
    return part
