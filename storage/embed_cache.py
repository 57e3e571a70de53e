"""The embedding cache: a text's vector, keyed by (user, text digest) and embedder identity.

A `PartCache` (storage/part_cache.py) with columns (user_id, key, vector) under
`<store>/_cache/embed/<fingerprint>`, the fingerprint naming the embedder (backend, model
folder, dimension). A recompile (a changed build setting, a nightly that re-places a user)
embeds only texts it has not embedded before. Rows carry their user, so `forget` drops all
of a user's vectors (a vector can be inverted into words) without knowing which texts made them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from arborwiki.storage import paths
from arborwiki.storage.part_cache import PartCache, drop_rows

STORE_CACHE = ("_cache", "embed")


def schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("user_id", pa.string(), nullable=False),
            pa.field("key", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dim), nullable=False),
        ]
    )


def embed_cache_root(store_dir: str) -> str:
    return paths.join(store_dir, *STORE_CACHE)


def drop_user_vectors(store_dir: str, user_ids: Iterable[str]) -> int:
    """Remove every cached vector of these users; returns how many went."""
    return drop_rows(embed_cache_root(store_dir), {"user_id": user_ids})


class EmbedCache(PartCache):
    """Vectors of one embedder identity; safe for many concurrent writers."""

    def __init__(self, store_dir: str | Path, identity: dict[str, Any], dim: int) -> None:
        super().__init__(embed_cache_root(str(store_dir)), {**identity, "dim": dim}, schema(dim))
        self.dim = dim

    def vectors(self, user_ids: Iterable[str]) -> dict[str, dict[str, np.ndarray]]:
        """user → text digest → vector, for the users asked (a key written twice: either)."""
        table = self.scan("user_id", user_ids, ["user_id", "key", "vector"])
        if not table.num_rows:
            return {}
        flat = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        rows = flat.astype(np.float32).reshape(-1, self.dim)
        found: dict[str, dict[str, np.ndarray]] = {}
        users = table.column("user_id").to_pylist()
        for user, key, row in zip(users, table.column("key").to_pylist(), rows, strict=True):
            found.setdefault(user, {})[key] = row
        return found

    def put(self, vectors: dict[str, dict[str, np.ndarray]]) -> None:
        """Add one part file with these users' new vectors (none: nothing written)."""
        rows = [(u, k, v) for u, by_key in vectors.items() for k, v in by_key.items()]
        if rows:
            matrix = np.stack([v for _, _, v in rows]).astype(np.float32)
            self.add(
                {
                    "user_id": [u for u, _, _ in rows],
                    "key": [k for _, k, _ in rows],
                    "vector": pa.FixedSizeListArray.from_arrays(matrix.reshape(-1), self.dim),
                }
            )
