"""Pick the extractor a config names; LLM backends import lazily so CPU runs never need vllm."""

from __future__ import annotations

from core.config import ExtractConfig
from core.extract.base import Extractor
from core.extract.rules import RuleExtractor


def build_extractor(cfg: ExtractConfig) -> Extractor:
    if cfg.backend == "rules":
        return RuleExtractor(cfg)
    if cfg.backend == "vllm":
        from backends.vllm_backend import VLLMExtractor

        return VLLMExtractor(cfg)
    if cfg.backend == "openai":
        from backends.openai_backend import OpenAIExtractor

        return OpenAIExtractor(cfg)
    raise ValueError(f"unknown extract backend: {cfg.backend!r}")
