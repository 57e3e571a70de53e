"""Pick the extractor a config names; LLM backends import lazily so CPU runs never need vllm."""

from __future__ import annotations

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.base import Extractor
from arborwiki.core.extract.rules import RuleExtractor


def build_extractor(cfg: ExtractConfig) -> Extractor:
    if cfg.backend == "rules":
        return RuleExtractor(cfg)
    if cfg.backend == "vllm":
        from arborwiki.backends.vllm_backend import VLLMExtractor

        return VLLMExtractor(cfg)
    if cfg.backend == "openai":
        from arborwiki.backends.openai_backend import OpenAIExtractor

        return OpenAIExtractor(cfg)
    raise ValueError(f"unknown extract backend: {cfg.backend!r}")
