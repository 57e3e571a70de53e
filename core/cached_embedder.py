"""An embedder that answers from vectors made before and makes only the rest.

The build's compile step embeds every message, snapshot and page of a user. With a slow
embedder (a transformer on the CPU, or a GPU pool shared by many workers), a recompile must
not embed again what it embedded last night: vectors are looked up by the digest of their
text (`text_digest`), the misses made by `make` in one call, and the new ones kept in
`fresh` for the caller to store. Pure: where the vectors come from and go is the caller's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class CachedEmbedder:
    """`embed(texts)` as `make` would give it, `make` called only for unknown texts."""

    def __init__(
        self,
        make: Callable[[list[str]], np.ndarray],
        dim: int,
        static: bool,
        known: dict[str, np.ndarray] | None = None,
    ) -> None:
        self.make, self.dim, self.static = make, dim, static
        self.known = dict(known or {})
        self.fresh: dict[str, np.ndarray] = {}
        self.made = 0
        self.reused = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        keys = [text_digest(t) for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self.known))
        if missing:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            made = np.asarray(self.make([by_key[k] for k in missing]), dtype=np.float32)
            for key, row in zip(missing, made, strict=True):
                self.known[key] = self.fresh[key] = row
            self.made += len(missing)
        self.reused += len(texts) - len(missing)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.known[k] for k in keys])
