"""Word normalisation shared by the matching code (history, changed beliefs, localization)."""

from __future__ import annotations

import re

from arborwiki.core.extract.lexicon import STOP_WORDS

_WORD = re.compile(r"\w+")


def content_words(text: str) -> set[str]:
    """Lower-cased words minus stop words and single letters."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 1}


def stems(text: str) -> set[str]:
    """Content words with a plural/3rd-person "s" dropped, so "live" finds "lives in"."""
    return {
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in content_words(text)
    }
