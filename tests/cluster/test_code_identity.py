"""Shard outputs and cached drafts are keyed by the code that made them, not settings alone:
after an upgrade of the rules (or of placement, lifecycle, wiki) the same archive and config
rebuild instead of re-committing old claims as new."""

from __future__ import annotations

import pytest

from arborwiki.backends import extractors
from arborwiki.cluster import build
from arborwiki.core.config import Config


def test_the_shard_key_holds_the_code_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = Config()
    before = build.config_hash(cfg)
    assert len(build.code_digest()) == 16 and build.config_hash(cfg) == before  # stable
    monkeypatch.setattr(build, "code_digest", lambda: "other-code")
    assert build.config_hash(cfg) != before


def test_cached_rule_drafts_are_keyed_by_the_rules_code(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = Config().extract
    before = extractors.extractor_fingerprint(cfg)
    assert before["backend"] == "rules" and len(before["rules_code"]) == 16
    monkeypatch.setattr(extractors, "_rules_code", lambda: "other-rules")
    assert extractors.extractor_fingerprint(cfg) != before
