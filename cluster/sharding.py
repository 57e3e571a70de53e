"""Stable user → shard assignment and the partition of an archive, one task per input file
or per piece of a large JSONL file.

Stage 1 of the build (read + validate + partition): `ReadStage`, a `ReadPiece` in and a
`FilePartition` out. `partition_file` streams one input file (or one byte range of a JSONL
file, cut at line starts) in record batches (never the whole file in memory), quarantines
invalid rows and appends each batch's rows to per-shard Parquet parts; the build runs the
stage as one Ray task per file or piece, nightly's dry run and `partition_archive` run the
same code in-process. `merge_partitions` puts the per-file results together
in input order and gives each shard a content digest (so an unchanged shard is recognised
on the next run) and the quarantine a digest of its own (so a run whose only change is a
bad row still commits).

Duplicates of (user_id, message_id) are caught inside a file (piece) by the reader; across
files and pieces they meet again in the same shard (same user) and `dedupe_messages`
quarantines the later copies there.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from arborwiki.cluster.stage_shape import CpuStage, run_once
from arborwiki.core.config import Config
from arborwiki.core.records import Message, QuarantineRow
from arborwiki.storage import paths
from arborwiki.storage.archive import (
    ArchiveBatch,
    archive_files,
    read_archive,
    read_jsonl_tail,
    whole_file_on_failure,
)
from arborwiki.storage.archive.rows import RowValidator
from arborwiki.storage.tables import record_row, rows_to_table
from arborwiki.storage.tombstones import Tombstones, drop_forgotten, forgotten_line

DUPLICATE_REASON = "duplicate message_id for user"


def shard_of(user_id: str, num_shards: int) -> int:
    """blake2b of the UTF-8 user id, mod num_shards: stable across runs, hosts and versions."""
    digest = hashlib.blake2b(user_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % num_shards


def _ipc_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@dataclass
class FilePartition:
    """What one input file became: shard parts (with digests), quarantine parts, counts."""

    file_index: int
    source: str
    parts: list[tuple[int, str, str]] = field(default_factory=list)  # shard, path, digest
    users: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    quarantine_files: list[str] = field(default_factory=list)
    quarantine_digest: str = ""
    rows_read: int = 0
    rows_valid: int = 0
    rows_quarantined: int = 0
    rows_forgotten: int = 0  # rows a tombstone names (storage/tombstones.py): dropped
    max_timestamp: str | None = None  # ISO time of its latest valid message
    defaulted_turns: int = 0  # tail rows without a turn_index (nightly: counted from the tail)
    piece: int = 0  # which byte range of a file read in pieces (storage.increment.Pieces)
    unreadable: str | None = None  # why the read stopped (one file-level quarantine row)


def partition_file(
    file_index: int,
    path: str,
    out_dir: str,
    num_shards: int,
    batch_rows: int = 50_000,
    start_byte: int = 0,
    first_line: int = 1,
    fmt: str | None = None,
    end_byte: int | None = None,
    piece: int = 0,
    forgotten: Tombstones | None = None,
) -> FilePartition:
    """Stream one file into out_dir/shard-K/part-F-P-N.parquet; quarantine into
    out_dir/quarantine.

    With `start_byte` > 0 (a JSONL file that grew) only the bytes after it are read; with
    `end_byte` too, one piece of a JSONL file read in parallel (`piece` numbers it). `fmt`
    names the archive format (`storage.archive.FORMATS`); None: by suffix. Rows that
    `forgotten` names are dropped and counted, never written anywhere.
    """
    out = str(out_dir)
    result = FilePartition(file_index=file_index, source=path, piece=piece)
    quarantine_hash = hashlib.blake2b(digest_size=16)
    validator = RowValidator()
    batches = (
        read_jsonl_tail(path, start_byte, first_line, validator, batch_rows, end_byte)
        if start_byte or end_byte is not None
        else read_archive(path, batch_rows=batch_rows, fmt=fmt)
    )
    latest = None
    for n, batch in enumerate(whole_file_on_failure(batches, path, validator)):
        stem = f"part-{file_index:06d}-{piece:04d}-{n:06d}.parquet"
        if batch.unreadable:
            result.unreadable = batch.unreadable
        result.rows_read += batch.rows_read
        if forgotten:
            batch = _without_forgotten(batch, forgotten, result)
        result.rows_valid += batch.table.num_rows
        result.rows_quarantined += len(batch.quarantine)
        if batch.quarantine:
            qtable = rows_to_table("quarantine", map(record_row, batch.quarantine), 1)
            qfile = paths.join(out, "quarantine", stem)
            paths.write_parquet(qtable, qfile)
            result.quarantine_files.append(qfile)
            quarantine_hash.update(_ipc_bytes(qtable))
        if batch.table.num_rows:
            batch_latest = _write_shards(batch.table, out, stem, num_shards, result)
            latest = batch_latest if latest is None else max(latest, batch_latest)
    result.quarantine_digest = quarantine_hash.hexdigest() if result.quarantine_files else ""
    result.max_timestamp = latest.isoformat() if latest is not None else None
    result.defaulted_turns = validator.defaulted_turns
    return result


@dataclass(frozen=True)
class ReadPiece:
    """The read stage's unit of work: one input file, or one byte range of a JSONL file (a
    large one read in pieces, or the tail a nightly run reads), and the staging dir its
    parts go to. Rows `forgotten` names are dropped as they are read."""

    file_index: int
    path: str
    staging: str
    start_byte: int = 0
    first_line: int = 1
    end_byte: int | None = None
    piece: int = 0
    fmt: str | None = None
    forgotten: Tombstones | None = None


class ReadStage(CpuStage):
    """CPU: one input file (or piece) → its valid rows in per-shard Parquet parts, the rest
    quarantined (`partition_file`). Nothing to set up: a reader is opened per file."""

    def process_batch(self, piece: ReadPiece) -> FilePartition:
        return partition_file(
            piece.file_index,
            piece.path,
            piece.staging,
            self.cfg.ray.num_shards,
            self.cfg.build.read_batch_rows,
            piece.start_byte,
            piece.first_line,
            piece.fmt,
            piece.end_byte,
            piece.piece,
            piece.forgotten,
        )


def run_read(cfg: Config, piece: ReadPiece) -> FilePartition:
    """The read stage for one piece, as the build's Ray task runs it. Here, not beside the
    other stages' runners in cluster/scheduling.py: a read task's worker imports only what
    reading needs (scheduling's imports cost ~1.9 s more, and the build waits on the read)."""
    return run_once(ReadStage, cfg, "", piece)


def _write_shards(
    table: pa.Table, out: str, stem: str, num_shards: int, result: FilePartition
) -> Any:
    """One batch's valid rows into out/shard-K/<stem>, by user; returns its latest time."""
    users = table.column("user_id").to_pylist()
    shards = pa.array([shard_of(u, num_shards) for u in users], type=pa.int32())
    for shard in sorted(set(shards.to_pylist())):
        rows = table.filter(pc.equal(shards, shard))
        file = paths.join(out, f"shard-{shard:05d}", stem)
        paths.write_parquet(rows, file)
        digest = hashlib.blake2b(_ipc_bytes(rows), digest_size=16).hexdigest()
        result.parts.append((shard, file, digest))
        result.users[shard].update(rows.column("user_id").to_pylist())
    return pc.max(table.column("timestamp")).as_py()


def _without_forgotten(
    batch: ArchiveBatch, forgotten: Tombstones, result: FilePartition
) -> ArchiveBatch:
    table, dropped = drop_forgotten(batch.table, forgotten)
    quarantine = [q for q in batch.quarantine if not forgotten_line(q, forgotten)]
    result.rows_forgotten += dropped + len(batch.quarantine) - len(quarantine)
    return ArchiveBatch(table, quarantine, batch.rows_read)


def discard_outputs(result: FilePartition) -> None:
    """Delete what one partition task wrote (a file read in pieces that is read again whole)."""
    for _, path, _ in result.parts:
        paths.remove(path)
    for path in result.quarantine_files:
        paths.remove(path)


def pieces_agree(pieces: list[FilePartition]) -> bool:
    """Whether a file read in pieces got the turn_index defaults a whole read gives.

    A row without a turn_index gets the count of its (user, conversation, session) group's
    earlier rows in the file; a piece counts from its own start. The first piece's counts
    are the file's; a later piece that counted any turn may be off, and the file is read
    again whole. (The build does not cut a file whose first row lacks a turn_index.)
    """
    return all(p.defaulted_turns == 0 for p in pieces if p.piece > 0)


@dataclass
class Partition:
    """Where a run's input went: per-shard Parquet parts, digests, users and counts."""

    root: str
    num_shards: int
    sources: list[str] = field(default_factory=list)
    files: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    users: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    digests: dict[int, str] = field(default_factory=dict)
    quarantine_files: list[str] = field(default_factory=list)
    quarantine_digest: str = ""
    rows_read: int = 0
    rows_valid: int = 0
    rows_quarantined: int = 0
    rows_forgotten: int = 0
    per_file: list[FilePartition] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)  # file → why it stopped


