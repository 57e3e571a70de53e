"""Question analysis: what a question asks for (counts, lists, entities, terms)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arborwiki.core.words import FUNCTION_WORDS as STOP

_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")
_COUNT = re.compile(r"\bhow (many|much|often)\b|\bnumber of\b|\bcount\b", re.I)
_LIST = re.compile(
    r"\b(what|which) (are|were|kinds?|types?|things|books|places|pets|activities)\b"
    r"|\blist\b|\ball (the|of)\b|\bwhat \w+ (has|have|did)\b",
    re.I,
)


@dataclass(frozen=True)
class QuestionInfo:
    text: str
    tokens: frozenset[str]
    is_count: bool
    is_list: bool
    entities: frozenset[str] = field(default_factory=frozenset)


def analyze_question(text: str, known_entities: frozenset[str] = frozenset()) -> QuestionInfo:
    """Content tokens, count/list intent, and which of the user's entities it names."""
    lowered = text.lower()
    tokens = frozenset(w.strip("'") for w in _WORD.findall(lowered) if w not in STOP)
    entities = frozenset(
        e for e in known_entities if e and re.search(rf"\b{re.escape(e)}\b", lowered)
    )
    return QuestionInfo(
        text=text,
        tokens=tokens,
        is_count=bool(_COUNT.search(text)),
        is_list=bool(_LIST.search(text)),
        entities=entities,
    )
