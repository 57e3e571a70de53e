"""The one token-counting rule used for every budget (query, evaluation, baselines).

ceil(1.3 · whitespace words) + 4 per message: the rule the benchmark measures every system
with (docs/evaluation.md), so a constant of the measurement, not a setting (it was
`tokens.words_factor` and `tokens.per_message` until 2026-12-06; a budget counted otherwise
is not comparable).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class TokenRule:
    words_factor: float = 1.3
    per_message: int = 4


TOKEN_RULE = TokenRule()


def count_tokens(text: str, rule: TokenRule = TOKEN_RULE) -> int:
    """ceil(words_factor · whitespace words) + per_message: deterministic, model-free."""
    return tokens_for_words(len(text.split()), rule)


def tokens_for_words(words: int, rule: TokenRule = TOKEN_RULE) -> int:
    """`count_tokens` of a text of `words` whitespace words (for callers that keep counts)."""
    return math.ceil(rule.words_factor * words) + rule.per_message
