"""CachedEmbedder: the vectors `make` would give, `make` asked only for texts it lacks."""

from __future__ import annotations

import numpy as np

from arborwiki.core.cached_embedder import CachedEmbedder, text_digest


def lengths(texts: list[str]) -> np.ndarray:
    calls.append(list(texts))
    return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)


calls: list[list[str]] = []


def test_only_unknown_texts_are_made_once_each() -> None:
    calls.clear()
    known = {text_digest("old"): np.array([9.0, 9.0], dtype=np.float32)}
    embedder = CachedEmbedder(lengths, 2, static=True, known=known)
    out = embedder.embed(["old", "new one", "new one", "x"])
    assert out.tolist() == [[9, 9], [7, 1], [7, 1], [1, 1]]
    assert calls == [["new one", "x"]]  # a repeat and a known text are not made
    assert (embedder.made, embedder.reused) == (2, 2)
    assert set(embedder.fresh) == {text_digest("new one"), text_digest("x")}
    assert embedder.embed(["x"]).tolist() == [[1, 1]] and len(calls) == 1
    assert embedder.embed([]).shape == (0, 2)
