"""The extraction cache: a window's draft, keyed by window content and extractor identity.

A `PartCache` (storage/part_cache.py) with columns (key, extractor, draft, user_id): the fingerprint
is a digest of what decides a draft besides the window (backend, model, decoding settings,
prompt and schema: `backends.extractors.extractor_fingerprint`), the key the window's content
digest. Many actors write at once; a rerun, a resumed run or a later run never sends a
cached window to the model again.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa

from arborwiki.core.extract.base import Extraction
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.storage import paths
from arborwiki.storage.part_cache import PartCache, drop_rows

SCHEMA = pa.schema(
    [
        pa.field("key", pa.string(), nullable=False),
        pa.field("extractor", pa.string(), nullable=False),
        pa.field("draft", pa.string(), nullable=False),
        pa.field("user_id", pa.string(), nullable=True),  # null in parts written before it
    ]
)
STORE_CACHE = ("_cache", "extract")
"""Where the cache lives under the store when `extract.cache_dir` is not set."""


def cache_root(cache_dir: str | None, store_dir: str) -> str:
    """`extract.cache_dir`, or the store's own cache folder."""
    return cache_dir or paths.join(store_dir, *STORE_CACHE)


def drop_drafts(root: str, users: Iterable[str] = (), keys: Iterable[str] = ()) -> int:
    """Remove, from every extractor's cache under `root`, every draft of these users (those
    of windows that have since grown or changed included: no stored snapshot has their key)
    and the drafts of these window keys (a draft holds its window's words); returns how many
    went."""
    return drop_rows(root, {"user_id": users, "key": keys})


class ExtractCache(PartCache):
    """Drafts of one extractor identity under `root`; safe for many concurrent writers."""

    def __init__(self, root: str | Path, identity: dict[str, Any]) -> None:
        super().__init__(root, identity, SCHEMA)

    def known(self, keys: Iterable[str]) -> set[str]:
        """The keys among `keys` that have a cached draft (reads the key column only)."""
        return set(self.scan("key", keys, ["key"]).column("key").to_pylist())

    def get(self, keys: Iterable[str]) -> dict[str, Extraction]:
        """Cached extractions for the keys present (a key written twice: either copy)."""
        table = self.scan("key", keys, ["key", "extractor", "draft"])
        return {
            key: Extraction(SnapshotDraft.model_validate_json(draft), extractor)
            for key, extractor, draft in zip(
                table.column("key").to_pylist(),
                table.column("extractor").to_pylist(),
                table.column("draft").to_pylist(),
                strict=True,
            )
        }

    def put(self, keys: list[str], users: list[str], extractions: list[Extraction]) -> None:
        """Add one part file, whole or absent (never a half-written part): each window's
        draft under its key, with the user whose window it is."""
        self.add(
            {
                "key": keys,
                "extractor": [e.extractor for e in extractions],
                "draft": [e.draft.model_dump_json() for e in extractions],
                "user_id": users,
            }
        )
