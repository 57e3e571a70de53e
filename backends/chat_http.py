"""One OpenAI-compatible chat completion over stdlib HTTP, with retries on transient errors.

Shared by extraction (`OpenAIExtractor`) and answering (`core.answer`), so both speak to
an endpoint the same way: connection errors, 429 and 5xx back off and retry; other 4xx
mean a bad request or config and fail at once.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

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


def json_schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The `response_format` that constrains the answer to `schema`."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


class ChatEndpoint:
    """POST /chat/completions with fixed model, sampling and response format."""

    def __init__(
        self,
        base_url: str,
        model: str,
        temperature: float,
        max_tokens: int,
        max_retries: int,
        response_format: dict[str, Any] | None = None,
        api_key: str | None = None,
        backoff_base_s: float = BACKOFF_BASE_S,
        timeout_s: float = REQUEST_TIMEOUT_S,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.temperature, self.max_tokens = model, temperature, max_tokens
        self.max_retries = max_retries
        self.response_format = response_format
        self.api_key = api_key
        self.backoff_base_s = backoff_base_s
        self.timeout_s = timeout_s

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

    def complete(self, messages: list[dict[str, str]]) -> str:
        """One chat completion, retried with exponential backoff on transient errors only."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.response_format is not None:
            body["response_format"] = self.response_format
        payload = json.dumps(body).encode()
        for attempt in range(self.max_retries + 1):
            try:
                return _content_of(self._post_once(payload))
            except TransientHTTPError:
                if attempt == self.max_retries:
                    raise
                time.sleep(self.backoff_base_s * 2**attempt)
        raise AssertionError("unreachable: the loop returns or raises")
