"""The shapes every model call shares: chat requests in, texts out (engine-free).

Backends (`backends.answers`, `backends.vllm_backend`, `backends.openai_backend`) build
these callables; core only calls them, so tests can drive any loop with a scripted model.
"""

from __future__ import annotations

from collections.abc import Callable

ChatMessages = list[dict[str, str]]  # [{"role": "system" | "user" | ..., "content": "..."}]
Generate = Callable[[list[ChatMessages]], list[str]]  # one text per request, same order
TaggedRequest = tuple[int, ChatMessages]
TaggedOutput = tuple[int, str]
# Tagged requests in, tagged texts out, in any order: the tags say which answer is whose.
GenerateTagged = Callable[[list[TaggedRequest]], list[TaggedOutput]]
