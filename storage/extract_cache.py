"""The extraction cache: a window's draft, keyed by window content and extractor identity.

Layout: `<root>/<fingerprint>/part-<uuid>.parquet` with columns (key, extractor, draft).
The fingerprint directory is named by a digest of what decides a draft besides the window
(backend, model, decoding settings, prompt and schema: `backends.extractors.
extractor_fingerprint`), written next to it as `fingerprint.json`; the key is the window's
content digest. Writers only ever add files, each whole or absent (one object-store PUT, or
a local file renamed into place: `storage.paths.write_parquet`), so many actors can write at
once and a crashed run leaves only whole files: a rerun, a resumed run or a later run never
sends a cached window to the model again. `root` may be a local path or an `s3://` (`gs://`,
`az://`) URI.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from arborwiki.core.extract.base import Extraction
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.storage import paths

SCHEMA = pa.schema(
    [
        pa.field("key", pa.string(), nullable=False),
        pa.field("extractor", pa.string(), nullable=False),
        pa.field("draft", pa.string(), nullable=False),
    ]
)
COMPACT_AT_FILES = 64
"""More part files than this are merged into one after a build (fewer opens per lookup)."""
STORE_CACHE = ("_cache", "extract")
"""Where the cache lives under the store when `extract.cache_dir` is not set."""


def cache_root(cache_dir: str | None, store_dir: str) -> str:
    """`extract.cache_dir`, or the store's own cache folder."""
    return cache_dir or paths.join(store_dir, *STORE_CACHE)


def _part_files(directory: str) -> list[str]:
    return paths.list_files(directory, recursive=False, pattern="part-*.parquet")


def drop_drafts(root: str, keys: Iterable[str]) -> int:
    """Remove the drafts of these windows from every extractor's cache under `root` (what
    `forget` needs: a draft holds the window's words). A part file holding one is rewritten
    without it, or removed when nothing else is left; returns how many drafts went. Run it
    when no build writes to the cache."""
    wanted = pa.array(sorted(set(keys)), type=pa.string())
    if len(wanted) == 0 or not paths.exists(root):
        return 0
    removed = 0
    for directory in paths.list_dirs(root):
        for file in _part_files(directory):
            stored = paths.read_parquet(file, columns=["key"]).column("key")
            hit = pc.is_in(stored, value_set=wanted)
            found = pc.sum(hit).as_py() or 0
            if not found:
                continue  # only the key column of a file that holds none was read
            kept = paths.read_parquet(file).filter(pc.invert(hit))  # same rows, same order
            if kept.num_rows:
                paths.write_parquet(kept, paths.join(directory, f"part-{uuid.uuid4().hex}.parquet"))
            paths.remove(file)
            removed += found
    return removed


class ExtractCache:
    """Drafts of one extractor identity under `root`; safe for many concurrent writers."""

    def __init__(self, root: str | Path, identity: dict[str, Any]) -> None:
        payload = json.dumps(identity, sort_keys=True, ensure_ascii=False)
        self.fingerprint = hashlib.blake2b(payload.encode(), digest_size=10).hexdigest()
        self.dir = paths.join(str(root), self.fingerprint)
        paths.makedirs(self.dir)
        ident = paths.join(self.dir, "fingerprint.json")
        if not paths.exists(ident):
            paths.write_text(ident, payload)

    def _files(self) -> list[str]:
        return _part_files(self.dir)

    def _scan(self, keys: Iterable[str], columns: list[str]) -> pa.Table:
        wanted = pa.array(sorted(set(keys)), type=pa.string())
        files = self._files()
        if not files or len(wanted) == 0:
            return SCHEMA.empty_table().select(columns)
        dataset = paths.parquet_dataset(files, schema=SCHEMA)
        return dataset.to_table(columns=columns, filter=pc.is_in(pc.field("key"), wanted))

    def known(self, keys: Iterable[str]) -> set[str]:
        """The keys among `keys` that have a cached draft (reads the key column only)."""
        return set(self._scan(keys, ["key"]).column("key").to_pylist())

    def get(self, keys: Iterable[str]) -> dict[str, Extraction]:
        """Cached extractions for the keys present (a key written twice: either copy)."""
        table = self._scan(keys, ["key", "extractor", "draft"])
        return {
            key: Extraction(SnapshotDraft.model_validate_json(draft), extractor)
            for key, extractor, draft in zip(
                table.column("key").to_pylist(),
                table.column("extractor").to_pylist(),
                table.column("draft").to_pylist(),
                strict=True,
            )
        }

    def put(self, keys: list[str], extractions: list[Extraction]) -> None:
        """Add one part file, whole or absent (never a half-written part)."""
        if not keys:
            return
        table = pa.Table.from_pydict(
            {
                "key": keys,
                "extractor": [e.extractor for e in extractions],
                "draft": [e.draft.model_dump_json() for e in extractions],
            },
            schema=SCHEMA,
        )
        paths.write_parquet(table, paths.join(self.dir, f"part-{uuid.uuid4().hex}.parquet"))

    def compact(self, at_files: int = COMPACT_AT_FILES) -> None:
        """Merge part files into one when there are more than `at_files` (run by the driver
        after the build, when no writer is active)."""
        files = self._files()
        if len(files) <= at_files:
            return
        table = paths.parquet_dataset(files, schema=SCHEMA).to_table()
        paths.write_parquet(table, paths.join(self.dir, f"part-{uuid.uuid4().hex}.parquet"))
        for file in files:
            paths.remove(file)
