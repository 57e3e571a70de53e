"""LoCoMo-style questions and their gold evidence ids."""

from __future__ import annotations

import re
from dataclasses import dataclass

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_SPLIT = re.compile(r"[;,\s]+")


@dataclass(frozen=True)
class QA:
    user_id: str
    question: str
    category: int
    gold: tuple[str, ...]
    answer: str | None = None


def split_gold(raw: list[str]) -> tuple[str, ...]:
    """Gold ids as written, with malformed multi-id strings ("D8:6; D9:17") split."""
    ids: list[str] = []
    for item in raw:
        ids.extend(p for p in _SPLIT.split(str(item)) if p)
    return tuple(dict.fromkeys(ids))
