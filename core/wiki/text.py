"""Small text rules the wiki shares: entity names, item values, slugs, id order, dates."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from arborwiki.core.records import Claim
from arborwiki.core.words import normalize_phrase

# Determiners dropped from item values so "a dog" and "dog" count as one item.
LEADING_DETERMINERS = ("a", "an", "the", "my", "our", "his", "her", "their", "some")


def normalize_item(text: str) -> str:
    """An inventory item value: a normalized name without a leading determiner."""
    words = normalize_phrase(text).split()
    while len(words) > 1 and words[0] in LEADING_DETERMINERS:
        words = words[1:]
    return " ".join(words)


def slugify(text: str) -> str:
    """ASCII, lowercase, hyphens: a file name both Obsidian and plain Markdown follow."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "page"


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Order ids the way people read them: D1:3 before D1:10."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def sorted_ids(ids: Iterable[str]) -> list[str]:
    """Distinct ids in natural order, so output never depends on input order."""
    return sorted(set(ids), key=natural_key)


def claim_day(claim: Claim) -> str:
    """When a claim held: its event time, else the day it was recorded."""
    return (claim.event_time or claim.recorded_at.date()).isoformat()


@lru_cache(maxsize=256)
def trigger_pattern(triggers: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled regex per lexicon: any trigger as a whole word or phrase, plural 's' allowed
    ("dogs" matches "dog"). Texts must be passed through `normalize_phrase` first."""
    words = sorted({normalize_phrase(t) for t in triggers} - {""}, key=lambda w: (-len(w), w))
    if not words:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")s?\b")
