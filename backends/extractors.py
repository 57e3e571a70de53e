"""Pick the extractor a config names; LLM backends import lazily so CPU runs never need vllm."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract import rules as rules_module
from arborwiki.core.extract.base import Extractor, Labeled, LabeledExtractor
from arborwiki.core.extract.rules import RuleExtractor


def build_extractor(cfg: ExtractConfig, **engine_kwargs: Any) -> Extractor:
    """The configured extractor (plain contract); for vllm this loads the engine."""
    if cfg.backend == "rules":
        return RuleExtractor(cfg)
    return build_labeled_extractor(cfg, **engine_kwargs)  # LLM extractors meet both


def build_labeled_extractor(cfg: ExtractConfig, **engine_kwargs: Any) -> LabeledExtractor:
    """What the build calls: drafts labeled by the path that made them. For vllm this loads
    the engine (slow: once per worker)."""
    if cfg.backend == "rules":
        return Labeled(RuleExtractor(cfg))
    if cfg.backend == "vllm":
        from arborwiki.backends.vllm_backend import VLLMExtractor

        return VLLMExtractor(cfg, **engine_kwargs)
    if cfg.backend == "openai":
        from arborwiki.backends.openai_backend import OpenAIExtractor

        return OpenAIExtractor(cfg)
    raise ValueError(f"unknown extract backend: {cfg.backend!r}")


def loads_engine(cfg: ExtractConfig) -> bool:
    """Whether building this extractor starts a model engine (counted as an engine load)."""
    return cfg.backend == "vllm"


@functools.cache
def _rules_code() -> str:
    """A digest of the rules extractor's sources: new rules never reuse old cached drafts."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(Path(rules_module.__file__).resolve().parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def extractor_fingerprint(cfg: ExtractConfig) -> dict[str, Any]:
    """What decides a window's draft besides the window: backend, model, decoding, prompt.

    Pool size, batch size, concurrency, endpoint URL and engine arguments only decide how
    fast drafts come, so they are left out: changing them keeps every cached draft.
    """
    from arborwiki.core.extract.prompts import SYSTEM_PROMPT, json_schema

    ident: dict[str, Any] = {
        "backend": cfg.backend,
        "max_keywords": cfg.max_keywords,
        "max_terms": cfg.max_keywords,  # one cap since 2026-12-06: cached drafts stay valid
    }
    if cfg.backend == "rules":
        ident["rules_code"] = _rules_code()
    else:
        ident.update(
            model=cfg.model,
            temperature=cfg.temperature,
            max_tokens=cfg.max_tokens,
            prompt=SYSTEM_PROMPT,
            schema=json_schema(),
        )
    return ident
