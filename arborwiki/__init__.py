"""arborwiki: conversation archives compiled into per-user long-term memory.

The code lives in the repository's top-level folders (core/, backends/, storage/,
cluster/, jobs/, synthetic/); each is a subpackage of this one through a relative link
(`arborwiki/core` → `../core`), so imports resolve on the filesystem (setup.py).

The public API (`arborwiki.open_store`, `arborwiki/api.py`) and the response models are
loaded on first use, so `import arborwiki` stays light (no Lance, no Ray, no numpy).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arborwiki.api import MemoryStore, open_store
    from arborwiki.core.query.result import (
        EvidenceMessage,
        HistoryResult,
        LocalizeResult,
        MemoryPage,
        PagesResult,
        QueryResult,
    )

_LAZY = {
    "open_store": "arborwiki.api",
    "MemoryStore": "arborwiki.api",
    "QueryResult": "arborwiki.core.query.result",
    "EvidenceMessage": "arborwiki.core.query.result",
    "LocalizeResult": "arborwiki.core.query.result",
    "HistoryResult": "arborwiki.core.query.result",
    "PagesResult": "arborwiki.core.query.result",
    "MemoryPage": "arborwiki.core.query.result",
}
__all__ = [
    "EvidenceMessage",
    "HistoryResult",
    "LocalizeResult",
    "MemoryPage",
    "MemoryStore",
    "PagesResult",
    "QueryResult",
    "open_store",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'arborwiki' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value
