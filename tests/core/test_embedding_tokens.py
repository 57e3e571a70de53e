"""The static embedder's cached word pieces give the tokenizer's own ids, and so the same
vectors: on fuzzed text (punctuation, whitespace, control characters, non-ASCII, added
tokens, over-long words and texts) and on the LoCoMo dev conversations."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from arborwiki.core.embedding import StaticEmbedder, WordPieceCache, load_embedder

LOCOMO_DEV = Path(__file__).resolve().parents[3] / "shared/data/locomo/locomo_dev.json"
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyz" * 3
    + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" * 2
    + " " * 20
    + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    + "\t\n\r\x00\x01\x0b\x0c\x7f"
    + "éüñ中文ß—’…\u00a0\u2003"
)


def _fuzzed(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        length = rng.choice([0, 1, 3, 10, 40, 200])
        text = "".join(rng.choice(ALPHABET) for _ in range(length))
        if rng.random() < 0.5:  # mostly plain ASCII words, as chat is
            text = " ".join(rng.choice(["hello", "World", "don't", "e-mail", "3.14", text]))
        texts.append(text)
    texts += [
        "[UNK]",
        "see [UNK] and [PAD] here",
        "[unk] is lowercase",
        "x" * 150,
        "supercalifragilistic" * 6 + " end",
        " ".join(["word"] * 700),  # past the 512-token truncation
        "a, " * 400,
        "",
        "   ",
    ]
    return texts


def _reference(embedder: StaticEmbedder, texts: list[str]) -> list[list[int]]:
    model = embedder._model
    encodings = model.tokenizer.encode_batch_fast(texts, add_special_tokens=False)
    return [[t for t in e.ids if t != model.unk_token_id] for e in encodings]


@pytest.fixture(scope="module")
def embedder() -> StaticEmbedder:
    loaded = load_embedder()
    assert isinstance(loaded, StaticEmbedder)
    return loaded


def test_cached_pieces_equal_the_tokenizer_on_fuzzed_text(embedder: StaticEmbedder) -> None:
    texts = _fuzzed(3000, seed=7)
    fresh = WordPieceCache(embedder._model.tokenizer, embedder._model.unk_token_id)
    assert fresh(texts) == _reference(embedder, texts)
    assert fresh(texts) == _reference(embedder, texts)  # second pass: every word cached


def test_cached_pieces_equal_the_tokenizer_on_locomo(embedder: StaticEmbedder) -> None:
    if not LOCOMO_DEV.exists():
        pytest.skip("LoCoMo dev data not on this machine")
    data = json.loads(LOCOMO_DEV.read_text())
    texts = [
        turn.get("text", "")
        for conversation in data
        for key, session in conversation["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    assert len(texts) > 1000
    fresh = WordPieceCache(embedder._model.tokenizer, embedder._model.unk_token_id)
    assert fresh(texts) == _reference(embedder, texts)


def test_vectors_are_unchanged(embedder: StaticEmbedder) -> None:
    texts = _fuzzed(500, seed=11)
    model = embedder._model
    cached = embedder.embed(texts)
    model.tokenize = type(model).tokenize.__get__(model)  # the library's own tokenize
    try:
        reference = embedder.embed(texts)
    finally:
        model.tokenize = WordPieceCache(model.tokenizer, model.unk_token_id)
    assert np.array_equal(cached, reference)
