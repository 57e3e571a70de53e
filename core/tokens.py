"""The one token-counting rule used for every budget (query, evaluation, baselines)."""

from __future__ import annotations

import math

from arborwiki.core.config import TokenConfig


def count_tokens(text: str, rule: TokenConfig | None = None) -> int:
    """ceil(words_factor · whitespace words) + per_message: deterministic, model-free."""
    return tokens_for_words(len(text.split()), rule or TokenConfig())


def tokens_for_words(words: int, rule: TokenConfig) -> int:
    """`count_tokens` of a text of `words` whitespace words (for callers that keep counts)."""
    return math.ceil(rule.words_factor * words) + rule.per_message