def merge_partitions(
    out_dir: str | Path, num_shards: int, results: Iterable[FilePartition]
) -> Partition:
    """Per-file results in input order → one Partition with shard and quarantine digests."""
    part = Partition(root=str(out_dir), num_shards=num_shards)
    hashers: dict[int, Any] = defaultdict(lambda: hashlib.blake2b(digest_size=16))
    quarantine_hash = hashlib.blake2b(digest_size=16)
    for result in sorted(results, key=lambda r: (r.file_index, r.piece)):
        part.per_file.append(result)
        if result.piece == 0:  # sources are per file: a part's name gives its file index
            part.sources.append(result.source)
        part.rows_read += result.rows_read
        part.rows_valid += result.rows_valid
        part.rows_quarantined += result.rows_quarantined
        part.rows_forgotten += result.rows_forgotten
        part.quarantine_files.extend(result.quarantine_files)
        if result.unreadable:
            part.unreadable[result.source] = result.unreadable
        quarantine_hash.update(result.quarantine_digest.encode())
        for shard, path, digest in result.parts:
            part.files[shard].append(path)
            hashers[shard].update(digest.encode())
        for shard, users in result.users.items():
            part.users[shard].update(users)
    part.digests = {shard: h.hexdigest() for shard, h in sorted(hashers.items())}
    part.quarantine_digest = quarantine_hash.hexdigest() if part.quarantine_files else ""
    return part


