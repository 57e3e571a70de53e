"""Extraction over an OpenAI-compatible endpoint (e.g. `vllm serve`), stdlib HTTP only.

Same prompts, schema and guarded loop as the in-process backend. Requests run in a
bounded thread pool; transient failures (connection errors, 429, 5xx) back off and
retry, while other 4xx mean a bad request or config and fail at once.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from core.config import ExtractConfig
from core.extract.base import Extractor
from core.extract.guarded import TaggedOutput, TaggedRequest, guarded_extract
from core.extract.prompts import json_schema
from core.extract.schema import SnapshotDraft
from core.records import Window

BACKOFF_BASE_S = 0.5
"""First retry waits this long; each further retry doubles it."""
REQUEST_TIMEOUT_S = 120.0
"""Per-request socket timeout: long enough for a full draft from a loaded server."""


class TransientHTTPError(RuntimeError):
    """Worth retrying: the server is busy or unreachable, not wrong."""


class EndpointError(RuntimeError):
    """The endpoint rejected the request (4xx) or answered outside the protocol."""


def _content_of(body: bytes) -> str:
    """The assistant text of a chat completion; an empty answer becomes '' (repairable)."""
    try:
        return json.loads(body)["choices"][0]["message"]["content"] or ""
    except (ValueError, KeyError, IndexError, TypeError) as err:
        raise EndpointError(f"not a chat completion: {body[:200]!r}") from err


class OpenAIExtractor:
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
            from core.extract.rules import RuleExtractor

            fallback = RuleExtractor(cfg)
        self.cfg = cfg
        self.fallback = fallback
        self.url = cfg.base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key
        self.backoff_base_s = backoff_base_s
        self.timeout_s = timeout_s
        self.response_format = {
            "type": "json_schema",
            "json_schema": {"name": "snapshot_draft", "schema": json_schema(), "strict": True},
        }
        self.stats: dict[str, int] = {"ok": 0, "repaired": 0, "fallback": 0}
        self.last_stats: dict[str, int] = dict(self.stats)
        self.last_extractors: list[str] = []

    def _post_once(self, payload: bytes) -> bytes:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=payload, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                return response.read()
        except urllib.error.HTTPError as err:
            detail = f"HTTP {err.code} from {self.url}: {err.read()[:300]!r}"
            if err.code == 429 or err.code >= 500:
                raise TransientHTTPError(detail) from err
            raise EndpointError(detail) from err
        except (urllib.error.URLError, ConnectionError, TimeoutError) as err:
            raise TransientHTTPError(f"cannot reach {self.url}: {err}") from err

    def _post(self, messages: list[dict[str, str]]) -> str:
        """One chat completion, retried with exponential backoff on transient errors only."""
        body: dict[str, Any] = {
            "model": self.cfg.model,
            "messages": messages,
            "temperature": self.cfg.temperature,
            "max_tokens": self.cfg.max_tokens,
            "response_format": self.response_format,
        }
        payload = json.dumps(body).encode()
        for attempt in range(self.cfg.max_retries + 1):
            try:
                return _content_of(self._post_once(payload))
            except TransientHTTPError:
                if attempt == self.cfg.max_retries:
                    raise
                time.sleep(self.backoff_base_s * 2**attempt)
        raise AssertionError("unreachable: the loop returns or raises")

    def _generate(self, requests: list[TaggedRequest]) -> list[TaggedOutput]:
        def answer(request: TaggedRequest) -> TaggedOutput:
            index, messages = request
            return index, self._post(messages)

        with ThreadPoolExecutor(max_workers=self.cfg.max_concurrency) as pool:
            return list(pool.map(answer, requests))

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]:
        drafts, names, stats = guarded_extract(
            windows, self._generate, self.fallback, llm_name=self.name
        )
        for key, count in stats.items():
            self.stats[key] += count
        self.last_stats = stats
        self.last_extractors = names
        return drafts
