"""Content-keyed caches in Parquet part files, safe for many concurrent writers.

Layout: `<root>/<fingerprint>/part-<uuid>.parquet`. The fingerprint directory is named by a
digest of what decides a row besides its key (an extractor's model and prompt, an
embedder's model), written next to it as `fingerprint.json`. Writers only ever add files,
each whole or absent (one object-store PUT, or a local file renamed into place:
`storage.paths.write_parquet`), so a crashed run leaves only whole files and a rerun finds
everything written before it. `root` may be a local path or an `s3://` (`gs://`, `az://`) URI.
Used by the extraction cache (drafts by window) and the embedding cache (vectors by text).
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from arborwiki.storage import paths

COMPACT_AT_FILES = 64
"""More part files than this are merged into one after a build (fewer opens per lookup)."""


def _part_files(directory: str) -> list[str]:
    return paths.list_files(directory, recursive=False, pattern="part-*.parquet")


def drop_rows(root: str, matches: dict[str, Iterable[str]]) -> int:
    """Remove the rows whose value in any column of `matches` is one of its values, from
    every fingerprint under `root` (what `forget` needs), in one pass over the part files.
    A part file holding one is rewritten without it, or removed when nothing else is left;
    a column a part lacks (written before it) matches nothing there. Returns how many rows
    went. Run it when no build writes here."""
    wanted = {c: pa.array(sorted(set(v)), type=pa.string()) for c, v in matches.items()}
    wanted = {c: v for c, v in wanted.items() if len(v)}
    if not wanted or not paths.exists(root):
        return 0
    removed = 0
    for directory in paths.list_dirs(root):
        for file in _part_files(directory):
            columns = [c for c in wanted if c in paths.parquet_schema(file).names]
            if not columns:
                continue
            table = paths.read_parquet(file, columns=columns)
            hits = [pc.is_in(table.column(c), wanted[c]) for c in columns]
            hit = functools.reduce(pc.or_, hits)
            found = pc.sum(hit).as_py() or 0
            if not found:
                continue  # only the matched columns of a file that holds none were read
            kept = paths.read_parquet(file).filter(pc.invert(hit))  # same rows, same order
            if kept.num_rows:
                paths.write_parquet(kept, paths.join(directory, f"part-{uuid.uuid4().hex}.parquet"))
            paths.remove(file)
            removed += found
    return removed


class PartCache:
    """Rows of one identity under `root`: looked up by a key column, added a file at a time."""

    def __init__(self, root: str | Path, identity: dict[str, Any], schema: pa.Schema) -> None:
        payload = json.dumps(identity, sort_keys=True, ensure_ascii=False)
        self.fingerprint = hashlib.blake2b(payload.encode(), digest_size=10).hexdigest()
        self.dir = paths.join(str(root), self.fingerprint)
        self.schema = schema
        paths.makedirs(self.dir)
        ident = paths.join(self.dir, "fingerprint.json")
        if not paths.exists(ident):
            paths.write_text(ident, payload)

    def _files(self) -> list[str]:
        return _part_files(self.dir)

    def scan(self, column: str, values: Iterable[str], columns: list[str]) -> pa.Table:
        """The rows whose `column` is one of `values` (only `columns` read)."""
        wanted = pa.array(sorted(set(values)), type=pa.string())
        files = self._files()
        if not files or len(wanted) == 0:
            return self.schema.empty_table().select(columns)
        dataset = paths.parquet_dataset(files, schema=self.schema)
        return dataset.to_table(columns=columns, filter=pc.is_in(pc.field(column), wanted))

    def add(self, columns: dict[str, Any]) -> None:
        """Add one part file, whole or absent (never a half-written part)."""
        table = pa.Table.from_pydict(columns, schema=self.schema)
        if table.num_rows:
            paths.write_parquet(table, paths.join(self.dir, f"part-{uuid.uuid4().hex}.parquet"))

    def compact(self, at_files: int = COMPACT_AT_FILES) -> None:
        """Merge part files into one when there are more than `at_files` (run by the driver
        after the build, when no writer is active)."""
        files = self._files()
        if len(files) <= at_files:
            return
        table = paths.parquet_dataset(files, schema=self.schema).to_table()
        paths.write_parquet(table, paths.join(self.dir, f"part-{uuid.uuid4().hex}.parquet"))
        for file in files:
            paths.remove(file)