def partition_archive(
    path: str,
    out_dir: str | Path,
    num_shards: int,
    batch_rows: int = 50_000,
    fmt: str | None = None,
) -> Partition:
    """The whole read stage in-process: every file of `path`, one after the other."""
    files = archive_files(path, fmt)
    results = [
        partition_file(i, str(f), str(out_dir), num_shards, batch_rows, fmt=fmt)
        for i, f in enumerate(files)
    ]
    return merge_partitions(out_dir, num_shards, results)


def dedupe_messages(
    items: list[tuple[Message, str]],
) -> tuple[list[Message], list[QuarantineRow]]:
    """Keep each (user_id, message_id) once, the first in input order; quarantine the rest.

    `items` are (message, input file) in input order (parts sorted by file, then batch).
    """
    seen: dict[tuple[str, str], str] = {}  # key → the input file of its first copy
    kept: list[Message] = []
    dropped: list[QuarantineRow] = []
    validator = RowValidator()
    for message, source in items:
        key = (message.user_id, message.message_id)
        if key in seen:
            # A file read in pieces meets its own earlier copies here, not in the reader.
            where = "earlier in the file" if seen[key] == source else "another input file"
            location = f"{paths.name(source)} (message {message.message_id}, {where})"
            raw = message.model_dump_json()
            dropped.append(
                validator.quarantine(DUPLICATE_REASON, source, location, raw, message.user_id)
            )
            continue
        seen[key] = source
        kept.append(message)
    return kept, dropped


def add_table_part(
    part: Partition, rows: pa.Table, source: str, staging: str, first: bool = False
) -> list[str]:
    """Add rows the store holds (MESSAGE_SCHEMA) to a read as one more input file: its
    rows split by shard into `part-<file index>-000000.parquet` parts, folded into the
    shard digests and users. `first`: file index 0, read before every archive file (a
    nightly's stored messages; the read left index 0 free); else after the last file (the
    online inbox). Returns the users the rows hold."""
    index = 0 if first else len(part.sources)
    if first:
        part.sources.insert(0, source)
    else:
        part.sources.append(source)
    if rows.num_rows == 0:
        return []
    owners = rows.column("user_id").to_pylist()
    shards = pa.array([shard_of(u, part.num_shards) for u in owners])
    for shard in sorted(set(shards.to_pylist())):
        subset = rows.filter(pc.equal(shards, shard))
        file = paths.join(staging, f"shard-{shard:05d}", f"part-{index:06d}-000000.parquet")
        paths.write_parquet(subset, file)
        if first:
            part.files[shard].insert(0, file)
        else:
            part.files[shard].append(file)
        part.users[shard].update(subset.column("user_id").to_pylist())
        digest = hashlib.blake2b(digest_size=16)
        digest.update(paths.read_bytes(file))
        digest.update(part.digests.get(shard, "").encode())
        part.digests[shard] = digest.hexdigest()
    return sorted(set(owners))
