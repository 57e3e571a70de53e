"""Extraction over an OpenAI-compatible endpoint (e.g. `vllm serve`), stdlib HTTP only.

Same prompts, schema and guarded loop as the in-process backend. Requests run in a
bounded thread pool; transient failures (connection errors, 429, 5xx) back off and
retry, while other 4xx mean a bad request or config and fail at once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from arborwiki.backends.chat_http import (
    BACKOFF_BASE_S,
    REQUEST_TIMEOUT_S,
    ChatEndpoint,
    EndpointError,
    TransientHTTPError,
    json_schema_format,
)
from arborwiki.core.chat import TaggedOutput, TaggedRequest
from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.base import ExtractionBatch, Extractor, PlainDrafts
from arborwiki.core.extract.guarded import guarded_batch
from arborwiki.core.extract.prompts import json_schema
from arborwiki.core.records import Window

__all__ = ["EndpointError", "OpenAIExtractor", "TransientHTTPError"]


class OpenAIExtractor(PlainDrafts):
    """Extractor over HTTP; `last_extractors` / `stats` as for VLLMExtractor."""

    name = "openai"

    def __init__(
        self,
        cfg: ExtractConfig,
        fallback: Extractor | None = None,
        api_key: str | None = None,
        backoff_base_s: float = BACKOFF_BASE_S,
        timeout_s: float = REQUEST_TIMEOUT_S,
    ) -> None:
        if fallback is None:
            from arborwiki.core.extract.rules import RuleExtractor

            fallback = RuleExtractor(cfg)
        super().__init__()
        self.cfg = cfg
        self.fallback = fallback
        self.endpoint = ChatEndpoint(
            cfg.base_url,
            cfg.model,
            cfg.temperature,
            cfg.max_tokens,
            cfg.max_retries,
            json_schema_format("snapshot_draft", json_schema()),
            api_key,
            backoff_base_s,
            timeout_s,
        )
        self.url = self.endpoint.url

    def _generate(self, requests: list[TaggedRequest]) -> list[TaggedOutput]:
        def answer(request: TaggedRequest) -> TaggedOutput:
            index, messages = request
            return index, self.endpoint.complete(messages)

        with ThreadPoolExecutor(max_workers=self.cfg.max_concurrency) as pool:
            return list(pool.map(answer, requests))

    def extract_labeled(self, windows: list[Window]) -> ExtractionBatch:
        """All windows' requests at once, at most `max_concurrency` in flight; labeled."""
        return guarded_batch(windows, self._generate, self.fallback, llm_name=self.name)
