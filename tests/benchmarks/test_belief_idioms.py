"""The idiom benchmark's detector: a real change fires, the probed idioms do not (the
sentences the session-56 rules were fixed on; `unseen.txt` is measured, not pinned)."""

from __future__ import annotations

import pytest

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.rules import RuleExtractor
from benchmarks.belief_idioms.__main__ import HERE, fired, sentences


@pytest.fixture(scope="module")
def reader():
    cfg = Config()
    return cfg, Labeled(RuleExtractor(cfg.extract)), load_embedder()


def test_a_real_change_fires(reader) -> None:
    changed = fired("I moved to Seattle last weekend.", *reader)
    assert "home: lives in 'Seattle'" in changed
    assert "ended: lives in 'Denver'" in changed


@pytest.mark.parametrize("sentence", sentences(HERE / "probed.txt"))
def test_a_probed_idiom_fires_nothing(reader, sentence: str) -> None:
    assert fired(sentence, *reader) == []
