"""The one token-counting rule used for every budget (query, evaluation, baselines)."""

from __future__ import annotations

import math

from arborwiki.core.config import TokenConfig


def count_tokens(text: str, rule: TokenConfig | None = None) -> int:
    """ceil(words_factor · whitespace words) + per_message: deterministic, model-free."""
    rule = rule or TokenConfig()
    return math.ceil(rule.words_factor * len(text.split())) + rule.per_message
