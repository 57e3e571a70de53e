"""What a run consumed of each input file (its watermark) and what is new since then.

A committed run records, per input file, the bytes it read: size, modification time, a
blake2b digest of those bytes and their line count (`FileMark`). The next nightly run
compares the archive with that record (`compare_files`):

- a file it never saw is **new** (read whole);
- a file whose size and mtime are unchanged is **unchanged** (one `stat`, no read);
- a JSONL file that grew, whose first `size` bytes still hash to the recorded digest and
  end with a newline, was **appended** to (only the bytes after the old size are read);
- anything else (rewritten, truncated, a Parquet/LoCoMo file that changed) is **changed**,
  and a file the last run read that is gone is **removed**: the nightly run then rebuilds
  everything, because stored messages do not say which file they came from.

`stored_messages` gives back the stored messages of some users as archive rows, so a
touched user is rebuilt from everything it said, not only from what is new.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import pyarrow as pa

from arborwiki.core.schema import MESSAGE_SCHEMA
from arborwiki.storage import paths
from arborwiki.storage.archive import input_identity
from arborwiki.storage.archive.formats import FORMATS
from arborwiki.storage.lance_store import LanceStore, sql_in

READ_CHUNK_BYTES = 1 << 20
ChangeKind = Literal["new", "appended", "unchanged", "changed", "removed"]

JSONL_SUFFIXES = FORMATS["jsonl"].suffixes


@dataclass
class FileMark:
    """What a run read of one input file (kept in the `runs` row's watermark)."""

    path: str
    size: int
    mtime_ns: int
    digest: str
    lines: int
    rows: int = 0  # rows read from it in total (valid and quarantined), this run and before
    max_timestamp: str | None = None  # latest valid message time read from it

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FileMark:
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__})  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FileChange:
    """One input file compared with the last run's mark, and its mark after this run."""

    path: str
    kind: ChangeKind
    mark: FileMark | None
    start_byte: int = 0  # where the new data begins
    first_line: int = 1  # its first line's number (JSONL locations go on from the old ones)

    @property
    def new_bytes(self) -> int:
        return (self.mark.size if self.mark else 0) - self.start_byte

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "new_bytes": self.new_bytes if self.kind in ("new", "appended") else 0,
            "first_line": self.first_line,
        }


@dataclass
class Pieces:
    """Where a JSONL file is cut to be read in parallel: (byte, line number) of the first
    line starting at or after every `every` bytes (line starts, so no row is cut)."""

    every: int
    starts: list[tuple[int, int]] = field(default_factory=lambda: [(0, 1)])

    def feed(self, chunk: bytes, offset: int, lines_before: int) -> None:
        """Record the cuts that fall in `chunk` (it starts at byte `offset`)."""
        wanted = self.starts[-1][0] + self.every
        while wanted <= offset + len(chunk):
            at = chunk.find(b"\n", max(wanted - 1 - offset, 0))
            if at < 0:
                return  # the line goes on into the next chunk
            start = offset + at + 1
            self.starts.append((start, lines_before + chunk.count(b"\n", 0, at + 1) + 1))
            wanted = start + self.every

    def ranges(self, size: int) -> list[tuple[int, int, int]]:
        """(start byte, first line, end byte) of each piece of a file of `size` bytes."""
        starts = [s for s in self.starts if s[0] < size] or [(0, 1)]
        ends = [s[0] for s in starts[1:]] + [size]
        return [(b, line, end) for (b, line), end in zip(starts, ends, strict=True)]


def _hash_file(
    path: str, split_at: int | None = None, pieces: Pieces | None = None
) -> tuple[str, int, str | None, bool]:
    """(digest, lines) of the whole file; with `split_at`, also the digest of the first
    `split_at` bytes and whether they end with a newline; `pieces` records where to cut the
    file. One pass over the file."""
    whole = hashlib.blake2b(digest_size=16)
    prefix_digest, prefix_newline, lines, done, last = None, False, 0, 0, b""
    with paths.open_input(path) as handle:
        while chunk := handle.read(READ_CHUNK_BYTES):
            if pieces is not None:
                pieces.feed(chunk, done, lines)
            if split_at is not None and prefix_digest is None and done + len(chunk) >= split_at:
                head = chunk[: split_at - done]
                whole.update(head)
                prefix_digest = whole.copy().hexdigest()
                prefix_newline = (last + head).endswith(b"\n") or split_at == 0
                whole.update(chunk[split_at - done :])
            else:
                whole.update(chunk)
            lines += chunk.count(b"\n")
            done += len(chunk)
            last = chunk[-1:]
    return whole.hexdigest(), lines, prefix_digest, prefix_newline


def mark_file(path: str, pieces: Pieces | None = None) -> FileMark:
    """Stat and hash one input file as it is now (and, given `pieces`, find its cuts in the
    same pass)."""
    size, mtime_ns = paths.size_and_mtime(path)
    digest, lines, _, _ = _hash_file(path, pieces=pieces)
    return FileMark(input_identity(path), size, mtime_ns, digest, lines)


def is_jsonl(path: str, fmt: str | None = None) -> bool:
    """A JSONL file: by the named format, else by suffix (the files that can be appended to
    and read in pieces)."""
    if paths.compression(path) is not None:  # a compressed stream is read whole, never cut
        return False
    return fmt == "jsonl" if fmt is not None else paths.suffix(path).lower() in JSONL_SUFFIXES


def compare_file(path: str, previous: FileMark | None, fmt: str | None = None) -> FileChange:
    """How `path` differs from what the last run read of it (see the module docstring); only a
    JSONL file (by suffix, or every file when `fmt` is "jsonl") can have grown by appending."""
    ident = input_identity(path)
    if previous is None:
        return FileChange(ident, "new", mark_file(path))
    size, mtime_ns = paths.size_and_mtime(path)
    if size == previous.size and mtime_ns == previous.mtime_ns:
        return FileChange(ident, "unchanged", previous, start_byte=previous.size)
    appendable = is_jsonl(path, fmt) and size > previous.size
    digest, lines, prefix, newline = _hash_file(path, previous.size if appendable else None)
    mark = FileMark(ident, size, mtime_ns, digest, lines, previous.rows)
    mark.max_timestamp = previous.max_timestamp
    if appendable and prefix == previous.digest and newline:
        return FileChange(ident, "appended", mark, previous.size, previous.lines + 1)
    if digest == previous.digest:  # touched, same bytes
        return FileChange(ident, "unchanged", mark, start_byte=mark.size)
    return FileChange(ident, "changed", mark)


def compare_files(
    files: list[str], previous: dict[str, FileMark], fmt: str | None = None
) -> list[FileChange]:
    """Every current input file compared with its mark, then the marked files now gone."""
    changes = [compare_file(f, previous.get(input_identity(f)), fmt) for f in files]
    seen = {c.path for c in changes}
    changes += [FileChange(p, "removed", None) for p in sorted(previous) if p not in seen]
    return changes


def stored_messages(store: LanceStore, users: list[str]) -> pa.Table:
    """The stored messages of `users` as archive rows (MESSAGE_SCHEMA), in stored order."""
    if not users or not store.has("messages"):
        return MESSAGE_SCHEMA.empty_table()
    table = (
        store.table("messages")
        .search()
        .where(sql_in("user_id", users))
        .select(MESSAGE_SCHEMA.names)
        .limit(None)
        .to_arrow()
    )
    return table.select(MESSAGE_SCHEMA.names).cast(MESSAGE_SCHEMA)
